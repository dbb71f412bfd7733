
// Tie-break criteria and the presets that follow real regulations (README "Tie-break rules" cites each article).
// Pure: given the tallies, the order of clubs level on points is a function of the criteria list alone.
import { pushInto } from '../collections.js';
import type { TiebreakCriterion, TiebreakPreset } from '../vocabulary/enums.js';
import type { Decision } from './types.js';

/** Counters of one club over some set of matches (the whole table, or the matches among clubs level). */
export interface Tally {
  played: number;
  won: number;
  drawn: number;
  lost: number;
  goals_for: number;
  goals_against: number;
  /** Match points plus adjustments (a head-to-head tally has no adjustments). */
  points: number;
  /** Goals scored in away matches. */
  away_goals_for: number;
  /** Away matches won. */
  away_won: number;
}

/**
 * The presets, each exactly its regulation's order; `decision` stands for what the regulation settles off the
 * pitch (fair-play points, drawing of lots, a play-off), and `name` keeps the order total when nothing was recorded.
 */
export const PRESETS: Record<TiebreakPreset, readonly TiebreakCriterion[]> = {
  // The service's order before presets existed: overall first, then head-to-head, re-applied.
  default: ['points', 'goal_difference', 'goals_for', 'head_to_head_points', 'head_to_head_goal_difference', 'head_to_head_goals_for', 'reapply_head_to_head', 'name'],
  // FIFA World Cup Qatar 2022 Regulations, art. 32.5: (a)-(c) all group matches, (d)-(f) matches between the teams
  // concerned (not re-applied), (g) team conduct score, (h) drawing of lots.
  fifa_world_cup: ['points', 'goal_difference', 'goals_for', 'head_to_head_points', 'head_to_head_goal_difference', 'head_to_head_goals_for', 'decision', 'name'],
  // UEFA EURO 2020 Regulations, art. 20.01 (EURO 2024 the same): (a)-(c) head-to-head, (d) re-applied to the teams
  // still level, (e)-(f) goal difference and goals in all group matches, (g) penalties between two teams level that
  // drew their last match, (h) more wins in all group matches, (i) disciplinary points, (j) European Qualifiers overall
  // ranking: (g), (i) and (j) are the organizer's decision. `wins` comes before the one `decision` step: two teams of a
  // three-match group that drew each other and are level on points have the same number of wins, so (g) before (h)
  // changes nothing there, and a decision recorded for (i) or (j) must not overrule (h).
  uefa: ['points', 'head_to_head_points', 'head_to_head_goal_difference', 'head_to_head_goals_for', 'reapply_head_to_head', 'goal_difference', 'goals_for', 'wins', 'decision', 'name'],
  // Premier League Handbook 2023/24, rule C.17: goal difference, goals scored, then points in the matches between
  // the clubs, away goals in those matches, then a play-off.
  premier_league: ['points', 'goal_difference', 'goals_for', 'head_to_head_points', 'head_to_head_away_goals_for', 'decision', 'name'],
  // RFEF Reglamento General, art. 201 (LaLiga): the matches between the clubs level first (points, then goal
  // difference; for two clubs their two meetings' goal difference, which orders them as their points there do), then
  // all matches (goal difference, goals), then fair play. The article ranks the final table; LaLiga's tables during
  // the season use the meetings only once all of them are played (before, goal difference decides): a review's
  // LaLiga 2018-19 after matchday 11 put Levante above Real Madrid on one meeting of two.
  la_liga: ['points', 'all_meetings_played', 'head_to_head_points', 'head_to_head_goal_difference', 'goal_difference', 'goals_for', 'decision', 'name'],
  // FIGC NOIF art. 51 as Lega Serie A applies it (the "classifica avulsa"): points and goal difference in the matches
  // between the clubs level, then overall goal difference, goals scored, then the draw (or a title / relegation play-off).
  serie_a: ['points', 'head_to_head_points', 'head_to_head_goal_difference', 'goal_difference', 'goals_for', 'decision', 'name'],
  // DFL Spielordnung, ranking on equal points (the order of DFB-Spielordnung § 46 Nr. 1.3 too): goal difference, goals
  // scored, the aggregate of the matches between them, away goals in those matches, away goals in all matches, then a
  // deciding match on neutral ground.
  bundesliga: ['points', 'goal_difference', 'goals_for', 'head_to_head_goal_difference', 'head_to_head_away_goals_for', 'away_goals_for', 'decision', 'name'],
};

export function resolveTiebreakers(value: TiebreakPreset | readonly TiebreakCriterion[]): readonly TiebreakCriterion[] {
  return typeof value === 'string' ? PRESETS[value] : value;
}

export function isHeadToHead(c: TiebreakCriterion): boolean {
  return c.startsWith('head_to_head_');
}

/** Larger is better for every counted criterion. */
function value(c: TiebreakCriterion, t: Tally): number {
  switch (c) {
    case 'points':
    case 'head_to_head_points':
      return t.points;
    case 'goal_difference':
    case 'head_to_head_goal_difference':
      return t.goals_for - t.goals_against;
    case 'goals_for':
    case 'head_to_head_goals_for':
      return t.goals_for;
    case 'wins':
      return t.won;
    case 'away_goals_for':
    case 'head_to_head_away_goals_for':
      return t.away_goals_for;
    case 'away_wins':
      return t.away_won;
    default:
      return 0;
  }
}

/** Locale-independent string order (UTF-16 code units): two servers must publish the same table. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A club's name as the `name` criterion compares it: without the direction marks (U+200E, U+200F, U+061C) Arabic
 * typing leaves in names, which show nothing: a review's "\u200Fالنصر" ranked below every other Arabic name.
 */
