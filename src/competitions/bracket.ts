// Knockout brackets: which team sits in each slot and who won each match, derived from results
// alone. Pure: nothing is stored, so a corrected score flows through every later round on the
// next regeneration.
import { BRACKET_ROLES, type BracketRole, type MatchStatus, type Side, type SourceOutcome } from '../vocabulary/enums.js';
import type { BestPlacedRule, BracketContext, MatchFacts } from './types.js';
import { slotCandidateGroups } from './best-placed.js';
import { compareCodeUnits } from './standings.js';

export interface BracketSlot {
  match_id: string;
  round_ordinal: number;
  side: Side;
  team_id: string | null;
  bracket_role: BracketRole;
  source_match_id: string | null;
  source_outcome: SourceOutcome | null;
  status: MatchStatus;
  winner_team_id: string | null;
  /** The match's kickoff (both slots), null when none is set; a postponed match keeps its last one. */
  kickoff_at: string | null;
  /** This side's goals and shoot-out goals as recorded on the match, null until recorded. */
  score: number | null;
  penalties: number | null;
  /** 1 or 2 for a leg of a two-legged tie, null for a single match (public only on legs). */
  leg: number | null;
  first_leg_match_id: string | null;
  /** A slot fed by a group's final table: the group and the position (public only on such slots). */
  source_group: string | null;
  source_position: number | null;
  /**
   * A slot fed by the best-placed teams of several groups (public only on such slots): the rule's id, the slot, and
   * (set by computeBracket from the rule) the place it ranks and the groups the slot's team can come from.
   */
  source_best_placed: string | null;
  source_slot: number | null;
  source_groups: string[] | null;
  /** The match's round as the organizer named it (null: none given), won without playing, its score after extra time. */
  round_name: string | null;
  walkover: boolean;
  after_extra_time: boolean;
}

/** Who plays a match and how it ended, once feeds are followed. Null means "not known yet". */
export interface ResolvedMatch {
  home: string | null;
  away: string | null;
  winner: string | null;
  loser: string | null;
}

export function compareBracketMatches(a: MatchFacts, b: MatchFacts): number {
  const ra = a.bracket_role === null ? -1 : BRACKET_ROLES.indexOf(a.bracket_role);
  const rb = b.bracket_role === null ? -1 : BRACKET_ROLES.indexOf(b.bracket_role);
  return (
    ra - rb ||
    a.round_ordinal - b.round_ordinal ||
    a.bracket_position - b.bracket_position ||
    (a.leg ?? 0) - (b.leg ?? 0) ||
    compareCodeUnits(a.id, b.id)
  );
}

/** What feeds one side of a match, each kind null when it is not that one (a side has one feed at most). */
export interface SideFeed {
  match: string | null;
  outcome: SourceOutcome | null;
  group: string | null;
  position: number | null;
  best: string | null;
  slot: number | null;
}

export function sideFeed(m: MatchFacts, side: Side): SideFeed {
  return side === 'home'
    ? { match: m.home_source_match_id, outcome: m.home_source_outcome, group: m.home_source_group ?? null, position: m.home_source_position ?? null, best: m.home_source_best ?? null, slot: m.home_source_slot ?? null }
    : { match: m.away_source_match_id, outcome: m.away_source_outcome, group: m.away_source_group ?? null, position: m.away_source_position ?? null, best: m.away_source_best ?? null, slot: m.away_source_slot ?? null };
}

/** A slot with neither a seeded team nor a feed: nobody will ever fill it. */
export function isEmptySlot(m: MatchFacts, side: Side): boolean {
  return side === 'home'
    ? m.home_team_id === null && m.home_source_match_id === null && (m.home_source_group ?? null) === null && (m.home_source_best ?? null) === null
    : m.away_team_id === null && m.away_source_match_id === null && (m.away_source_group ?? null) === null && (m.away_source_best ?? null) === null;
}

/** No away goals rule, no group feeds: how a bracket is decided when the caller gives no context. */
export const NO_CONTEXT: BracketContext = { awayGoalsRule: false, groupPlace: () => null };

/** A bracket match with exactly one empty slot: the other team advances without playing. */
export function isBye(m: MatchFacts): boolean {
  return m.bracket_role !== null && isEmptySlot(m, 'home') !== isEmptySlot(m, 'away');
}

/**
 * Decides a match from its own columns, given the teams already resolved into its slots.
 * A completed match that is still level after penalties (or has no score) stays undecided
 * rather than guessing: the organizer has to record who went through.
 */
