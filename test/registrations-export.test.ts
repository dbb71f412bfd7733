// The registrations export as the organizers read it: `created_at` in the organization's time zone with its offset,
// the zone its notices and `--since` speak. In UTC, an organizer's review found a registration made at 01:30 in Amman
// on the day before in the spreadsheet, while its notice and `--since` said the day after.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SyncDb } from '../src/db/sync.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { exportRegistrations, parseSince, toCsv, toJson } from '../src/registrations/export.js';
import { migratedDb, type TestDb } from './support/db.js';

let t: TestDb;
beforeEach(async () => {
  t = await migratedDb();
});
afterEach(async () => t.close());

/** The small fixture's organization (riverside) in `timezone`, with one registration at `createdAt` (UTC, as stored). */
function registeredAt(timezone: string, createdAt: string): SyncDb {
  const json = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/import-small.json'), 'utf8'));
  json.organizations[0].timezone = timezone;
  const parsed = parseImport(JSON.stringify(json));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  applyImport(t.sqlite, parsed.file);
  t.sqlite.prepare(`INSERT INTO registrations (id, org_id, name, email, created_at) VALUES ('reg-1', 'riverside', 'Omar Haddad', 'omar@example.org', ?)`).run(createdAt);
  return new SyncDb(t.sqlite);
}

it.each([
  ['Asia/Amman', '2026-11-26T22:30:00.015Z', '2026-11-27T01:30:00+03:00', '2026-11-27'],
  ['Asia/Amman', '2026-11-27T06:19:45.015Z', '2026-11-27T09:19:45+03:00', '2026-11-27'],
  ['America/New_York', '2026-11-27T03:00:00.000Z', '2026-11-26T22:00:00-05:00', '2026-11-26'],
  ['Europe/London', '2026-07-04T14:00:59.999Z', '2026-07-04T15:00:59+01:00', '2026-07-04'],
  ['UTC', '2026-11-27T06:19:45.015Z', '2026-11-27T06:19:45+00:00', '2026-11-27'],
])('an organization in %s: a registration stored at %s is exported at %s, on the day --since %s takes', (zone, stored, local, day) => {
  const store = registeredAt(zone, stored);
  const rows = exportRegistrations(store, 'riverside', null)!;
  expect(rows.map((r) => r.created_at)).toEqual([local]);
  expect(toCsv(rows).split('\r\n')[1]).toBe(`reg-1,${local},,,Omar Haddad,,omar@example.org,,,,,,,`);
  expect(JSON.parse(toJson('riverside', null, rows)).registrations[0].created_at).toBe(local);
  // The day it shows is the day --since names: that day takes it, the next does not.
  expect(local.slice(0, 10)).toBe(day);
  expect(exportRegistrations(store, 'riverside', parseSince(day))!.map((r) => r.id)).toEqual(['reg-1']);
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 3600_000).toISOString().slice(0, 10);
  expect(exportRegistrations(store, 'riverside', parseSince(next))).toEqual([]);
});

// A registrations review: an Arabic academy's notices named the division "تحت 12 سنة", its export "Under 12".
it("gives the division's Arabic name beside its name", () => {
  const store = registeredAt('Asia/Amman', '2026-11-26T22:30:00.015Z');
  t.sqlite.prepare(`INSERT INTO divisions (id, org_id, name, name_ar) VALUES ('u12', 'riverside', 'Under 12', 'تحت 12 سنة')`).run();
  t.sqlite.prepare(`UPDATE registrations SET division_id = 'u12'`).run();
  expect(exportRegistrations(store, 'riverside', null)).toMatchObject([{ division_id: 'u12', division_name: 'Under 12', division_name_ar: 'تحت 12 سنة' }]);
  expect(toCsv(exportRegistrations(store, 'riverside', null)!).split('\r\n')[1]).toMatch(/^reg-1,[^,]+,u12,Under 12,Omar Haddad,.*,تحت 12 سنة,$/);
});

// A registrations review: one child registered three times (the phone written another way, then a note added), and
// nothing in the export linked the rows. Each repeat names the first, which may be before --since.
it('names the first registration of a player registered again, before --since too', () => {
  const store = registeredAt('UTC', '2026-11-20T10:00:00.000Z');
  const insert = t.sqlite.prepare(`INSERT INTO registrations (id, org_id, name, email, date_of_birth, created_at) VALUES (?, 'riverside', ?, ?, ?, ?)`);
  insert.run('reg-2', 'omar  HADDAD', 'Omar@Example.org', null, '2026-11-27T09:00:00.000Z');
  insert.run('reg-3', 'Sara Haddad', 'omar@example.org', '2016-01-02', '2026-11-27T10:00:00.000Z');
  const rows = exportRegistrations(store, 'riverside', parseSince('2026-11-27'))!;
  expect(rows.map((r) => [r.id, r.same_player_as])).toEqual([['reg-2', 'reg-1'], ['reg-3', null]]);
  expect(toCsv(rows).split('\r\n')[0]!.endsWith(',notes,division_name_ar,same_player_as')).toBe(true);
});
