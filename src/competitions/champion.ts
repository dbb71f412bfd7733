// The champion shown in the event list (champion_name). Null is the honest answer whenever the
// data does not yet settle it: consumers show "to be decided", never a provisional leader.
import { resolveTeams, compareBracketMatches, type ResolvedMatch } from './bracket.js';
import { bracketContext } from './group-feeds.js';
import { computeStandings, teamNames } from './standings.js';
import type { BracketContext, EventFacts, MatchFacts, TeamFacts } from './types.js';

/** The winners bracket's ties: its matches, a first leg left out (half of a tie that its second leg decides). */
const winnersTies = (matches: readonly MatchFacts[]) => matches.filter((m) => m.bracket_role === 'winners' && m.leg !== 1);

/** The last of the matches with this role in bracket order (the latest round wins if data has several). */
function lastWithRole(matches: MatchFacts[], role: MatchFacts['bracket_role']): MatchFacts | undefined {
  return matches.filter((m) => m.bracket_role === role).sort(compareBracketMatches).at(-1);
}

/**
 * The match that decides a bracket, or null when the data says it is not decided yet (or cannot be).
 *
 * Double elimination: the reset is only played when the losers-bracket finalist wins the grand final.
 * We trust the data on whether it is needed: a cancelled (or absent) reset means the grand final
 * decided; a reset that is still scheduled means we cannot name a champion yet, even if the
 * winners-bracket finalist took the grand final (the organizer has not closed the reset).
 */
function knockoutChampionId(matches: MatchFacts[], context: BracketContext): string | null {
  // A first leg is half of a tie that its second leg decides: it is never the deciding match.
  const bracket = matches.filter((m) => m.bracket_role !== null && m.leg !== 1);
  if (bracket.length === 0) return null;
  const resolved = resolveTeams(matches, context);
  const winnerOf = (m: MatchFacts | undefined): string | null =>
    m === undefined ? null : (resolved.get(m.id)?.winner ?? null);

  const grandFinal = lastWithRole(bracket, 'grand_final');
  const reset = lastWithRole(bracket, 'grand_final_reset');
  if (grandFinal !== undefined || reset !== undefined) {
    const resetWinner = winnerOf(reset);
    if (resetWinner !== null) return resetWinner;
    if (reset !== undefined && reset.status !== 'cancelled') return null;
    return winnerOf(grandFinal);
  }

  // Every tie but one leading on (none: several in the last round, or a round not drawn yet), that one is the final.
  const winners = winnersTies(bracket);
  if (winners.length === 0 || tiesLeadingNowhere(matches, resolved).length > 0) return null;
  const lastRound = Math.max(...winners.map((m) => m.round_ordinal));
  return winnerOf(winners.find((m) => m.round_ordinal === lastRound));
}

/**
 * The winners-bracket ties whose winners lead to no later match yet, but for the final: a cup drawn round by round,
 * entered as far as it is drawn. Its last match is not its final while there are any (a review's cup, one semi-final
 * of two entered, named that semi-final's winner champion), and a last round of several matches has no final at
 * all. A tie leads on when its winner feeds a later match, or plays in one (a round drawn with its teams named). A
 * first leg is half of a tie; a double elimination's grand final decides it instead (none then).
 */
export function tiesLeadingNowhere(matches: readonly MatchFacts[], resolved: ReadonlyMap<string, ResolvedMatch>): MatchFacts[] {
  if (matches.some((m) => m.bracket_role === 'grand_final' || m.bracket_role === 'grand_final_reset')) return [];
  const winners = winnersTies(matches);
  if (winners.length === 0) return [];
  const lastRound = Math.max(...winners.map((m) => m.round_ordinal));
  const finals = winners.filter((m) => m.round_ordinal === lastRound);
  const goesOn = (m: MatchFacts) => {
    const later = winners.filter((n) => n.round_ordinal > m.round_ordinal);
    const fed = (n: MatchFacts) =>
      (n.home_source_match_id === m.id && n.home_source_outcome === 'winner') || (n.away_source_match_id === m.id && n.away_source_outcome === 'winner');
    if (later.some(fed)) return true;
    const winner = resolved.get(m.id)?.winner ?? null;
    return winner !== null && later.some((n) => resolved.get(n.id)?.home === winner || resolved.get(n.id)?.away === winner);
  };
  return winners.filter((m) => !(finals.length === 1 && m === finals[0]) && !goesOn(m)).sort(compareBracketMatches);
}

/**
 * Teams a winners-bracket tie put out that a later winners-bracket match names all the same: a round drawn with its
 * teams named, a beaten team typed in (a review's cup took Dunmore, beaten in round one, into round two without a
 * word). Said by the import, not refused: a team reinstated (a winner disqualified) is put back so.
 */
export function beatenPlayingOn(
  matches: readonly MatchFacts[],
  resolved: ReadonlyMap<string, ResolvedMatch>,
): Array<{ team: string; beatenIn: string; playsIn: string }> {
  const winners = winnersTies(matches).sort(compareBracketMatches);
  const out: Array<{ team: string; beatenIn: string; playsIn: string }> = [];
  for (const m of winners) {
    const loser = resolved.get(m.id)?.loser ?? null;
    if (loser === null) continue;
    const later = winners.find((n) => n.round_ordinal > m.round_ordinal && (resolved.get(n.id)?.home === loser || resolved.get(n.id)?.away === loser));
    if (later !== undefined) out.push({ team: loser, beatenIn: m.id, playsIn: later.id });
  }
  return out;
}

/**
 * The champion's team id. League: the top of the table, but only once the event is completed (a leader mid-season is not a
 * champion) and only when the rules put it there (not the name, in wait of a recorded play-off or lots). Knockout and hybrid: the winner of the deciding match, whatever the event status, since
 * a decided final is final. Needs the event's points rule because it decides who tops a league.
 */
export function championId(
  event: Pick<EventFacts, 'competition_type' | 'status' | 'points' | 'rules'>,
  matches: MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
): string | null {
  if (event.competition_type === 'league') {
    if (event.status !== 'completed') return null;
    const leaders = computeStandings(matches, teams, event.points, event.rules, event.status).filter((r) => r.rank === 1);
    // One table has one leader; several tables (groups) in a league would leave the title ambiguous. A leader only the
    // name puts first, level with another club where the rules want a decision (a play-off, lots), is not champion yet.
    const leader = leaders.length === 1 ? leaders[0] : undefined;
    return leader === undefined || leader.awaiting_decision ? null : leader.team_id;
  }
  return knockoutChampionId(matches, bracketContext(event, matches, teams));
}

/** The champion's names (as written, and its Arabic one), or null: none yet. */
export function championNames(
  event: Pick<EventFacts, 'competition_type' | 'status' | 'points' | 'rules'>,
  matches: MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
): { name: string; name_ar: string | null } | null {
  const id = championId(event, matches, teams);
  return id === null ? null : teamNames(teams, id);
}

/** The champion's name as written (`champion_name`), or null. */
export function championName(
  event: Pick<EventFacts, 'competition_type' | 'status' | 'points' | 'rules'>,
  matches: MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
): string | null {
  return championNames(event, matches, teams)?.name ?? null;
}
