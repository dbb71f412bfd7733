// League and group tables. Pure: the same matches always give the same table, byte for byte,
// whatever the host locale or the order the matches arrive in.
import type { EventStatus } from '../vocabulary/enums.js';
import { localizedName, type Language } from '../vocabulary/language.js';
import type { CompetitionRules, MatchFacts, PointsRule, TeamFacts } from './types.js';
import { ANY_DIGIT, asciiDigits } from '../vocabulary/digits.js';
import { compareCodeUnits, orderClubs, PRESETS, type Tally } from './tiebreakers.js';

const DIGIT_FIRST = new RegExp(`^[${ANY_DIGIT}]`);

export { compareCodeUnits };

export interface StandingsRow extends Tally {
  rank: number;
  club_name: string;
  /** The Arabic name given beside it, null when none was (public: `club_name_ar`). */
  club_name_ar: string | null;
  /** Internal: the public encoder decides whether to expose it. */
  team_id: string;
  /** Internal: null for a single table, the group label in a hybrid event. */
  group_name: string | null;
  /**
   * Points of `points` that come from adjustments (deductions are negative); null when the event has no
   * adjustments at all, so that its public rows keep exactly their earlier fields.
   */
  adjustment_points: number | null;
  /**
   * Internal, never published: the rules leave this club level with another after every criterion the event lists
   * up to its `decision`, and no decision is recorded for them, so only the name puts it here (tiebreakers.ts
   * Ranking). Its place is not a result yet: a group feed gives nobody and a league has no champion on it.
   */
  awaiting_decision: boolean;
}

/** How tables rank and count when an event says nothing: the service's order before rules existed. */
export const DEFAULT_RULES: CompetitionRules = { tiebreakers: PRESETS.default, decisions: [], adjustments: [], away_goals_rule: false };

/** A match whose result is final and complete enough to count. */
interface Counted {
  home: string;
  away: string;
  homeScore: number;
  awayScore: number;
}

function emptyTally(): Tally {
  return { played: 0, won: 0, drawn: 0, lost: 0, goals_for: 0, goals_against: 0, points: 0, away_goals_for: 0, away_won: 0 };
}

/**
 * Group labels in natural order so "Group 10" follows "Group 9" (and "المجموعة ١٠" follows "المجموعة ٩": a review's
 * twelve Arabic groups came out 1, 10, 11, 12, 2, …); still locale-independent: digit runs (ASCII or Arabic-Indic)
 * compare by value, everything else by code unit.
 */
export function compareGroupNames(a: string | null, b: string | null): number {
  // The ungrouped table (if any sits beside groups) comes first: it is the event's main table.
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const chunk = new RegExp(`([${ANY_DIGIT}]+)|([^${ANY_DIGIT}]+)`, 'g');
  const pa = a.match(chunk) ?? [];
  const pb = b.match(chunk) ?? [];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    const xd = DIGIT_FIRST.test(x);
    const yd = DIGIT_FIRST.test(y);
    if (xd && yd) {
      // Compare by length first so digit runs longer than a safe integer still order by value.
      const xs = asciiDigits(x).replace(/^0+(?=\d)/, '');
      const ys = asciiDigits(y).replace(/^0+(?=\d)/, '');
      if (xs.length !== ys.length) return xs.length - ys.length;
      const c = compareCodeUnits(xs, ys);
      if (c !== 0) return c;
    } else {
      const c = compareCodeUnits(x, y);
      if (c !== 0) return c;
    }
  }
  if (pa.length !== pb.length) return pa.length - pb.length;
  // "Group 01" and "Group 1" are different labels; keep their order total.
  return compareCodeUnits(a, b);
}

/**
 * The team's display name. Teams referenced by matches always exist in the database (foreign key);
 * the id fallback only keeps the function total for hand-built inputs.
 */
export function teamName(teams: ReadonlyMap<string, TeamFacts>, teamId: string): string {
  return teams.get(teamId)?.name ?? teamId;
}

/** A team's names as the JSON reads give them: as written (teamName), and the Arabic one given beside it (null: none). */
export function teamNames(teams: ReadonlyMap<string, TeamFacts>, teamId: string): { name: string; name_ar: string | null } {
  return { name: teamName(teams, teamId), name_ar: teams.get(teamId)?.name_ar ?? null };
}

/** A team's name as the organization's people read it (localizedName: its Arabic one in Arabic), or null if unknown. */
export function localizedTeamName(teams: ReadonlyMap<string, TeamFacts>, teamId: string | null, language: Language): string | null {
  const t = teamId === null ? undefined : teams.get(teamId);
  return t ? localizedName(t.name, t.name_ar, language) : null;
}

