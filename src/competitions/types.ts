// What the pure rules (standings, bracket, champion, calendar) read: plain facts, no database types leak in.
import type { BracketRole, CompetitionType, EventStatus, MatchStatus, Side, SourceOutcome, TiebreakCriterion } from '../vocabulary/enums.js';
import type { Language } from '../vocabulary/language.js';

export interface TeamFacts {
  id: string;
  name: string;
  name_ar: string | null;
}

export interface MatchFacts {
  id: string;
  round_ordinal: number;
  round_name: string | null;
  /** Group-stage label in a hybrid event (e.g. "Group A"); null otherwise. */
  group_name: string | null;
  /** Null for a league or group-stage match. */
  bracket_role: BracketRole | null;
  /** Order of the match within its round, for display. */
  bracket_position: number;
  home_team_id: string | null;
  away_team_id: string | null;
  home_source_match_id: string | null;
  home_source_outcome: SourceOutcome | null;
  away_source_match_id: string | null;
  away_source_outcome: SourceOutcome | null;
  kickoff_at: string | null;
  ends_at: string | null;
  venue: string | null;
  status: MatchStatus;
  home_score: number | null;
  away_score: number | null;
  home_penalties: number | null;
  away_penalties: number | null;
  walkover_winner: Side | null;
  /** Rises whenever the match changes (iCalendar SEQUENCE). */
  sequence: number;
  /** Last change, RFC 3339 UTC (iCalendar DTSTAMP). */
  updated_at: string;
  // Optional below: absent means null (or false), so facts built before these existed stay valid.
  /** 1 or 2 for a leg of a two-legged tie; null for a single match. */
  leg?: number | null;
  /** On a second leg: the tie's first leg. */
  first_leg_match_id?: string | null;
  /** 1 when the score was reached after extra time. */
  after_extra_time?: number;
  /** A slot fed by a group's final table: the group and the position (from 1). */
  home_source_group?: string | null;
  home_source_position?: number | null;
  away_source_group?: string | null;
  away_source_position?: number | null;
  /** A slot fed by the best-placed teams of several groups: the event's best_placed rule id and the slot (from 1). */
  home_source_best?: string | null;
  home_source_slot?: number | null;
  away_source_best?: string | null;
  away_source_slot?: number | null;
}

export interface PointsRule {
  win: number;
  draw: number;
  loss: number;
}

/** An organizer's recorded order for clubs nothing else separates (lots, fair play, a play-off). */
export interface Decision {
  teams: string[];
  order: string[];
  reason: string;
}

/** Points added to (or, negative, taken from) a club's total: a deduction for a breach of the rules. */
export interface Adjustment {
  team: string;
  points: number;
  reason: string;
}

/** One row of a best-placed rule's allocation: for this set of qualifying groups, slot k takes the team of slots[k-1]. */
export interface AllocationRow {
  groups: string[];
  slots: string[];
}

/**
 * The best `qualify` teams at `position` across `groups` (EURO 2020: the 4 best of the 6 third-placed teams), ranked
 * by `ranking` over their whole-group records (README "Group stage to knockout"). With an allocation, which slot each
 * takes depends on the set of groups they came from; without, slot k is the k-th best.
 */
export interface BestPlacedRule {
  id: string;
  position: number;
  /** The groups it draws from, explicit (the import resolves the default: every group of the event). */
  groups: string[];
  qualify: number;
  /** Criteria across groups: points, goal_difference, goals_for, wins, away_goals_for, decision, name. */
  ranking: readonly TiebreakCriterion[];
  allocation: AllocationRow[] | null;
}

/** How an event ranks clubs and settles two-legged ties (README "Tie-break rules"). */
export interface CompetitionRules {
  tiebreakers: readonly TiebreakCriterion[];
  decisions: readonly Decision[];
  adjustments: readonly Adjustment[];
  away_goals_rule: boolean;
  /** Absent or empty: no slot is fed by the best-placed teams of several groups. */
  best_placed?: readonly BestPlacedRule[];
}

export interface EventFacts {
  id: string;
  league_id: string;
  league_name: string;
  /** The league's and the event's Arabic names (null: none): an Arabic organization's calendars show them. */
  league_name_ar?: string | null;
  org_id: string;
  org_name: string;
  language: Language;
  /** The organization's IANA time zone (`Europe/London`): the one its people read kickoffs in. */
  timezone: string;
  name: string;
  name_ar?: string | null;
  competition_type: CompetitionType;
  status: EventStatus;
  starts_at: string | null;
  ends_at: string | null;
  venue_city: string | null;
  points: PointsRule;
  match_duration_min: number;
  /** Absent: the default rules (src/competitions/standings.ts DEFAULT_RULES). */
  rules?: CompetitionRules;
}

/** What deciding a bracket needs beyond its matches: the event's away-goals rule and its groups' final places. */
export interface BracketContext {
  awayGoalsRule: boolean;
  /** The team a group's final table puts at `position` (from 1), or null while the group is not finished. */
  groupPlace(group: string, position: number): string | null;
  /** The team a best-placed rule puts in `slot` (from 1), or null while it is not known. Absent: none. */
  bestPlaced?(rule: string, slot: number): string | null;
}