export function decideMatch(m: MatchFacts, home: string | null, away: string | null): ResolvedMatch {
  const undecided: ResolvedMatch = { home, away, winner: null, loser: null };
  if (isBye(m)) {
    // A bye has no loser: nobody was beaten, so nothing feeds a loser_of slot from it.
    return { home, away, winner: home ?? away, loser: null };
  }
  if (home === null || away === null || m.status !== 'completed') return undecided;
  const pick = (side: Side): ResolvedMatch =>
    side === 'home' ? { home, away, winner: home, loser: away } : { home, away, winner: away, loser: home };
  if (m.walkover_winner !== null) return pick(m.walkover_winner);
  if (m.home_score === null || m.away_score === null) return undecided;
  if (m.home_score !== m.away_score) return pick(m.home_score > m.away_score ? 'home' : 'away');
  if (m.home_penalties === null || m.away_penalties === null) return undecided;
  if (m.home_penalties !== m.away_penalties) return pick(m.home_penalties > m.away_penalties ? 'home' : 'away');
  return undecided;
}

/**
 * A two-legged tie, decided on its second leg: the aggregate of both legs, then (when the event says so) away
 * goals, then the second leg's penalties (extra time is already in the second leg's score). A walkover in the
 * second leg decides the tie. Until the first leg has a score, the tie is undecided whatever the second says.
 */
export function decideTie(
  second: MatchFacts,
  first: MatchFacts | undefined,
  home: string | null,
  away: string | null,
  awayGoalsRule: boolean,
): ResolvedMatch {
  const undecided: ResolvedMatch = { home, away, winner: null, loser: null };
  if (home === null || away === null || second.status !== 'completed') return undecided;
  const pick = (side: Side): ResolvedMatch =>
    side === 'home' ? { home, away, winner: home, loser: away } : { home, away, winner: away, loser: home };
  if (second.walkover_winner !== null) return pick(second.walkover_winner);
  if (first === undefined || first.status !== 'completed' || first.home_score === null || first.away_score === null) return undecided;
  if (second.home_score === null || second.away_score === null) return undecided;
  // `home` hosts the second leg, so it was the visitor in the first.
  const homeAggregate = second.home_score + first.away_score;
  const awayAggregate = second.away_score + first.home_score;
  if (homeAggregate !== awayAggregate) return pick(homeAggregate > awayAggregate ? 'home' : 'away');
  if (awayGoalsRule && first.away_score !== second.away_score) return pick(first.away_score > second.away_score ? 'home' : 'away');
  if (second.home_penalties === null || second.away_penalties === null) return undecided;
  if (second.home_penalties !== second.away_penalties) return pick(second.home_penalties > second.away_penalties ? 'home' : 'away');
  return undecided;
}

function sourcesOf(m: MatchFacts): string[] {
  const out: string[] = [];
  if (m.home_source_match_id !== null) out.push(m.home_source_match_id);
  if (m.away_source_match_id !== null) out.push(m.away_source_match_id);
  return out;
}

/**
 * Resolves every match (bracket or not) to its teams and result, following winner_of / loser_of
 * feeds. The calendar uses it to name both sides of a later-round match.
 *
 * Iterative depth-first with memoization: linear in the number of matches, no recursion depth limit.
 * A feed cycle (bad data) resolves to "undecided" for every match on it, which is also the only
 * consistent answer: each match on a cycle needs the previous one decided first. A feed naming a match
 * that is not in the list is undecided too. For a fed slot the team is always derived from its
 * source, never read from the team column, so a corrected earlier result cannot leave a stale team behind.
 */