function countable(m: MatchFacts): Counted | null {
  if (m.bracket_role !== null || m.status !== 'completed') return null;
  if (m.home_team_id === null || m.away_team_id === null) return null;
  if (m.home_score === null || m.away_score === null) return null;
  return { home: m.home_team_id, away: m.away_team_id, homeScore: m.home_score, awayScore: m.away_score };
}

function addResult(t: Tally, scored: number, conceded: number, points: PointsRule, away: boolean): void {
  t.played += 1;
  t.goals_for += scored;
  if (away) t.away_goals_for += scored;
  t.goals_against += conceded;
  if (scored > conceded) {
    t.won += 1;
    if (away) t.away_won += 1;
    t.points += points.win;
  } else if (scored < conceded) {
    t.lost += 1;
    t.points += points.loss;
  } else {
    t.drawn += 1;
    t.points += points.draw;
  }
}

/** Tallies for exactly `teamIds`, over the counted matches among them (or all, for the main table). */
function tally(teamIds: Iterable<string>, matches: Counted[], points: PointsRule, onlyAmong: boolean): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const id of teamIds) out.set(id, emptyTally());
  for (const m of matches) {
    const h = out.get(m.home);
    const a = out.get(m.away);
    if (onlyAmong && (h === undefined || a === undefined)) continue;
    if (h !== undefined) addResult(h, m.homeScore, m.awayScore, points, false);
    if (a !== undefined) addResult(a, m.awayScore, m.homeScore, points, true);
  }
  return out;
}

function oneTable(
  groupName: string | null,
  teamIds: Set<string>,
  groupMatches: MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
  points: PointsRule,
  rules: CompetitionRules,
  eventCancelled: boolean,
): StandingsRow[] {
  const counted = groupMatches.map(countable).filter((c): c is Counted => c !== null);
  // Matches of the table still to be played (scheduled, postponed, under way): a cancelled one never will be, nor any
  // of a cancelled competition (publicMatchStatus). Found only when a criterion asks (all_meetings_played).
  let toCome: MatchFacts[] | undefined;
  const stillToCome = () =>
    (toCome ??= eventCancelled ? [] : groupMatches.filter((m) => countable(m) === null && m.status !== 'cancelled' && m.status !== 'completed'));
  const table = tally(teamIds, counted, points, false);
  const adjusted = new Map<string, number>();
  for (const a of rules.adjustments) {
    if (!table.has(a.team)) continue;
    adjusted.set(a.team, (adjusted.get(a.team) ?? 0) + a.points);
    (table.get(a.team) as Tally).points += a.points;
  }
  const nameOf = (id: string): string => teamName(teams, id);
  // Sorted by id first so that the ranking never depends on the order the matches arrived in.
  const { order: ordered, awaitingDecision } = orderClubs([...teamIds].sort(compareCodeUnits), rules.tiebreakers, {
    overall: table,
    headToHead: (ids) => tally(ids, counted, points, true),
    allMeetingsPlayed: (ids) => !stillToCome().some((m) => m.home_team_id !== null && m.away_team_id !== null && ids.includes(m.home_team_id) && ids.includes(m.away_team_id)),
    nameOf,
    decisions: rules.decisions,
  });
  return ordered.map((id, i) => ({
    rank: i + 1,
    club_name: nameOf(id),
    club_name_ar: teamNames(teams, id).name_ar,
    ...(table.get(id) as Tally),
    team_id: id,
    group_name: groupName,
    adjustment_points: rules.adjustments.length === 0 ? null : (adjusted.get(id) ?? 0),
    awaiting_decision: awaitingDecision.has(id),
  }));
}

/**
 * The table(s) of an event. Bracket matches never count; a group-stage or league fixture puts its
 * teams in the table even before it is played, so a new season shows every club at 0.
 * Only completed matches with both scores count: a walkover without a score is a bracket concept,
 * and a league that awards one records the awarded score.
 */
export function computeStandings(
  matches: MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
  points: PointsRule,
  rules: CompetitionRules = DEFAULT_RULES,
  /** The competition's status: a cancelled one has no match still to come. */
  eventStatus: EventStatus = 'in_progress',
): StandingsRow[] {
  const groups = new Map<string | null, { teamIds: Set<string>; matches: MatchFacts[] }>();
  for (const m of matches) {
    if (m.bracket_role !== null) continue;
    let g = groups.get(m.group_name);
    if (g === undefined) {
      g = { teamIds: new Set(), matches: [] };
      groups.set(m.group_name, g);
    }
    g.matches.push(m);
    if (m.home_team_id !== null) g.teamIds.add(m.home_team_id);
    if (m.away_team_id !== null) g.teamIds.add(m.away_team_id);
  }
  return [...groups.keys()]
    .sort(compareGroupNames)
    .flatMap((name) => {
      const g = groups.get(name) as { teamIds: Set<string>; matches: MatchFacts[] };
      return oneTable(name, g.teamIds, g.matches, teams, points, rules, eventStatus === 'cancelled');
    });
}
