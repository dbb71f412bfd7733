// Match invitations go to the teams the competition's rules put in the match, the same teams the bracket read shows:
// a slot fed by a two-legged tie decided on away goals (the event's away_goals_rule), or by a group's final table
// (ranked by the event's tie-breakers). Real SQLite, the real import and the invitation service.
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { inviteMatch } from '../src/rsvp/service.js';
import { tempDir } from './support/db.js';

type Json = any; // an import file built by hand
const NOW = new Date('2026-03-01T12:00:00Z');
const LATER = '2026-04-01T19:00:00Z';
const played = (id: string, round: number, home: string, away: string, score: [number, number], extra: Json = {}) => ({
  id, round, home, away, kickoff: '2026-02-01T19:00:00Z', status: 'completed', score: { home: score[0], away: score[1] }, ...extra,
});

const FILE = {
  organizations: [{
    id: 'fed', name: 'Fed FA',
    teams: ['a', 'b', 'c', 'd'].map((t) => ({ id: t, name: `Team ${t.toUpperCase()}`, members: [{ id: `${t}-1`, name: `Player ${t}`, email: `${t}@example.org` }] })),
    leagues: [{ id: 'cups', name: 'Cups', events: [
      {
        // b 2-1 a, then a 1-0 b: 2-2 on aggregate, Team A through on the goal it scored away.
        id: 'away-goals', name: 'Away goals cup', type: 'knockout', status: 'in_progress', away_goals_rule: true,
        matches: [
          played('ag-sf-1', 1, 'b', 'a', [2, 1], { leg: 1 }),
          played('ag-sf-2', 1, 'a', 'b', [1, 0], { leg: 2, first_leg: 'ag-sf-1' }),
          { id: 'ag-final', round: 2, home: { winner_of: 'ag-sf-2' }, away: 'c', kickoff: LATER, status: 'scheduled' },
        ],
      },
      {
        // Group A: b beat a; Group B: c beat d. The final is the two group winners.
        id: 'groups', name: 'Group cup', type: 'hybrid', status: 'in_progress', tiebreakers: 'uefa',
        matches: [
          played('g-a1', 1, 'a', 'b', [0, 1], { group: 'Group A' }),
          played('g-b1', 1, 'c', 'd', [2, 0], { group: 'Group B' }),
          { id: 'g-final', round: 2, bracket_role: 'winners', home: { group: 'Group A', position: 1 }, away: { group: 'Group B', position: 1 }, kickoff: LATER, status: 'scheduled' },
        ],
      },
      {
        // The best runner-up of the two groups: a (lost 0-1) above d (lost 0-2).
        id: 'best', name: 'Best runner-up cup', type: 'hybrid', status: 'in_progress', tiebreakers: 'uefa',
        best_placed: [{ id: 'seconds', position: 2, qualify: 1 }],
        matches: [
          played('bp-a1', 1, 'a', 'b', [0, 1], { group: 'Group A' }),
          played('bp-b1', 1, 'c', 'd', [2, 0], { group: 'Group B' }),
          { id: 'bp-final', round: 2, bracket_role: 'winners', home: { best_placed: 'seconds', slot: 1 }, away: 'c', kickoff: LATER, status: 'scheduled' },
        ],
      },
    ] }],
  }],
};

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = tempDir('rsvp-fed-');
  db = await openDatabase(path.join(dir, 'app.db'));
  const parsed = parseImport(JSON.stringify(FILE));
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  applyImport(db.sqlite, parsed.file);
});
afterEach(async () => db.close());

/** Who was invited to a match, and the teams its invitation emails name. */
function invitations(matchId: string): { invited: number; to: string[]; teams: string[] } {
  const { invited } = inviteMatch(db.store, matchId, NOW);
  const rows = db.sqlite.prepare(`SELECT to_address AS recipient, data_json AS data FROM email_outbox WHERE tag = 'rsvp-invite' ORDER BY recipient`).all() as { recipient: string; data: string }[];
  const teams = [...new Set(rows.map((r) => { const d = JSON.parse(r.data) as { homeName: string; awayName: string }; return `${d.homeName} v ${d.awayName}`; }))];
  return { invited, to: rows.map((r) => r.recipient), teams };
}

it.each([
  ['a slot fed by a tie won on away goals', 'ag-final', ['a@example.org', 'c@example.org'], ['Team A v Team C']],
  ["a slot fed by a group's final table", 'g-final', ['b@example.org', 'c@example.org'], ['Team B v Team C']],
  ['a slot fed by the best-placed teams of several groups', 'bp-final', ['a@example.org', 'c@example.org'], ['Team A v Team C']],
])('%s: both teams are invited, and named', (_name, matchId, to, teams) => {
  expect(invitations(matchId)).toEqual({ invited: 2, to, teams });
});
