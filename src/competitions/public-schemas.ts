// The public JSON shapes of the reads (spec 2.1-2.3), as zod schemas: the one source of the encoders' types
// (encoders.ts) and of the OpenAPI document (src/api/openapi/). Values as the public interface fixes them.
// Field order is the spec's order, which is also the order the encoders write.
import { z } from 'zod';
import {
  bracketRoleSchema,
  competitionTypeSchema,
  eventStatusSchema,
  matchStatusSchema,
  sideSchema,
  sourceOutcomeSchema,
} from '../vocabulary/enums.js';
import { ID_PATTERN } from '../vocabulary/ids.js';
import { languageSchema } from '../vocabulary/language.js';

/** A public identifier (contract: URL-safe, stable across regenerations and imports). */
export const publicIdSchema = z
  .string()
  .regex(ID_PATTERN)
  // Its example is each field's own (a league's, a match's, a team's id from the demo data): one shared example
  // gave every id field of the document the same competition's id.
  .meta({ description: 'Identifier: 1 to 64 characters, letters, digits, `_` and `-`, starting with a letter or digit.' });

/** An instant: RFC 3339 in UTC with `Z`, whole seconds (the import normalizes every offset to this). */
export const instantSchema = z.iso.datetime({ precision: 0 }).meta({ description: 'RFC 3339 instant in UTC, whole seconds: `2026-09-06T09:00:00Z`.' });

const name = z.string().min(1);
const count = z.number().int().min(0);

/**
 * Beyond the spec: the Arabic name the organization gave beside a name field, null where it gave none. The name
 * fields give each name as written; an Arabic club's site shows this one where there is one, as the calendars and
 * emails of an Arabic organization do (an API review's Arabic table had one club in Latin letters, its calendar not).
 */
const arabicName = (of: string) =>
  name.nullable().meta({ description: `Beyond the spec: the Arabic name given beside ${of}, or null when none was given (an Arabic organization's calendars and emails show it).` });

/** Spec 2.1: one item of GET /api/v0/events. */
export const publicEventSchema = z
  .object({
    league_id: publicIdSchema.meta({ description: 'Identifier of the league.', examples: ['rsl-premier'] }),
    event_id: publicIdSchema.meta({ description: 'Identifier of the competition; `{eventId}` in the other paths.', examples: ['rsl-prem-2026-27'] }),
    league_name: name.meta({ description: 'Name of the league.' }),
    event_name: name.meta({ description: 'Name of the competition.' }),
    competition_type: competitionTypeSchema,
    status: eventStatusSchema.meta({ description: 'Status of the competition.' }),
    starts_at: instantSchema.nullable().meta({ description: 'Start of the competition (RFC 3339 UTC), or null when not scheduled.' }),
    ends_at: instantSchema.nullable().meta({ description: 'End of the competition (RFC 3339 UTC), or null.' }),
    venue_city: name.nullable().meta({ description: 'City of the venue, or null.' }),
    champion_name: name.nullable().meta({
      description:
        "Name of the champion: a knockout's final winner, a league's top club once the competition is `completed`; null before that, and while the top club is level with another on everything the rules count before a decision (a play-off, lots) that is not recorded yet.",
    }),
    org_id: publicIdSchema.meta({
      description: 'Beyond the spec: the organization that runs the competition; the `org_id` of `POST /api/v0/follow` and `POST /api/v0/register`.',
      examples: ['riverside-sfl'],
    }),
    timezone: z.string().min(1).meta({
      description:
        "Beyond the spec: the organization's IANA time zone, the one its emails and pages show times in. Every instant of the API is UTC: show a kickoff in this zone for the competition's local time.",
      examples: ['Europe/London'],
    }),
    language: languageSchema.meta({
      description:
        "Beyond the spec: the organization's language (`en` or `ar`), the one its calendars, emails and pages are written in. An app shows an `ar` competition right to left, with the `_ar` names where there are: an API review found no way to tell an Arabic competition from its names.",
      examples: ['ar'],
    }),
    event_name_ar: arabicName('`event_name`'),
    league_name_ar: arabicName('`league_name`'),
    champion_name_ar: arabicName("`champion_name` (the champion team's)"),
  })
  .meta({ description: 'A public competition.' });

/** Spec 2.2, plus `team_id`, `group_name` and `adjustment_points` (README "Decisions"). */
export const publicStandingsRowSchema = z
  .object({
    rank: z.number().int().min(1).meta({ description: 'Position in the table, from 1 (restarting in each group).' }),
    club_name: name.meta({ description: 'Club name.' }),
    played: count.meta({ description: 'Matches played.' }),
    won: count.meta({ description: 'Matches won.' }),
    drawn: count.meta({ description: 'Matches drawn.' }),
    lost: count.meta({ description: 'Matches lost.' }),
    goals_for: count.meta({ description: 'Goals scored.' }),
    goals_against: count.meta({ description: 'Goals conceded.' }),
    points: z.number().int().meta({ description: "Points, by the competition's rule (default 3 / 1 / 0), adjustments included." }),
    team_id: publicIdSchema.meta({
      description: "Beyond the spec: the club's team, as `team_id` in a bracket slot and `{teamId}` in `/api/v0/teams/{teamId}/calendar`.",
      examples: ['rsl-rovers'],
    }),
    group_name: name.nullable().meta({
      description: "Beyond the spec: the group of a hybrid event's group stage (\"Group A\"); null for a single table.",
    }),
    adjustment_points: z.number().int().nullable().meta({
      description:
        'Beyond the spec; null in the rows of a competition without point adjustments. Otherwise how many of `points` come from adjustments (a deduction is negative; 0 for a club without one). `points` already includes them.',
    }),
    club_name_ar: arabicName('`club_name`'),
  })
  .meta({ description: 'A row of a standings table.' });

