// Validates an import file element by element, so that one broken match does not hide the problems of
// the rest of the file: each level is parsed with its child lists left raw, valid elements are kept,
// and the cross-file rules then run on what is valid. Every problem is reported with its JSON path, naming the ids of
// the elements on the way (formatPath).
import { z } from 'zod';
import { crossCheck, formatPath, incompleteEventKey, type ImportProblem } from './cross-check.js';
import { issueMessage } from './issue-words.js';
import {
  divisionSchema,
  eventSchema,
  importFileSchema,
  leagueSchema,
  matchSchema,
  memberSchema,
  organizationSchema,
  teamSchema,
  type ImportFile,
  type ImportMatch,
} from './format.js';

const raw = z.array(z.unknown()).default([]);
const fileLevel = importFileSchema.extend({ organizations: raw.pipe(z.array(z.unknown()).min(1, 'must list at least one organization')) });
const orgLevel = organizationSchema.extend({ teams: raw, leagues: raw, divisions: raw });
const teamLevel = teamSchema.extend({ members: raw });
const leagueLevel = leagueSchema.extend({ events: raw });
/** Matches of one event: a file with more is refused before any of them is read. */
const MAX_MATCHES = 100_000;
const eventLevel = eventSchema.extend({ matches: raw.pipe(z.array(z.unknown()).max(MAX_MATCHES)) });

/**
 * Each valid match's kickoff as the file wrote it, offset and all: format.ts keeps it in UTC, and notes.ts points out an
 * offset that is not the organization's that day (kickoffWrittenAs).
 */
const writtenKickoffs = new WeakMap<ImportMatch, string>();

/** A match's kickoff as its file wrote it (`2026-12-20T15:00:00+01:00`); undefined for a match validateImport did not read. */
export const kickoffWrittenAs = (m: ImportMatch): string | undefined => writtenKickoffs.get(m);

export type Validation = { ok: true; file: ImportFile } | { ok: false; problems: ImportProblem[] };

export function validateImport(json: unknown): Validation {
  const problems: ImportProblem[] = [];
  const broken = new Set<string>();
  const positions = new WeakMap<object, number>();

  function parse<S extends z.ZodType>(schema: S, value: unknown, path: PropertyKey[], key: (id: string) => string): z.output<S> | null {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const fields = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
    for (const issue of result.error.issues) {
      problems.push({ path: formatPath([...path, ...issue.path], json), message: issueMessage(issue, value, fields) });
    }
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') broken.add(key(id));
    return null;
  }
  // The child lists of an element that failed its own rules: still checked, so that one wrong field of an
  // organization (its registration email, say) does not hide every problem of its teams, leagues and matches. Its
  // children are then dropped with it.
  const listOf = (value: unknown, name: string): unknown[] => {
    const list = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
    return Array.isArray(list) ? list : [];
  };
  // Drops the broken elements, remembering where the kept ones stood for the cross-check's paths.
  const keep = <T extends object>(items: (T | null)[]): T[] => {
    items.forEach((item, index) => item && positions.set(item, index));
    return items.filter((x): x is T => x !== null);
  };

  const top = parse(fileLevel, json, [], () => '');
  if (!top) return { ok: false, problems };
  const organizations = keep(
    top.organizations.map((rawOrg, o) => {
      const orgPath = ['organizations', o];
      const org = parse(orgLevel, rawOrg, orgPath, (id) => `organization:${id}`);
      const teams = keep(
        (org?.teams ?? listOf(rawOrg, 'teams')).map((rawTeam, t) => {
          const team = parse(teamLevel, rawTeam, [...orgPath, 'teams', t], (id) => `team:${id}`);
          const members = keep(
            (team?.members ?? listOf(rawTeam, 'members')).map((m, i) => parse(memberSchema, m, [...orgPath, 'teams', t, 'members', i], (id) => `member:${id}`)),
          );
          return team && { ...team, members };
        }),
      );
      const divisions = keep(
        (org?.divisions ?? listOf(rawOrg, 'divisions')).map((d, i) => parse(divisionSchema, d, [...orgPath, 'divisions', i], (id) => `division:${id}`)),
      );
      const leagues = keep(
        (org?.leagues ?? listOf(rawOrg, 'leagues')).map((rawLeague, l) => {
          const leaguePath = [...orgPath, 'leagues', l];
          const league = parse(leagueLevel, rawLeague, leaguePath, (id) => `league:${id}`);
          const events = keep(
            (league?.events ?? listOf(rawLeague, 'events')).map((rawEvent, e) => {
              const eventPath = [...leaguePath, 'events', e];
              const ev = parse(eventLevel, rawEvent, eventPath, (id) => `event:${id}`);
              // A match's key needs its event's id: as written, when the event itself is broken.
              const eventId = ev?.id ?? String((rawEvent as { id?: unknown } | null)?.id ?? e);
              const parsed = (ev?.matches ?? listOf(rawEvent, 'matches').slice(0, MAX_MATCHES)).map((m, i) => {
                const match = parse(matchSchema, m, [...eventPath, 'matches', i], (id) => `match:${eventId}:${id}`);
                const written = (m as { kickoff?: unknown }).kickoff;
                if (match !== null && typeof written === 'string') writtenKickoffs.set(match, written);
                return match;
              });
              // An event missing a broken match: the checks of its whole shape wait for it (cross-check.ts).
              if (parsed.includes(null)) broken.add(incompleteEventKey(eventId));
              const matches = keep(parsed);
              return ev && { ...ev, matches };
            }),
          );
          return league && { ...league, events };
        }),
      );
      return org && { ...org, teams, divisions, leagues };
    }),
  );
  const file: ImportFile = { ...top, organizations };
  problems.push(...crossCheck(file, broken, positions, json));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, file };
}
