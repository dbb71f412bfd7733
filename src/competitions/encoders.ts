// Explicit public encoders: the exact fields of the spec (2.1-2.3), in the spec's order, nulls kept.
// Rows are never serialized as they come from the database or the rules.
import type { BracketSlot } from './bracket.js';
import type { StandingsRow } from './standings.js';
import type { EventFacts } from './types.js';

export interface PublicEvent {
  league_id: string;
  event_id: string;
  league_name: string;
  event_name: string;
  competition_type: EventFacts['competition_type'];
  status: EventFacts['status'];
  starts_at: string | null;
  ends_at: string | null;
  venue_city: string | null;
  champion_name: string | null;
}

export function encodeEvent(event: EventFacts, championName: string | null): PublicEvent {
  return {
    league_id: event.league_id,
    event_id: event.id,
    league_name: event.league_name,
    event_name: event.name,
    competition_type: event.competition_type,
    status: event.status,
    starts_at: event.starts_at,
    ends_at: event.ends_at,
    venue_city: event.venue_city,
    champion_name: championName,
  };
}

/** Newest first by starts_at (events without a date last), then event_id: the contract's order. */
export function compareEvents(a: PublicEvent, b: PublicEvent): number {
  if (a.starts_at !== b.starts_at) {
    if (a.starts_at === null) return 1;
    if (b.starts_at === null) return -1;
    return a.starts_at < b.starts_at ? 1 : -1;
  }
  return a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0;
}

export interface PublicStandingsRow {
  rank: number;
  club_name: string;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  goals_for: number;
  goals_against: number;
  points: number;
  /** Group of a hybrid event's group stage ("Group A"); null for a single table. Beyond the spec's fields. */
  group_name: string | null;
}

export function encodeStandingsRow(row: StandingsRow): PublicStandingsRow {
  return {
    rank: row.rank,
    club_name: row.club_name,
    played: row.played,
    won: row.won,
    drawn: row.drawn,
    lost: row.lost,
    goals_for: row.goals_for,
    goals_against: row.goals_against,
    points: row.points,
    group_name: row.group_name,
  };
}

export interface PublicBracketSlot {
  match_id: string;
  round_ordinal: number;
  side: 'home' | 'away';
  team_id: string | null;
  bracket_role: BracketSlot['bracket_role'];
  source_match_id: string | null;
  source_outcome: 'winner' | 'loser' | null;
  status: BracketSlot['status'];
  winner_team_id: string | null;
}

export function encodeBracketSlot(slot: BracketSlot): PublicBracketSlot {
  return {
    match_id: slot.match_id,
    round_ordinal: slot.round_ordinal,
    side: slot.side,
    team_id: slot.team_id,
    bracket_role: slot.bracket_role,
    source_match_id: slot.source_match_id,
    source_outcome: slot.source_outcome,
    status: slot.status,
    winner_team_id: slot.winner_team_id,
  };
}