/** Spec 2.3: one side of one bracket match. */
export const publicBracketSlotSchema = z
  .object({
    match_id: publicIdSchema.meta({ description: 'Identifier of the match; `{matchId}` in the RSVP path.', examples: ['rsl-cup-sf1'] }),
    round_ordinal: z.number().int().min(1).meta({ description: 'Ordinal of the round, from 1.' }),
    side: sideSchema.meta({ description: 'Side of the slot within the match.' }),
    team_id: publicIdSchema.nullable().meta({ description: 'Team in the slot; null for a bye, or a fed slot whose source match (or group) is undecided.', examples: ['rsl-rovers'] }),
    bracket_role: bracketRoleSchema,
    source_match_id: publicIdSchema.nullable().meta({ description: 'Match whose outcome feeds this slot; null for a seeded slot.', examples: ['rsl-cup-qf1'] }),
    source_outcome: sourceOutcomeSchema.nullable().meta({ description: 'Which outcome of the source match feeds this slot; null for a seeded slot.' }),
    status: matchStatusSchema.meta({ description: 'Status of the match.' }),
    winner_team_id: publicIdSchema.nullable().meta({
      description: 'Winning team of the match (of a two-legged tie, on the slots of both legs: the tie\'s winner); null until decided.',
      examples: ['rsl-rovers'],
    }),
    team_name: name.nullable().meta({
      description:
        "Beyond the spec: the name of the slot's team, as `club_name` and `champion_name` give it (the team's `name`; calendars and emails use its Arabic name in an Arabic-speaking organization, where one is given); null when `team_id` is.",
    }),
    kickoff_at: instantSchema.nullable().meta({ description: "Beyond the spec: the match's kickoff (RFC 3339 UTC), or null when none is set; a postponed match keeps its last one, as its calendar event does (`status` says it is postponed)." }),
    score: count.nullable().meta({
      description: "Beyond the spec: this side's goals in the match (this leg, for a two-legged tie), after extra time if played; null until a score is recorded (a walkover may have none: see `winner_team_id`).",
    }),
    penalties: count.nullable().meta({ description: "Beyond the spec: this side's goals in the match's penalty shoot-out; null when there was none." }),
    leg: z.number().int().min(1).max(2).nullable().meta({
      description: 'Beyond the spec; null on a single match. On the slots of a two-legged tie: 1 or 2. The second leg decides the tie (aggregate, then away goals when the competition counts them, then its penalties); feeds name the second leg.',
    }),
    first_leg_match_id: publicIdSchema.nullable().meta({
      description: 'Beyond the spec: on the second leg of a two-legged tie, the first leg; null on every other slot.',
    }),
    source_group: name.nullable().meta({
      description:
        "Beyond the spec; null unless the slot is fed by a group's final table (hybrid competitions): the group (\"Group A\"). `team_id` is null until every match of that group is completed (or cancelled), and while the place waits for a decision the rules leave to the organizer (lots, fair play); `source_match_id` and `source_outcome` are null.",
    }),
    source_position: z.number().int().min(1).nullable().meta({
      description:
        "Beyond the spec; null unless the slot is fed by a group's final table (with `source_group`), or by the best-placed teams of several groups (with `source_best_placed`): the position in the group's table, from 1 (1: the group winner; 3: a third-placed team).",
    }),
    source_best_placed: publicIdSchema.nullable().meta({
      description:
        "Beyond the spec; null unless the slot is fed by the best-placed teams of several groups (hybrid competitions; EURO 2020's four best third-placed teams): the id of the competition's rule. `team_id` is null until every match of every group it draws from is completed (or cancelled), each group's place is known, and the ranking across the groups does not wait for a decision where it matters (with an allocation table, at the line between the teams that go through and the others; without, at this slot's place). `source_match_id` and `source_outcome` are null.",
    }),
    source_slot: z.number().int().min(1).nullable().meta({
      description:
        'Beyond the spec; null without `source_best_placed`. With it: the slot, from 1. Without an allocation table slot k is the k-th best team; with one, the table row of the set of groups the qualifying teams come from gives the group whose team takes it.',
    }),
    source_groups: z.array(name).min(1).nullable().meta({
      description:
        "Beyond the spec; null without `source_best_placed`. With it: the groups this slot's team can come from, in group order (with an allocation table, the groups its rows give this slot: EURO 2020's winner of Group B meets the third of Group A, D, E or F).",
    }),
    team_name_ar: arabicName('`team_name` (null while `team_id` is)'),
    round_name: name.nullable().meta({
      description:
        "Beyond the spec: the match's round as the organizer named it (\"Semi-final\"), or null when none was given (its calendar then says \"Round\" and `round_ordinal`). A bracket widget labels its rounds with it.",
    }),
    walkover: z.boolean().meta({ description: 'Beyond the spec: the match was won without being played; `winner_team_id` says by whom, and `score` may be null.' }),
    after_extra_time: z.boolean().meta({ description: 'Beyond the spec: the score came after extra time (its calendar says so too).' }),
  })
  .meta({ description: 'One side of a bracket match.' });

/** Endpoints 1-3 answer bare arrays (contract); an empty list is `[]`. */
export const publicEventListSchema = z.array(publicEventSchema).meta({ description: 'Every public competition, newest `starts_at` first, then `event_id`.' });
export const publicStandingsSchema = z
  .array(publicStandingsRowSchema)
  .meta({ description: 'Rows ordered by group, then rank; `[]` for a knockout-only competition.' });
export const publicBracketSchema = z
  .array(publicBracketSlotSchema)
  .meta({ description: 'Two slots per match, ordered by bracket_role, round_ordinal, match, side; `[]` for a league-only competition.' });
