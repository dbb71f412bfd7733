// Validates an import file element by element, so that one broken match does not hide the problems of
// the rest of the file: each level is parsed with its child lists left raw, valid elements are kept,
// and the cross-file rules then run on what is valid. Every problem is reported with its JSON path.
import { z } from 'zod';
import { crossCheck, formatPath, type ImportProblem } from './cross-check.js';
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
} from './format.js';

const raw = z.array(z.unknown()).default([]);
const fileLevel = importFileSchema.extend({ organizations: raw.pipe(z.array(z.unknown()).min(1, 'must list at least one organization')) });
const orgLevel = organizationSchema.extend({ teams: raw, leagues: raw, divisions: raw });
const teamLevel = teamSchema.extend({ members: raw });
const leagueLevel = leagueSchema.extend({ events: raw });
const eventLevel = eventSchema.extend({ matches: raw.pipe(z.array(z.unknown()).max(100_000)) });

export type Validation = { ok: true; file: ImportFile } | { ok: false; problems: ImportProblem[] };

export function validateImport(json: unknown): Validation {
  const problems: ImportProblem[] = [];
  const broken = new Set<string>();
  const positions = new WeakMap<object, number>();

  function parse<S extends z.ZodType>(schema: S, value: unknown, path: PropertyKey[], key: (id: string) => string): z.output<S> | null {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      problems.push({ path: formatPath([...path, ...issue.path]), message: issue.message });
    }
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') broken.add(key(id));
    return null;
  }
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
      if (!org) return null;
      const teams = keep(
        org.teams.map((rawTeam, t) => {
          const team = parse(teamLevel, rawTeam, [...orgPath, 'teams', t], (id) => `team:${id}`);
          if (!team) return null;
          const members = keep(
            team.members.map((m, i) => parse(memberSchema, m, [...orgPath, 'teams', t, 'members', i], (id) => `member:${id}`)),
          );
          return { ...team, members };
        }),
      );
      const divisions = keep(
        org.divisions.map((d, i) => parse(divisionSchema, d, [...orgPath, 'divisions', i], (id) => `division:${id}`)),
      );
      const leagues = keep(
        org.leagues.map((rawLeague, l) => {
          const leaguePath = [...orgPath, 'leagues', l];
          const league = parse(leagueLevel, rawLeague, leaguePath, (id) => `league:${id}`);
          if (!league) return null;
          const events = keep(
            league.events.map((rawEvent, e) => {
              const eventPath = [...leaguePath, 'events', e];
              const ev = parse(eventLevel, rawEvent, eventPath, (id) => `event:${id}`);
              if (!ev) return null;
              const matches = keep(
                ev.matches.map((m, i) => parse(matchSchema, m, [...eventPath, 'matches', i], (id) => `match:${ev.id}:${id}`)),
              );
              return { ...ev, matches };
            }),
          );
          return { ...league, events };
        }),
      );
      return { ...org, teams, divisions, leagues };
    }),
  );
  const file: ImportFile = { ...top, organizations };
  problems.push(...crossCheck(file, broken, positions));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, file };
}
