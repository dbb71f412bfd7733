// An id can never be one of the fixed path segments that sit where a route takes that kind of id (a match called
// `respond` would be unreadable at /api/v0/rsvp/respond): the reserved list is derived here from the routes
// themselves, so a new endpoint cannot quietly shadow an id, and the import refuses such ids with their path.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseImport } from '../src/import/load.js';
import { RSVP_SUMMARY_ROUTE } from '../src/server/rsvp-summary.js';
import { RESERVED_IDS } from '../src/vocabulary/ids.js';

const API = path.resolve(import.meta.dirname, '../src/pages/api');
const KIND_OF_PARAM: Record<string, keyof typeof RESERVED_IDS> = { matchId: 'match', eventId: 'event', teamId: 'team' };

/** For every folder of routes that has a parameter beside fixed names: the parameter's kind and those names. */
function collisions(dir: string): { kind: keyof typeof RESERVED_IDS; names: string[] }[] {
  const entries = fs.readdirSync(dir, { withFileTypes: true });
  const out: { kind: keyof typeof RESERVED_IDS; names: string[] }[] = [];
  const segment = (name: string) => name.replace(/\.ts$/, '');
  const params = entries.map((e) => /^\[(\w+)\]/.exec(segment(e.name))?.[1]).filter((p): p is string => Boolean(p));
  const fixed = entries.map((e) => segment(e.name)).filter((n) => !n.startsWith('['));
  for (const param of params) {
    const kind = KIND_OF_PARAM[param];
    if (!kind) throw new Error(`route parameter [${param}] in ${dir}: add its kind to this test and to RESERVED_IDS`);
    out.push({ kind, names: fixed.map((n) => n.toLowerCase()) });
  }
  for (const e of entries) if (e.isDirectory()) out.push(...collisions(path.join(dir, e.name)));
  return out;
}

/** Routes the node server answers itself (src/server/), named as src/pages/ would name them. */
const NODE_ROUTES = [RSVP_SUMMARY_ROUTE];

/** A node route's parameter beside the fixed names of the pages in the same folder. */
function nodeCollisions(): { kind: keyof typeof RESERVED_IDS; names: string[] }[] {
  return NODE_ROUTES.map((route) => {
    const parts = route.split('/');
    const param = /^\[(\w+)\]$/.exec(parts.pop()!)![1]!;
    const dir = path.join(API, '..', ...parts);
    const fixed = fs.existsSync(dir) ? fs.readdirSync(dir).map((n) => n.replace(/\.ts$/, '')).filter((n) => !n.startsWith('[')) : [];
    const kind = KIND_OF_PARAM[param];
    if (!kind) throw new Error(`node route parameter [${param}]: add its kind to this test and to RESERVED_IDS`);
    return { kind, names: fixed.map((n) => n.toLowerCase()) };
  });
}

describe('reserved ids', () => {
  it('cover every fixed segment beside an id parameter in src/pages/api/', () => {
    const found = [...collisions(API), ...nodeCollisions()];
    expect(nodeCollisions().flatMap((c) => c.names)).toContain('respond');
    expect(found.length).toBeGreaterThan(0);
    for (const { kind, names } of found) for (const name of names) expect(RESERVED_IDS[kind], `${kind} id "${name}"`).toContain(name);
  });

  it.each(['respond', 'Respond'])('are refused at import with their path: a match called %s', (id) => {
    const file = {
      organizations: [{
        id: 'org', name: 'Org', teams: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }],
        leagues: [{ id: 'lg', name: 'League', events: [{ id: 'ev', name: 'Event', type: 'league', matches: [{ id, home: 'a', away: 'b' }] }] }],
      }],
    };
    const parsed = parseImport(JSON.stringify(file));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problems).toEqual([
        { path: `organizations[0] ("org").leagues[0] ("lg").events[0] ("ev").matches[0] ("${id}").id`, message: `"${id}" cannot be a match id: /api/v0/rsvp/respond is another endpoint` },
      ]);
    }
  });
});
