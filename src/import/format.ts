// The import format: how organizations' data gets in (documented in README "Import format").
// Shape rules live in the zod schema; rules that need the whole file (unique ids, references,
// results that make sense for the competition) are checked in cross-check.ts with the same paths.
import { z } from 'zod';
import { emailField, readableText } from '../http/fields.js';
import {
  bracketRoleSchema,
  competitionTypeSchema,
  eventStatusSchema,
  matchStatusSchema,
  sideSchema,
  TIEBREAK_CRITERIA,
  TIEBREAK_PRESETS,
  tiebreakCriterionSchema,
  tiebreakPresetSchema,
  type TiebreakCriterion,
  type TiebreakPreset,
} from '../vocabulary/enums.js';
import { idSchema as id } from '../vocabulary/ids.js';
import { languageSchema } from '../vocabulary/language.js';
import { canonicalTimeZone, isTimeZone } from '../time/local-time.js';
import { isRealDay, isRealInstant, utcInstant } from '../time/rfc3339.js';
import { BEST_PLACED_CRITERIA, DEFAULT_BEST_PLACED_RANKING } from '../competitions/best-placed.js';

// Names reach every public read, calendar and email: the API's rules for readable text (src/http/fields.ts) hold
// here too. A control character pasted from a spreadsheet, or a direction override that reverses the rest of a
// calendar line, is refused at its path rather than published.
// In NFC, one spelling of each name: an app matching a team of the standings with a calendar's SUMMARY, or searching,
// missed a name imported decomposed ("Cafe" + U+0301, "عمّان" with its marks in another order; an API review).
const text = z.string().trim().normalize('NFC').min(1, 'must not be empty').max(200, 'must be at most 200 characters').superRefine(readableText());
/**
 * An optional field: left out or null is none. An empty string (an empty spreadsheet cell, `"email": ""`) is none
 * too in intent, but it was told "is required" or "must not be empty", which read as if the field had to be filled;
 * it is refused saying what to write instead. No optional field of the file takes "" as absent: a file says null.
 */
export const EMPTY_OPTIONAL = 'is empty: leave it out or write null';
function optional<T extends z.ZodType>(schema: T) {
  return z
    .preprocess((v, ctx) => {
      if (typeof v !== 'string' || v.trim() !== '') return v;
      ctx.addIssue({ code: 'custom', message: EMPTY_OPTIONAL });
      return undefined;
    }, schema.nullish())
    .transform((v) => v ?? null);
}
const optionalText = optional(text);

/** An instant with an explicit offset, normalized to RFC 3339 UTC with Z and whole seconds. */
export const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, {
    message: 'must be an RFC 3339 date-time with the offset of the clock it is read on, e.g. 2026-03-07T18:30:00+00:00 (18:30 in London in winter; 2026-09-12T10:00:00+01:00 in its summer; Z is UTC)',
    abort: true,
  })
  .refine(isRealInstant, 'is not a real date-time (that month has no such day, or the hour is past 23:59)')
  .transform((s) => utcInstant(new Date(s)));

/** A day, `YYYY-MM-DD`, that exists. */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD, e.g. 2015-01-01', abort: true })
  .refine(isRealDay, 'is not a real date (that month has no such day)');

const score = z.number().int().min(0).max(999);

/** A slot of a match: a seeded team id, a feed from another match, or null (an empty slot: a bye). */
const slot = optional(
  z.union([
    id,
    z.object({ winner_of: id }).strict(),
    z.object({ loser_of: id }).strict(),
    z.object({ group: text, position: z.number().int().min(1).max(1000) }).strict(),
    z.object({ best_placed: id, slot: z.number().int().min(1).max(1000) }).strict(),
    z.null(),
  ]),
);

