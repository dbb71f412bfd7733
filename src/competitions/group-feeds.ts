// A hybrid event's group stage feeding its knockout: which team a group's final table puts at a position, once the
// group is finished. Pure: the same matches give the same places.
import { computeStandings } from './standings.js';
import type { BracketContext, EventFacts, MatchFacts, TeamFacts } from './types.js';

/**
 * A group is finished when every one of its matches is completed or cancelled (a cancelled match is never played,
 * so it cannot hold the table back) and at least one was completed. Until then its places are unknown (null), never
 * a provisional leader: the bracket and the calendar say "Winner Group A" instead. So is a place the rules leave to a
 * decision (lots, fair play) that is not recorded yet: the name that orders the table meanwhile seeds nobody.
 */
export function bracketContext(
  event: Pick<EventFacts, 'points' | 'rules'>,
  matches: MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
): BracketContext {
  const awayGoalsRule = event.rules?.away_goals_rule ?? false;
  const fedByGroup = matches.some((m) => m.home_source_group != null || m.away_source_group != null);
  if (!fedByGroup) return { awayGoalsRule, groupPlace: () => null };
  const finished = new Map<string, boolean>();
  for (const m of matches) {
    if (m.bracket_role !== null || m.group_name === null) continue;
    const done = m.status === 'completed' || m.status === 'cancelled';
    finished.set(m.group_name, (finished.get(m.group_name) ?? true) && done);
  }
  const playedIn = new Set(matches.filter((m) => m.bracket_role === null && m.status === 'completed').map((m) => m.group_name));
  let places: Map<string, string> | null = null;
  return {
    awayGoalsRule,
    groupPlace(group, position) {
      if (finished.get(group) !== true || !playedIn.has(group)) return null;
      // Tables are computed once, on the first question.
      // A place only the name gives, where the rules want a decision (lots, fair play) not yet recorded, is not known.
      places ??= new Map(
        computeStandings(matches, teams, event.points, event.rules)
          .filter((r) => !r.awaiting_decision)
          .map((r) => [`${r.group_name}\u0000${r.rank}`, r.team_id]),
      );
      return places.get(`${group}\u0000${position}`) ?? null;
    },
  };
}