export function nameSortKey(name: string): string {
  return name.replace(/[\u200E\u200F\u061C]/g, '');
}

export interface RankingInput {
  /** Tallies over every counted match of the table, adjustments included in points. */
  overall: ReadonlyMap<string, Tally>;
  /** Tallies over the counted matches among exactly these clubs. */
  headToHead(ids: readonly string[]): ReadonlyMap<string, Tally>;
  nameOf(id: string): string;
  decisions: readonly Decision[];
  /** Whether every match among exactly these clubs has been played (none still to come); true when not given. */
  allMeetingsPlayed?(ids: readonly string[]): boolean;
}

/** Splits `ids` into consecutive runs, best first, by a descending key; equal keys stay together. */
function splitBy(ids: readonly string[], key: (id: string) => readonly number[]): string[][] {
  const keyed = ids.map((id) => ({ id, k: key(id) }));
  const cmp = (a: readonly number[], b: readonly number[]): number => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (b[i] as number) - (a[i] as number);
    return 0;
  };
  // Stable on input order, which is itself deterministic (sorted by id before ranking starts).
  keyed.sort((a, b) => cmp(a.k, b.k));
  const out: string[][] = [];
  let last: readonly number[] | null = null;
  for (const { id, k } of keyed) {
    if (last !== null && cmp(last, k) === 0) (out[out.length - 1] as string[]).push(id);
    else out.push([id]);
    last = k;
  }
  return out;
}

/** The recorded order for a set of clubs level: the first decision that names all of them. */
function decided(ids: readonly string[], decisions: readonly Decision[]): string[][] {
  const d = decisions.find((x) => ids.every((id) => x.teams.includes(id)));
  if (d === undefined) return [[...ids]];
  return splitBy(ids, (id) => [-d.order.indexOf(id)]);
}

/** The order of a table's clubs, and which of them only the name fallback orders where the rules want a decision. */
export interface Ranking {
  order: string[];
  /**
   * Clubs a `decision` step left level with nothing recorded for them (no lots drawn, no play-off played yet): past it
   * only their names order them, which is no result of the regulation. Their places are not known: a group feed or a
   * league title that depends on one waits for the organizer's decision. Empty for a list without `decision` (the
   * `default` preset), where the name is itself the last rule.
   */
  awaitingDecision: ReadonlySet<string>;
}

/**
 * Orders clubs by the criteria. A run of consecutive head-to-head criteria is one step: one mini-table over the
 * matches among the clubs entering it, ranked on the run's criteria in order. When the run is followed by
 * `reapply_head_to_head` and split the clubs, each smaller set still level goes through the run again on the matches
 * among its own clubs (UEFA art. 20.01 (d)); a set the run does not split moves on to the next criterion. Past the
 * last criterion, name then id keep the order total.
 */
export function orderClubs(ids: readonly string[], criteria: readonly TiebreakCriterion[], input: RankingInput): Ranking {
  const awaitingDecision = new Set<string>();
  const decisionAt = criteria.indexOf('decision');
  // A set still level past a decision step found nothing recorded for it (a recorded order names every club it
  // covers, so it leaves none level): what orders it from here on is the name, not the regulation.
  const reachName = (level: readonly string[], from: number): void => {
    if (decisionAt !== -1 && decisionAt < from) for (const id of level) awaitingDecision.add(id);
  };
  const order = (ids: readonly string[], from: number): string[] => {
    if (ids.length < 2) return [...ids];
    if (from >= criteria.length) {
      reachName(ids, from);
      // Each key once, not once per comparison.
      const key = new Map(ids.map((id) => [id, nameSortKey(input.nameOf(id))]));
      return [...ids].sort((a, b) => compareCodeUnits(key.get(a)!, key.get(b)!) || compareCodeUnits(a, b));
    }
    const c = criteria[from] as TiebreakCriterion;
    if (c === 'reapply_head_to_head') return order(ids, from + 1);
    if (c === 'all_meetings_played') {
      if (input.allMeetingsPlayed?.(ids) ?? true) return order(ids, from + 1);
      // A meeting still to come: the head-to-head run after this (and its reapply) is skipped for these clubs.
      let end = from + 1;
      while (end < criteria.length && isHeadToHead(criteria[end] as TiebreakCriterion)) end++;
      return order(ids, criteria[end] === 'reapply_head_to_head' ? end + 1 : end);
    }
    if (c === 'name') {
      reachName(ids, from);
      // Clubs of the same name (rare, but two teams may share one) go on to the next criteria, then id.
      const named = new Map<string, string[]>();
      for (const id of ids) pushInto(named, nameSortKey(input.nameOf(id)), id);
      return [...named.keys()].sort(compareCodeUnits).flatMap((n) => order(named.get(n) as string[], from + 1));
    }
    if (c === 'decision') {
      return decided(ids, input.decisions).flatMap((b) => order(b, from + 1));
    }
    if (isHeadToHead(c)) {
      let end = from;
      while (end < criteria.length && isHeadToHead(criteria[end] as TiebreakCriterion)) end++;
      const run = criteria.slice(from, end);
      const reapply = criteria[end] === 'reapply_head_to_head';
      const next = reapply ? end + 1 : end;
      const mini = input.headToHead(ids);
      const blocks = splitBy(ids, (id) => run.map((k) => value(k, mini.get(id) as Tally)));
      if (blocks.length === 1) return order(ids, next);
      return blocks.flatMap((b) => order(b, reapply ? from : next));
    }
    const blocks = splitBy(ids, (id) => [value(c, input.overall.get(id) as Tally)]);
    return blocks.flatMap((b) => order(b, from + 1));
  };
  return { order: order(ids, 0), awaitingDecision };
}
