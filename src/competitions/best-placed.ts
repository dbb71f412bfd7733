// The best-placed teams of several groups feeding knockout slots (EURO 2016-2024: the 4 best of the 6 third-placed
// teams; FIFA World Cup 2026: the 8 best of 12). Pure: the group tables give the candidates (each group's team at the
// rule's position, with its whole-group record), the rule's ranking orders them, and the allocation table (or the
// order itself) gives each slot its team. README "Group stage to knockout" documents the rules and cites regulations.
import type { TiebreakCriterion } from '../vocabulary/enums.js';
import type { StandingsRow } from './standings.js';
import { compareGroupNames } from './standings.js';
import { compareCodeUnits, orderClubs, type Tally } from './tiebreakers.js';
import type { AllocationRow, BestPlacedRule, Decision } from './types.js';

/**
 * Criteria that compare teams of different groups: never head-to-head (they did not meet). `decision` is what a
 * regulation settles off the pitch (disciplinary points, a ranking, lots), from the event's `decisions`.
 */
export const BEST_PLACED_CRITERIA = ['points', 'goal_difference', 'goals_for', 'wins', 'away_goals_for', 'decision', 'name'] as const;

/**
 * UEFA EURO 2020 Regulations art. 21.03 (and EURO 2024's), the ranking of the third-placed teams: points, goal
 * difference, goals scored, wins, then disciplinary points and the European Qualifiers ranking (the organizer's
 * `decision`).
 */
export const DEFAULT_BEST_PLACED_RANKING: readonly (typeof BEST_PLACED_CRITERIA)[number][] = ['points', 'goal_difference', 'goals_for', 'wins', 'decision'];

/** A group's team at the rule's position, with its record over the whole group (the group table's tally). */
export interface Candidate {
  group: string;
  team_id: string;
  tally: Tally;
}

export interface CrossGroupRanking {
  /** The candidates, best first (past every criterion, name then id keep the order total). */
  order: Candidate[];
  /**
   * levelWithNext[i]: order[i] and order[i + 1] are level on every criterion the ranking counts, past a `decision`
   * step that found nothing recorded for them: only the name orders them, which is no result of the regulation.
   */
  levelWithNext: boolean[];
}

function counted(c: TiebreakCriterion, t: Tally): number | null {
  switch (c) {
    case 'points':
      return t.points;
    case 'goal_difference':
      return t.goals_for - t.goals_against;
    case 'goals_for':
      return t.goals_for;
    case 'wins':
      return t.won;
    case 'away_goals_for':
      return t.away_goals_for;
    default:
      return null;
  }
}

/** Orders candidates of different groups by the ranking's criteria (tiebreakers.ts orderClubs, head-to-head never). */
export function rankAcrossGroups(
  candidates: readonly Candidate[],
  ranking: readonly TiebreakCriterion[],
  decisions: readonly Decision[],
  nameOf: (teamId: string) => string,
): CrossGroupRanking {
  const byTeam = new Map(candidates.map((c) => [c.team_id, c]));
  const overall = new Map(candidates.map((c) => [c.team_id, c.tally]));
  const { order, awaitingDecision } = orderClubs([...byTeam.keys()].sort(compareCodeUnits), ranking, {
    overall,
    // The import refuses head-to-head criteria here: teams of different groups have no matches among them.
    headToHead: (ids) => new Map(ids.map((id) => [id, overall.get(id) as Tally])),
    nameOf,
    decisions,
  });
  // The name is no result where a decision is awaited: only the counted criteria tell two unresolved sets apart.
  const keys = ranking.filter((c) => c !== 'decision' && c !== 'name');
  const same = (a: string, b: string): boolean =>
    keys.every((c) => counted(c, overall.get(a) as Tally) === counted(c, overall.get(b) as Tally));
  // Level past a decision step with nothing recorded, and equal on every counted criterion: one unresolved set.
  const levelWithNext = order.slice(0, -1).map((id, i) => {
    const next = order[i + 1] as string;
    return awaitingDecision.has(id) && awaitingDecision.has(next) && same(id, next);
  });
  return { order: order.map((id) => byTeam.get(id) as Candidate), levelWithNext };
}

const setKey = (groups: readonly string[]): string => [...groups].sort(compareCodeUnits).join('\u0000');

/** The allocation row for this set of qualifying groups (any order), or undefined. */
export function allocationRow(allocation: readonly AllocationRow[], qualifying: readonly string[]): AllocationRow | undefined {
  const key = setKey(qualifying);
  return allocation.find((row) => setKey(row.groups) === key);
}

/** Where a slot's team can come from: with an allocation the groups its rows give that slot, else every group. */
export function slotCandidateGroups(rule: BestPlacedRule, slot: number): string[] {
  const groups = rule.allocation === null ? rule.groups : [...new Set(rule.allocation.map((r) => r.slots[slot - 1] as string))];
  return [...groups].sort(compareGroupNames);
}

/**
 * The team of each slot (index slot - 1), or null where it is not known yet:
 * - every group of the rule finished (`finished`) and its place at the rule's position known (a place awaiting an
 *   organizer's decision in its group table is not);
 * - with an allocation, the cut line between the `qualify` best and the rest not awaiting a decision (the order among
 *   the qualifiers does not matter: the allocation row depends on their groups only);
 * - without, slot k's team is the k-th best, known unless it is level with a neighbour awaiting a decision.
 */
export function bestPlacedSlots(
  rule: BestPlacedRule,
  rows: readonly StandingsRow[],
  finished: (group: string) => boolean,
  decisions: readonly Decision[],
  nameOf: (teamId: string) => string,
): (string | null)[] {
  const unknown = (): (string | null)[] => Array.from({ length: rule.qualify }, () => null);
  const candidates: Candidate[] = [];
  for (const group of rule.groups) {
    if (!finished(group)) return unknown();
    const row = rows.find((r) => r.group_name === group && r.rank === rule.position);
    if (row === undefined || row.awaiting_decision) return unknown();
    candidates.push({ group, team_id: row.team_id, tally: row });
  }
  const { order, levelWithNext } = rankAcrossGroups(candidates, rule.ranking, decisions, nameOf);
  if (rule.allocation !== null) {
    if (rule.qualify < order.length && levelWithNext[rule.qualify - 1] === true) return unknown();
    const qualifying = order.slice(0, rule.qualify);
    const row = allocationRow(rule.allocation, qualifying.map((c) => c.group));
    if (row === undefined) return unknown();
    return row.slots.map((g) => qualifying.find((c) => c.group === g)?.team_id ?? null);
  }
  return Array.from({ length: rule.qualify }, (_, i) => {
    if (levelWithNext[i - 1] === true || levelWithNext[i] === true) return null;
    return order[i]?.team_id ?? null;
  });
}
