// A bracket result tells its followers where the winner goes: "Team A go through to Semi-final 1", numbered as the
// bracket and the calendars number the ties of a round (their undecided slots read "Winner of Semi-final 1"). A
// season review's digest said "go through to Semi-final" of a round of two, and the follower could not tell which.
// Real SQLite with the real migrations, the real import and the updates job.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { runUpdates } from '../src/updates/run.js';
import { tempDir } from './support/db.js';

const T0 = new Date('2026-11-21T12:00:00Z');
const quarter = (id: string, home: string, away: string, score?: [number, number]) => ({
  id, round: 1, round_name: 'Quarter-final', home, away, kickoff: '2026-11-14T14:00:00Z',
  ...(score ? { status: 'completed', score: { home: score[0], away: score[1] } } : { status: 'scheduled' }),
});
const semi = (id: string, home: string, away: string) => ({ id, round: 2, round_name: 'Semi-final', home: { winner_of: home }, away: { winner_of: away }, kickoff: '2026-12-05T14:00:00Z', status: 'scheduled' });
function importCup(played: boolean) {
  const file = {
    organizations: [{
      id: 'fa', name: 'Fed FA', teams: 'abcdefgh'.split('').map((t) => ({ id: t, name: `Team ${t.toUpperCase()}` })),
      leagues: [{ id: 'cups', name: 'Cups', events: [{
        id: 'cup', name: 'County Cup', type: 'knockout', status: 'in_progress', public: true,
        matches: [
          quarter('qf1', 'a', 'b'), quarter('qf2', 'c', 'd'), quarter('qf3', 'e', 'f', played ? [0, 2] : undefined), quarter('qf4', 'g', 'h'),
          semi('sf1', 'qf1', 'qf2'), semi('sf2', 'qf3', 'qf4'),
          { id: 'final', round: 3, round_name: 'Final', home: { winner_of: 'sf1' }, away: { winner_of: 'sf2' }, kickoff: '2026-12-19T14:00:00Z', status: 'scheduled' },
        ],
      }] }],
    }],
  };
  const p = parseImport(JSON.stringify(file));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
}
const updates = (now: Date) => runUpdates(db, { now, digestHour: 18, alertDelayMs: 0, forceDigests: false, publicBaseUrl: 'https://c.example' });

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = tempDir('updates-next-');
  db = await openDatabase(path.join(dir, 'app.db'));
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a quarter-final result names the semi-final its winner goes to by its number', async () => {
  importCup(false);
  await updates(T0); // the baseline
  importCup(true);
  await updates(new Date(T0.getTime() + 60_000));
  const change = db.sqlite.prepare(`SELECT kind, data_json FROM update_changes WHERE match_id = 'qf3'`).get() as { kind: string; data_json: string };
  expect(change.kind).toBe('result');
  expect(JSON.parse(change.data_json).after).toMatchObject({ winner: 'Team F', next_label: 'Semi-final 2' });
});
