// Explicit public encoders: the fields of the spec (2.1-2.3) in the spec's order, then the ones beyond it (README
// "Decisions beyond the spec and the contract"), nulls kept. Rows are never serialized as they come from the database
// or the rules.
// The types come from the zod schemas of public-schemas.ts, which the OpenAPI document is generated from.
import type { z } from 'zod';
import type { BracketSlot } from './bracket.js';
import type { publicBracketSlotSchema, publicEventSchema, publicStandingsRowSchema } from './public-schemas.js';
import type { StandingsRow } from './standings.js';
import type { EventFacts } from './types.js';

export type PublicEvent = z.output<typeof publicEventSchema>;
export type PublicStandingsRow = z.output<typeof publicStandingsRowSchema>;
export type PublicBracketSlot = z.output<typeof publicBracketSlotSchema>;

/** A team's names: as written, and the Arabic one given beside it (null: none). */
export interface TeamNames {
  name: string;
  name_ar: string | null;
}

export function encodeEvent(event: EventFacts, champion: TeamNames | null): PublicEvent {
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
    champion_name: champion?.name ?? null,
    org_id: event.org_id,
    timezone: event.timezone,
    language: event.language,
    event_name_ar: event.name_ar ?? null,
    league_name_ar: event.league_name_ar ?? null,
    champion_name_ar: champion?.name_ar ?? null,
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
    team_id: row.team_id,
    group_name: row.group_name,
    adjustment_points: row.adjustment_points,
    club_name_ar: row.club_name_ar,
  };
}

/** `namesOf` gives a team's names: as written (`team_name`, as `club_name`), and its Arabic one (`team_name_ar`). */
export function encodeBracketSlot(slot: BracketSlot, namesOf: (teamId: string) => TeamNames): PublicBracketSlot {
  const names = slot.team_id === null ? null : namesOf(slot.team_id);
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
    team_name: names?.name ?? null,
    kickoff_at: slot.kickoff_at,
    score: slot.score,
    penalties: slot.penalties,
    // The rule fields below are null where their rule does not apply: the contract has a field with no value null,
    // never left out, so every slot of every bracket has the same keys.
    leg: slot.leg,
    first_leg_match_id: slot.first_leg_match_id,
    source_group: slot.source_group,
    source_position: slot.source_position,
    source_best_placed: slot.source_best_placed,
    source_slot: slot.source_slot,
    source_groups: slot.source_groups,
    team_name_ar: names?.name_ar ?? null,
    round_name: slot.round_name,
    walkover: slot.walkover,
    after_extra_time: slot.after_extra_time,
  };
}