export const matchSchema = z
  .object({
    id,
    round: z.number().int().min(1).max(1000).default(1),
    round_name: optionalText,
    group: optionalText,
    bracket_role: optional(bracketRoleSchema),
    position: z.number().int().min(0).max(100_000).default(0),
    home: slot,
    away: slot,
    kickoff: optional(instant),
    ends_at: optional(instant),
    venue: optionalText,
    status: matchStatusSchema.default('scheduled'),
    score: z
      .object({
        home: score,
        away: score,
        home_penalties: score.nullish(),
        away_penalties: score.nullish(),
        /** The score was reached after extra time (a knockout match level after normal time). */
        after_extra_time: z.boolean().default(false),
      })
      .strict()
      .nullish(),
    walkover: optional(sideSchema),
    /** A leg of a two-legged tie: 1 or 2; the second leg names its first leg and decides the tie. */
    leg: z.union([z.literal(1), z.literal(2)], { error: 'must be 1 or 2' }).nullish().transform((v) => v ?? null),
    first_leg: optional(id),
  })
  .strict();

/**
 * `tiebreakers`: a preset name or an ordered list of criteria. Parsed by hand rather than as a zod union, so that a
 * wrong criterion is reported at its own index with the values allowed, not as "invalid input" for the whole field.
 */
const tiebreakers = z.unknown().optional().transform((v, ctx): TiebreakPreset | TiebreakCriterion[] => {
  if (v === undefined || v === null) return 'default';
  const result =
    typeof v === 'string'
      ? tiebreakPresetSchema.safeParse(v, { error: () => `must be a preset: ${TIEBREAK_PRESETS.join(', ')}` })
      : z
          .array(tiebreakCriterionSchema, { error: 'must be a preset name or a list of criteria' })
          .min(1, 'must list at least one criterion')
          .max(TIEBREAK_CRITERIA.length, 'lists a criterion twice')
          .safeParse(v, { error: (issue) => (issue.code === 'invalid_value' ? `must be one of ${TIEBREAK_CRITERIA.join(', ')}` : undefined) });
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
});

export const decisionSchema = z
  .object({
    /** The clubs level that the organizer separated off the pitch. */
    teams: z.array(id).min(2, 'must name at least two teams').max(64),
    /** The same clubs, best first. */
    order: z.array(id).min(2, 'must name at least two teams').max(64),
    reason: text,
  })
  .strict();

export const adjustmentSchema = z
  .object({
    team: id,
    points: z.number().int().min(-1000).max(1000).refine((n) => n !== 0, 'must not be 0'),
    reason: text,
  })
  .strict();

/** A row of a best-placed rule's allocation table: the qualifying groups, and for slot 1, 2, … the group whose team takes it. */
export const allocationRowSchema = z
  .object({
    groups: z.array(text).min(1, 'must name at least one group').max(64),
    slots: z.array(text).min(1, 'must name at least one group').max(64),
  })
  .strict();

/** Criteria a ranking across groups can use (no head-to-head: the teams did not all meet). */
const bestPlacedCriterion = z.enum(BEST_PLACED_CRITERIA, { error: `must be one of ${BEST_PLACED_CRITERIA.join(', ')}` });

/**
 * The best `qualify` teams at `position` across several groups (README "Group stage to knockout"), for slots
 * `{"best_placed": ID, "slot": K}`. `groups` defaults to every group of the event; `ranking` to UEFA EURO's order.
 */
export const bestPlacedSchema = z
  .object({
    id,
    position: z.number().int().min(1).max(1000),
    groups: z.array(text).min(2, 'must name at least two groups').max(64).nullish().transform((v) => v ?? null),
    qualify: z.number().int().min(1).max(64),
    ranking: z
      .array(bestPlacedCriterion)
      .min(1, 'must list at least one criterion')
      .max(BEST_PLACED_CRITERIA.length, 'lists a criterion twice')
      .default([...DEFAULT_BEST_PLACED_RANKING]),
    allocation: z.array(allocationRowSchema).min(1, 'must have at least one row').max(5000).nullish().transform((v) => v ?? null),
  })
  .strict();