export function resolveTeams(matches: MatchFacts[], context: BracketContext = NO_CONTEXT): Map<string, ResolvedMatch> {
  const byId = new Map<string, MatchFacts>();
  for (const m of matches) byId.set(m.id, m);
  const done = new Map<string, ResolvedMatch>();
  const visiting = new Set<string>();
  // A first leg decides nothing on its own (its tie ends in the second leg); a second leg decides the tie. A bye
  // written as two legs (one empty slot in each) is a bye: its team advances, as from a single match.
  const decide = (m: MatchFacts, home: string | null, away: string | null): ResolvedMatch => {
    if (isBye(m)) return decideMatch(m, home, away);
    if (m.leg === 1) return { home, away, winner: null, loser: null };
    if (m.leg === 2) return decideTie(m, byId.get(m.first_leg_match_id ?? ''), home, away, context.awayGoalsRule);
    return decideMatch(m, home, away);
  };

  const fed = (sourceId: string | null, outcome: SourceOutcome | null, seeded: string | null): string | null => {
    if (sourceId === null) return seeded;
    // A source still being visited is on a cycle with this match: undecided.
    const src = done.get(sourceId);
    if (src === undefined) return null;
    return outcome === 'loser' ? src.loser : outcome === 'winner' ? src.winner : null;
  };

  for (const root of byId.keys()) {
    if (done.has(root)) continue;
    const stack = [root];
    while (stack.length > 0) {
      const id = stack[stack.length - 1] as string;
      if (done.has(id)) {
        stack.pop();
        continue;
      }
      const m = byId.get(id) as MatchFacts;
      if (!visiting.has(id)) {
        visiting.add(id);
        for (const s of sourcesOf(m)) {
          if (byId.has(s) && !done.has(s) && !visiting.has(s)) stack.push(s);
        }
        continue;
      }
      // A slot fed by a group's final table holds its team once the group is finished; one fed by the best-placed
      // teams of several groups once all of them are (and the ranking across them is settled where it matters).
      const home =
        m.home_source_best != null && m.home_source_slot != null
          ? (context.bestPlaced?.(m.home_source_best, m.home_source_slot) ?? null)
          : m.home_source_group != null && m.home_source_position != null
            ? context.groupPlace(m.home_source_group, m.home_source_position)
            : fed(m.home_source_match_id, m.home_source_outcome, m.home_team_id);
      const away =
        m.away_source_best != null && m.away_source_slot != null
          ? (context.bestPlaced?.(m.away_source_best, m.away_source_slot) ?? null)
          : m.away_source_group != null && m.away_source_position != null
            ? context.groupPlace(m.away_source_group, m.away_source_position)
            : fed(m.away_source_match_id, m.away_source_outcome, m.away_team_id);
      done.set(id, decide(m, home, away));
      visiting.delete(id);
      stack.pop();
    }
  }
  return done;
}

/**
 * Two slots per bracket match, home then away, in display order.
 *
 * Double elimination: the data carries a grand_final_reset fed by the winner and the loser of the
 * grand final. The bracket reports it as the data says: if the winners-bracket finalist won the grand
 * final the reset is not played (typically status 'cancelled'), and its slots still show the teams
 * the feeds resolve to, with no winner.
 */
export function computeBracket(
  matches: MatchFacts[],
  context: BracketContext = NO_CONTEXT,
  bestPlacedRules: readonly BestPlacedRule[] = [],
): BracketSlot[] {
  const resolved = resolveTeams(matches, context);
  // The slots of both legs carry the tie's winner, which the second leg decides.
  const secondLegOf = new Map<string, string>();
  for (const m of matches) if (m.leg === 2 && m.first_leg_match_id) secondLegOf.set(m.first_leg_match_id, m.id);
  const bracket = matches
    .filter((m): m is MatchFacts & { bracket_role: BracketRole } => m.bracket_role !== null)
    .sort(compareBracketMatches);
  const bestSource = (id: string | null | undefined, slot: number | null | undefined) => {
    const rule = id == null || slot == null ? undefined : bestPlacedRules.find((r) => r.id === id);
    if (rule === undefined || slot == null) return { source_best_placed: null, source_slot: null, source_groups: null };
    return { source_best_placed: rule.id, source_slot: slot, source_position: rule.position, source_groups: slotCandidateGroups(rule, slot) };
  };
  return bracket.flatMap((m) => {
    const r = resolved.get(m.id) as ResolvedMatch;
    const slot = (side: Side): BracketSlot => {
      const sourceId = side === 'home' ? m.home_source_match_id : m.away_source_match_id;
      const outcome = side === 'home' ? m.home_source_outcome : m.away_source_outcome;
      return {
        match_id: m.id,
        round_ordinal: m.round_ordinal,
        side,
        team_id: side === 'home' ? r.home : r.away,
        bracket_role: m.bracket_role,
        source_match_id: sourceId,
        // A seeded slot has no outcome even if a stray value sits in the column.
        source_outcome: sourceId === null ? null : outcome,
        status: m.status,
        winner_team_id: m.leg === 1 ? (resolved.get(secondLegOf.get(m.id) ?? '')?.winner ?? null) : r.winner,
        kickoff_at: m.kickoff_at,
        score: side === 'home' ? m.home_score : m.away_score,
        penalties: side === 'home' ? m.home_penalties : m.away_penalties,
        leg: m.leg ?? null,
        first_leg_match_id: m.first_leg_match_id ?? null,
        source_group: (side === 'home' ? m.home_source_group : m.away_source_group) ?? null,
        source_position: (side === 'home' ? m.home_source_position : m.away_source_position) ?? null,
        ...bestSource(side === 'home' ? m.home_source_best : m.away_source_best, side === 'home' ? m.home_source_slot : m.away_source_slot),
        round_name: m.round_name,
        walkover: m.walkover_winner !== null,
        after_extra_time: Boolean(m.after_extra_time),
      };
    };
    return [slot('home'), slot('away')];
  });
}
