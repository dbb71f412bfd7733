// A match changed more than once before its digest is told once, as its net change. Found by a review: moved from
// Sunday 10:30 to Monday 19:00, then back, the digest listed the move back first and the first move last (play order
// reads the new kickoff), so a follower reading top to bottom took the match to be on Monday; it never moved.
// Real SQLite with the real migrations, the real import, follow service and updates job; the digest rendered as the
// mail worker renders it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { confirmFollow, requestFollow } from '../src/follows/service.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { composeEmail } from '../src/mail/compose.js';
import { runUpdates } from '../src/updates/run.js';
import { tempDir } from './support/db.js';

const FAN = 'fan@example.org';
const T0 = new Date('2026-11-21T12:00:00Z'); // rs-m3 kicks off Sunday 13 December 2026, 10:00 UTC
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

let dir: string;
let db: Database;
const setKickoff = (kickoff: string) => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  f.organizations[0].leagues[0].events[0].matches.find((m: { id: string }) => m.id === 'rs-m3').kickoff = kickoff;
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
};
const updates = (now: Date, forceDigests: boolean) =>
  runUpdates(db, { now, digestHour: 18, alertDelayMs: 0, forceDigests, publicBaseUrl: 'https://c.example' });
/** The digests queued to the fan, rendered. */
const digests = () =>
  (db.sqlite.prepare(`SELECT * FROM email_outbox WHERE to_address = ? AND tag = 'follow-digest' ORDER BY id`).all(FAN) as never[])
    .map((row) => composeEmail(db.store, row, { baseUrl: 'https://c.example', now: T0 }).text);

beforeEach(async () => {
  dir = tempDir('updates-net-');
  db = await openDatabase(path.join(dir, 'app.db'));
  setKickoff('2026-12-13T10:00:00Z');
  await updates(T0, false); // the baseline
  requestFollow(db.store, { org_id: 'riverside', email: FAN }, { now: T0, emailsPerDay: 3 });
  const row = db.sqlite.prepare(`SELECT * FROM email_outbox ORDER BY id DESC`).get() as never;
  const token = /\/follow\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(composeEmail(db.store, row, { baseUrl: 'https://c.example', now: T0 }).text)![1]!;
  expect(confirmFollow(db.store, token, T0).outcome).toBe('confirmed');
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('moved, then moved again: one line, from what the follower knew to where it is now', async () => {
  setKickoff('2026-12-14T19:00:00Z');
  expect(await updates(at(1), false)).toMatchObject({ changes: 1, emails: 0 }); // found; the digest is not due yet
  setKickoff('2026-12-12T15:00:00Z');
  expect(await updates(at(2), true)).toMatchObject({ changes: 1, emails: 1 });
  const [digest] = digests();
  const lines = digest!.split('\n').filter((l) => l.startsWith('- '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('Sunday 13 December 2026, 10:00');
  expect(lines[0]).toContain('Saturday 12 December 2026, 15:00');
  expect(lines[0]).not.toContain('14 December');
});

it('moved, then moved back before the digest: no news, no email (the cursors still pass both)', async () => {
  setKickoff('2026-12-14T19:00:00Z');
  await updates(at(1), false);
  setKickoff('2026-12-13T10:00:00Z');
  expect(await updates(at(2), true)).toMatchObject({ changes: 1, emails: 0 });
  expect(digests()).toEqual([]);
  setKickoff('2026-12-20T10:00:00Z');
  expect(await updates(at(3), true)).toMatchObject({ changes: 1, emails: 1 });
  expect(digests()[0]).toContain('Sunday 20 December 2026, 10:00');
});
