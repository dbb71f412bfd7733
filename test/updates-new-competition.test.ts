// A competition that first appears to followers once it was played (entered afterwards, or made public then): its
// matches are the baseline, its winner is news. Real SQLite, the real import and the updates job's detection.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { detectChanges } from '../src/updates/detect.js';
import { tempDir } from './support/db.js';

let dir: string;
let db: Database;
/** The fixture, its cup (completed: Mill Lane United, rs-united, won the final by walkover) public or not. */
const load = (cupPublic: boolean) => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  f.organizations[0].leagues[0].events[1].public = cupPublic;
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
};
beforeEach(async () => {
  dir = tempDir('updates-new-competition-');
  db = await openDatabase(path.join(dir, 'app.db'));
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// A review added a cup with its final played: followers read "New competition on the calendar", never who won it.
it('a competition that appears already won: told as new, and its champion told', async () => {
  load(false);
  await detectChanges(db, new Date()); // the baseline
  load(true);
  await detectChanges(db, new Date());
  const changes = db.sqlite.prepare(`SELECT event_id, kind, json_extract(data_json, '$.champion') AS champion FROM update_changes ORDER BY id`).all();
  expect(changes).toEqual([
    { event_id: 'rs-cup-2026', kind: 'new_competition', champion: null },
    { event_id: 'rs-cup-2026', kind: 'champion', champion: 'Mill Lane United' },
  ]);
  // Told with its size (and no next kickoff: all played), for a follower deciding whether to add its calendar (a
  // review read "New competition on the calendar" and nothing else).
  expect(db.sqlite.prepare(`SELECT json_extract(data_json, '$.matches') AS matches, json_extract(data_json, '$.next_kickoff') AS next FROM update_changes WHERE kind = 'new_competition'`).get())
    .toEqual({ matches: 2, next: null });
  // Once: the next run finds nothing.
  await detectChanges(db, new Date());
  expect(db.sqlite.prepare(`SELECT count(*) AS n FROM update_changes`).get()).toEqual({ n: 2 });
});

// An Arabic organization's followers read the match lines with the teams' Arabic names: the champion too (a review
// read "Mill Lane United بطل المسابقة" in an email whose every other line named the teams in Arabic).
it("an Arabic organization's champion and competition are told by their Arabic names, the champion compared as before", async () => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  f.organizations[0].language = 'ar';
  const united = f.organizations[0].teams.find((t: { id: string }) => t.id === 'rs-united');
  united.name_ar = 'ميل لين يونايتد';
  f.organizations[0].leagues[0].events[1].name_ar = 'كأس ريفرسايد';
  const load = (cupPublic: boolean) => {
    f.organizations[0].leagues[0].events[1].public = cupPublic;
    const p = parseImport(JSON.stringify(f));
    if (!p.ok) throw new Error(JSON.stringify(p.problems));
    applyImport(db.sqlite, p.file);
  };
  load(false);
  await detectChanges(db, new Date()); // the baseline
  load(true);
  await detectChanges(db, new Date());
  expect(db.sqlite.prepare(`SELECT json_extract(data_json, '$.champion') AS champion FROM update_changes WHERE kind = 'champion'`).all())
    .toEqual([{ champion: 'ميل لين يونايتد' }]);
  // And the competition by its Arabic name (an organizer's review read its English name in Arabic emails).
  expect(db.sqlite.prepare(`SELECT DISTINCT json_extract(data_json, '$.event_name') AS name FROM update_changes`).all()).toEqual([{ name: 'كأس ريفرسايد' }]);
  // What is kept to compare is the name the JSON reads give (champion_name), as before this release: a database
  // upgraded with a decided competition is told no champion again.
  expect(db.sqlite.prepare(`SELECT champion FROM update_event_seen WHERE event_id = 'rs-cup-2026'`).get()).toEqual({ champion: 'Mill Lane United' });
});

// Made public mid-season: its next kickoff, not its first (a review read "the first on" a date already past).
it('a competition made public mid-season: told with its next kickoff', async () => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  f.organizations[0].leagues[0].events[0].public = false;
  const load = (file: unknown) => {
    const p = parseImport(JSON.stringify(file));
    if (!p.ok) throw new Error(JSON.stringify(p.problems));
    applyImport(db.sqlite, p.file);
  };
  load(f);
  const now = new Date('2026-11-01T12:00:00Z');
  await detectChanges(db, now); // the baseline
  f.organizations[0].leagues[0].events[0].public = true;
  load(f);
  await detectChanges(db, now);
  expect(db.sqlite.prepare(`SELECT event_id, json_extract(data_json, '$.matches') AS matches, json_extract(data_json, '$.next_kickoff') AS next FROM update_changes WHERE kind = 'new_competition'`).all())
    .toEqual([{ event_id: 'rs-winter-2026', matches: 3, next: '2026-12-13T10:00:00Z' }]);
});
