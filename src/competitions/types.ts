// What the pure rules (standings, bracket, champion, calendar) read: plain facts, no database types leak in.
import type { BracketRole, CompetitionType, EventStatus, MatchStatus, Side, SourceOutcome } from '../vocabulary/enums.js';
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
}

export interface PointsRule {
  win: number;
  draw: number;
  loss: number;
}

export interface EventFacts {
  id: string;
  league_id: string;
  league_name: string;
  org_id: string;
  org_name: string;
  language: Language;
  name: string;
  competition_type: CompetitionType;
  status: EventStatus;
  starts_at: string | null;
  ends_at: string | null;
  venue_city: string | null;
  points: PointsRule;
  match_duration_min: number;
}
