// The import format: how organizations' data gets in (documented in README "Import format").
// Shape rules live in the zod schema; rules that need the whole file (unique ids, references,
// results that make sense for the competition) are checked in crossCheck() with the same paths.
import { z } from 'zod';
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
import { checkCompetitionRules, checkGroupFeed } from './rules-check.js';
import { idSchema as id, isReservedId } from '../vocabulary/ids.js';
import { languageSchema } from '../vocabulary/language.js';
import { isTimeZone } from '../time/local-time.js';
const text = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const optionalText = text.nullish().transform((v) => v ?? null);

/** An instant with an explicit offset, normalized to RFC 3339 UTC with Z and whole seconds. */
export const instant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
    'must be an RFC 3339 date-time with an offset, e.g. 2026-03-07T18:30:00Z',
  )
  .refine((s) => !Number.isNaN(Date.parse(s)), 'is not a real date-time')
  .transform((s) => new Date(s).toISOString().replace(/\.\d{3}Z$/, 'Z'));

const score = z.number().int().min(0).max(999);

/** A slot of a match: a seeded team id, a feed from another match, or null (an empty slot: a bye). */
const slot = z
  .union([
    id,
    z.object({ winner_of: id }).strict(),
    z.object({ loser_of: id }).strict(),
    z.object({ group: text, position: z.number().int().min(1).max(1000) }).strict(),
    z.null(),
  ])
  .optional()
  .transform((v) => v ?? null);