export const eventSchema = z
  .object({
    id,
    name: text,
    /** Its name in Arabic: an Arabic organization's calendars and emails show it (the JSON reads give `name`). */
    name_ar: optionalText,
    type: competitionTypeSchema,
    status: eventStatusSchema.default('scheduled'),
    starts_at: optional(instant),
    ends_at: optional(instant),
    venue_city: optionalText,
    public: z.boolean().default(true),
    points: z
      .object({
        win: z.number().int().min(-100).max(100),
        draw: z.number().int().min(-100).max(100),
        loss: z.number().int().min(-100).max(100),
      })
      .strict()
      .default({ win: 3, draw: 1, loss: 0 }),
    match_duration_minutes: z.number().int().min(1).max(24 * 60).default(90),
    tiebreakers,
    /** Two-legged ties level on aggregate go to the team that scored more away goals. */
    away_goals_rule: z.boolean().default(false),
    decisions: z.array(decisionSchema).max(1000).default([]),
    adjustments: z.array(adjustmentSchema).max(1000).default([]),
    /** Hybrid events: the best-placed teams of several groups that feed knockout slots. */
    best_placed: z.array(bestPlacedSchema).max(16).default([]),
    matches: z.array(matchSchema).max(100_000).default([]),
  })
  .strict();

export const leagueSchema = z
  .object({
    id,
    name: text,
    name_ar: optionalText,
    events: z.array(eventSchema).default([]),
  })
  .strict();

export const divisionSchema = z
  .object({
    id,
    name: text,
    name_ar: optionalText,
    league: optional(id),
    /** Registrations are taken from `opens_at` until `closes_at` (either may be absent: no bound). */
    opens_at: optional(instant),
    closes_at: optional(instant),
    /** A player younger than this (in whole years, on the day of registering) needs a guardian's name and phone. */
    guardian_required_under: z.number().int().min(1).max(30).nullish().transform((v) => v ?? null),
    /**
     * Whom it takes by date of birth, both days included (either may be absent: no bound): an under-12 side of the
     * 2026/27 season born in 2015 or later, or on or after 1 September 2014 where the cut-off is 31 August.
     */
    born_from: optional(day),
    born_until: optional(day),
  })
  .strict();

export const memberSchema = z
  .object({
    id,
    name: text,
    name_ar: optionalText,
    // The public forms' rule (src/http/email-address.ts): invitations go where a follow or a registration could.
    email: optional(emailField),
    // An English club's Arabic-speaking player (as a follow's and a registration's `language`): their invitations,
    // the changes they are told and their RSVP page in it, the teams named in it too. Absent: the organization's.
    language: optional(languageSchema),
  })
  .strict();

export const teamSchema = z
  .object({
    id,
    name: text,
    name_ar: optionalText,
    members: z.array(memberSchema).default([]),
  })
  .strict();

export const organizationSchema = z
  .object({
    id,
    name: text,
    name_ar: optionalText,
    language: languageSchema.default('en'),
    /** Who is told of each registration (an email each). */
    registration_emails: z.array(emailField).max(20).default([]),
    /**
     * The address the public writes to: named in the emails sent for the organization (a registration's receipt, an
     * invitation, a follower's emails) and their Reply-To. Optional; never one of registration_emails by default, which
     * may be a volunteer's own.
     */
    contact_email: optional(emailField),
    /** Registrations older than this are deleted. */
    registration_retention_days: z.number().int().min(1).max(3650).default(365),
    /** Where its matches are played: emails and pages show times in this zone. */
    // Kept as the canonical name: "asia/amman" was taken (Node's zones ignore case) and published as typed, which
    // Python's zoneinfo and other readers of the events list refuse (an organizer's review).
    timezone: z.string().refine(isTimeZone, 'must be an IANA time zone such as Asia/Amman').transform(canonicalTimeZone).default('UTC'),
    teams: z.array(teamSchema).default([]),
    leagues: z.array(leagueSchema).default([]),
    divisions: z.array(divisionSchema).default([]),
  })
  .strict();

export const importFileSchema = z
  .object({
    $schema: z.string().optional(),
    organizations: z.array(organizationSchema).min(1, 'must list at least one organization'),
  })
  .strict();

export type ImportFile = z.output<typeof importFileSchema>;
export type ImportOrganization = ImportFile['organizations'][number];
export type ImportEvent = ImportOrganization['leagues'][number]['events'][number];
export type ImportMatch = ImportEvent['matches'][number];
export type ImportSlot = ImportMatch['home'];
export type ImportBestPlaced = ImportEvent['best_placed'][number];