export const matchSchema = z
  .object({
    id,
    round: z.number().int().min(1).max(1000).default(1),
    round_name: optionalText,
    group: optionalText,
    bracket_role: bracketRoleSchema.nullish(),
    position: z.number().int().min(0).max(100_000).default(0),
    home: slot,
    away: slot,
    kickoff: instant.nullish().transform((v) => v ?? null),
    ends_at: instant.nullish().transform((v) => v ?? null),
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
    walkover: sideSchema.nullish(),
    /** A leg of a two-legged tie: 1 or 2; the second leg names its first leg and decides the tie. */
    leg: z.union([z.literal(1), z.literal(2)], { error: 'must be 1 or 2' }).nullish().transform((v) => v ?? null),
    first_leg: id.nullish().transform((v) => v ?? null),
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

export const eventSchema = z
  .object({
    id,
    name: text,
    type: competitionTypeSchema,
    status: eventStatusSchema.default('scheduled'),
    starts_at: instant.nullish().transform((v) => v ?? null),
    ends_at: instant.nullish().transform((v) => v ?? null),
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
    league: id.nullish().transform((v) => v ?? null),
    /** Registrations are taken from `opens_at` until `closes_at` (either may be absent: no bound). */
    opens_at: instant.nullish().transform((v) => v ?? null),
    closes_at: instant.nullish().transform((v) => v ?? null),
    /** A player younger than this (in whole years, on the day of registering) needs a guardian's name and phone. */
    guardian_required_under: z.number().int().min(1).max(30).nullish().transform((v) => v ?? null),
  })
  .strict();

export const memberSchema = z
  .object({
    id,
    name: text,
    name_ar: optionalText,
    email: z
      .email('must be an email address')
      .max(254)
      .nullish()
      .transform((v) => v?.toLowerCase() ?? null),
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
    registration_emails: z.array(z.email('must be an email address').max(254).transform((v) => v.toLowerCase())).max(20).default([]),
    /** Registrations older than this are deleted. */
    registration_retention_days: z.number().int().min(1).max(3650).default(365),
    /** Where its matches are played: emails and pages show times in this zone. */
    timezone: z.string().refine(isTimeZone, 'must be an IANA time zone such as Asia/Amman').default('UTC'),
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

export interface ImportProblem {
  /** JSON path of the offending value, e.g. `organizations[0].leagues[1].events[0].matches[3].home`. */
  path: string;
  message: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * Rules across the whole file. Returns every problem, each with its JSON path. `broken` holds
 * `kind:id` keys of elements that failed their own validation (already reported): references to
 * them are not reported a second time.
 */
export function crossCheck(
  file: ImportFile,
  broken: ReadonlySet<string> = new Set(),
  positions: WeakMap<object, number> = new WeakMap(),
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  // Index of an element in the file as written (the validator may have dropped broken siblings).
  const at = (element: object, index: number) => positions.get(element) ?? index;
  const report = (path: PropertyKey[], message: string) => problems.push({ path: formatPath(path), message });

  const seen = new Map<string, Map<string, string>>();
  const unique = (kind: string, value: string, path: PropertyKey[]) => {
    const kindSeen = seen.get(kind) ?? new Map<string, string>();
    seen.set(kind, kindSeen);
    const first = kindSeen.get(value);
    if (first) report(path, `duplicate ${kind} id "${value}" (first used at ${first})`);
    else kindSeen.set(value, formatPath(path));
  };

  file.organizations.forEach((org, o) => {
    const orgPath = ['organizations', at(org, o)];
    unique('organization', org.id, [...orgPath, 'id']);
    const teamIds = new Set(org.teams.map((t) => t.id));
    const leagueIds = new Set(org.leagues.map((l) => l.id));
    for (const key of broken) {
      if (key.startsWith('team:')) teamIds.add(key.slice(5));
      if (key.startsWith('league:')) leagueIds.add(key.slice(7));
    }
    org.teams.forEach((team, t) => {
      const teamPath = [...orgPath, 'teams', at(team, t)];
      unique('team', team.id, [...teamPath, 'id']);
      team.members.forEach((m, i) => unique('member', m.id, [...teamPath, 'members', at(m, i), 'id']));
    });
    org.divisions.forEach((d, i) => {
      const divisionPath = [...orgPath, 'divisions', at(d, i)];
      unique('division', d.id, [...divisionPath, 'id']);
      if (d.league !== null && !leagueIds.has(d.league)) {
        report([...divisionPath, 'league'], `league "${d.league}" is not a league of this organization`);
      }
      if (d.opens_at && d.closes_at && d.closes_at <= d.opens_at) report([...divisionPath, 'closes_at'], 'must be after opens_at');
    });
    org.leagues.forEach((league, l) => {
      const leaguePath = [...orgPath, 'leagues', at(league, l)];
      unique('league', league.id, [...leaguePath, 'id']);
      league.events.forEach((ev, e) => {
        const eventPath = [...leaguePath, 'events', at(ev, e)];
        unique('event', ev.id, [...eventPath, 'id']);
        if (ev.starts_at && ev.ends_at && ev.ends_at < ev.starts_at) {
          report([...eventPath, 'ends_at'], 'must not be before starts_at');
        }
        const matchIds = new Set(ev.matches.map((m) => m.id));
        for (const key of broken) if (key.startsWith(`match:${ev.id}:`)) matchIds.add(key.slice(`match:${ev.id}:`.length));
        ev.matches.forEach((m, i) => {
          const matchPath = [...eventPath, 'matches', at(m, i)];
          unique('match', m.id, [...matchPath, 'id']);
          if (isReservedId('match', m.id)) report([...matchPath, 'id'], `"${m.id}" cannot be a match id: /api/v0/rsvp/${m.id.toLowerCase()} is another endpoint`);
          checkMatch(ev, m, matchPath, teamIds, matchIds, report);
        });
        checkFeedCycles(ev, eventPath, report, at);
        checkCompetitionRules(ev, eventPath, teamIds, report, at);
      });
    });
  });
  return problems;
}

export type Report = (path: PropertyKey[], message: string) => void;

function checkMatch(
  ev: ImportEvent,
  m: ImportMatch,
  path: PropertyKey[],
  teamIds: Set<string>,
  matchIds: Set<string>,
  report: Report,
): void {
  const role = m.bracket_role ?? (ev.type === 'knockout' ? 'winners' : null);
  if (ev.type === 'league' && role !== null) report([...path, 'bracket_role'], 'a league event has no bracket');
  for (const side of ['home', 'away'] as const) {
    const s = m[side];
    if (s === null) continue;
    if (typeof s === 'string') {
      if (!teamIds.has(s)) report([...path, side], `team "${s}" is not a team of this organization`);
      continue;
    }
    if ('group' in s) {
      checkGroupFeed(ev, role, s, [...path, side], report);
      continue;
    }
    const source = 'winner_of' in s ? s.winner_of : s.loser_of;
    if (role === null) report([...path, side], 'only a bracket match can be fed by another match');
    else if (source === m.id) report([...path, side], 'a match cannot feed itself');
    else if (!matchIds.has(source)) report([...path, side], `match "${source}" is not a match of this event`);
  }
  if (role === null && (m.home === null || m.away === null)) {
    report([...path, m.home === null ? 'home' : 'away'], 'a league or group match needs both teams');
  }
  if (typeof m.home === 'string' && m.home === m.away) report([...path, 'away'], 'a team cannot play itself');
  if (m.kickoff && m.ends_at && m.ends_at <= m.kickoff) report([...path, 'ends_at'], 'must be after kickoff');

  const bye = role !== null && (m.home === null) !== (m.away === null);
  const hasResult = m.score != null || m.walkover != null;
  if (m.status === 'completed' && !hasResult && !bye) {
    report([...path, 'score'], 'a completed match needs a score (or a walkover in a bracket)');
  }
  if (hasResult && !['completed', 'in_progress'].includes(m.status)) {
    report([...path, 'status'], `a match with a result cannot be ${m.status}`);
  }
  if (m.walkover != null && role === null) {
    report([...path, 'walkover'], 'a walkover decides a bracket match; record a league walkover as its awarded score');
  }
  if (m.walkover != null && m.status !== 'completed') report([...path, 'status'], 'a walkover is a completed match');
  const s = m.score;
  if (s) {
    const hasPens = s.home_penalties != null || s.away_penalties != null;
    if (hasPens) {
      if (s.home_penalties == null || s.away_penalties == null) {
        report([...path, 'score'], 'penalties need both home_penalties and away_penalties');
      } else if (s.home_penalties === s.away_penalties) {
        report([...path, 'score', 'home_penalties'], 'a shoot-out cannot end level');
      }
      // A second leg's penalties follow a level tie (rules-check.ts), whatever the leg's own score.
      if (s.home !== s.away && m.leg === null) report([...path, 'score'], 'penalties only follow a level score');
      if (role === null) report([...path, 'score'], 'penalties only decide a bracket match');
    }
    if (s.after_extra_time && role === null) report([...path, 'score', 'after_extra_time'], 'extra time only follows a level bracket match');
    if (role !== null && m.leg === null && m.status === 'completed' && m.walkover == null && s.home === s.away && !hasPens) {
      report([...path, 'score'], 'a completed bracket match cannot end level without penalties');
    }
  }
}

/** A bracket whose feeds loop can never be decided. */
function checkFeedCycles(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  const feeds = new Map<string, string[]>();
  for (const m of ev.matches) {
    const sources: string[] = [];
    for (const s of [m.home, m.away]) {
      if (s !== null && typeof s === 'object' && !('group' in s)) sources.push('winner_of' in s ? s.winner_of : s.loser_of);
    }
    feeds.set(m.id, sources);
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (matchId: string): boolean => {
    const st = state.get(matchId);
    if (st === 'done') return false;
    if (st === 'visiting') return true;
    state.set(matchId, 'visiting');
    const cyclic = (feeds.get(matchId) ?? []).some(visit);
    state.set(matchId, 'done');
    return cyclic;
  };
  ev.matches.forEach((m, i) => {
    if (!state.has(m.id) && visit(m.id)) {
      report([...eventPath, 'matches', at(m, i)], `the feeds through match "${m.id}" form a cycle`);
    }
  });
}
