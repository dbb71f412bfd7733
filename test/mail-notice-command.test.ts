// The export command a registration notice names lists the registration it announces, whatever the organization's
// time zone. `npm run registrations -- --since DAY` reads DAY in the organization's zone; the notice used to print
// the UTC date, so west of UTC an evening registration fell before the day it named. Found by a review
// (/tmp/review-mail-repro/notice-command.test.ts: a New York organization, a registration at 02:00Z, the notice said
// --since 2026-05-02 and the export listed nothing). Real SQLite with the real migrations and import, the real
// registration service, the notice rendered as the mail worker renders it, and the command's own parser and query.
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { SyncDb } from '../src/db/sync.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { composeEmail } from '../src/mail/compose.js';
import { exportRegistrations, parseSince } from '../src/registrations/export.js';
import { submitRegistration } from '../src/registrations/service.js';
import { migratedDb, type TestDb } from './support/db.js';

let t: TestDb | undefined;
afterEach(async () => t?.close());

async function organizationIn(timezone: string): Promise<SyncDb> {
  t = await migratedDb();
  const f = JSON.parse(fs.readFileSync('test/fixtures/import-small.json', 'utf8'));
  f.organizations[0].timezone = timezone;
  f.organizations[0].registration_emails = ['reg@riverside.example'];
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(t.sqlite, p.file);
  return new SyncDb(t.sqlite);
}

it.each([
  ['America/New_York', '2026-05-02T02:00:00Z', '2026-05-01'], // 22:00 on 1 May there
  ['America/Los_Angeles', '2026-05-02T06:59:00Z', '2026-05-01'],
  ['Pacific/Pago_Pago', '2026-05-02T10:00:00Z', '2026-05-01'],
  ['Asia/Amman', '2026-05-01T22:30:00Z', '2026-05-02'], // 01:30 on 2 May there
  ['UTC', '2026-05-02T02:00:00Z', '2026-05-02'],
])("in %s, a registration at %s: the notice's command (--since %s) lists it", async (timezone, at, day) => {
  const store = await organizationIn(timezone);
  const now = new Date(at);
  // Another registration the evening before, local time: the command starts at the announced one's day, not before.
  const earlier = new Date(now.getTime() - 24 * 3600_000);
  const before = submitRegistration(store, { org_id: 'riverside', name: 'Earlier', email: 'e@example.org' }, { client: 'c', now: earlier, receiptsPerDay: 3, noticesPerDay: 200 });
  const { body } = submitRegistration(store, { org_id: 'riverside', name: 'Omar', email: 'p@example.org' }, { client: 'c', now, receiptsPerDay: 3, noticesPerDay: 200 });
  const row = t!.sqlite.prepare(`SELECT * FROM email_outbox WHERE tag = 'registration-notice' ORDER BY id DESC`).get() as never;
  const { text } = composeEmail(store, row, { baseUrl: 'https://c.example', now });
  const command = /npm run registrations -- --org riverside --since (\S+) --output registrations-riverside-\1\.csv\n/.exec(text);
  expect(command?.[1]).toBe(day);
  const ids = exportRegistrations(store, 'riverside', parseSince(command![1]!))!.map((r) => r.id);
  expect(ids).toEqual([body.id]);
  expect(ids).not.toContain(before.body.id);
});

it("the last notice before an address's daily cap says so; past it registrations are kept, emailed to nobody, and exported", async () => {
  // A quiet inbox after a burst (a stranger's 200 registrations, or a busy opening day) read as "no more
  // registrations" before: nothing told the organizer notices had stopped.
  const store = await organizationIn('UTC');
  const now = new Date('2026-05-02T10:00:00Z');
  const ids: string[] = [];
  for (let i = 1; i <= 4; i++) {
    const { body } = submitRegistration(store, { org_id: 'riverside', name: `Player ${i}`, email: `p${i}@example.org` }, { client: 'c', now, receiptsPerDay: 3, noticesPerDay: 3 });
    ids.push(body.id);
  }
  const rows = t!.sqlite.prepare(`SELECT * FROM email_outbox WHERE tag = 'registration-notice' ORDER BY id`).all() as never[];
  expect(rows).toHaveLength(3);
  const texts = rows.map((row) => composeEmail(store, row, { baseUrl: 'https://c.example', now }).text);
  const last = 'This is the last notice this address gets for 24 hours (its limit is 3). Registrations after it are kept but not emailed: the export command below lists them.';
  expect(texts.map((text) => text.includes(last))).toEqual([false, false, true]);
  expect(exportRegistrations(store, 'riverside', parseSince('2026-05-02'))!.map((r) => r.id).sort()).toEqual([...ids].sort());
});
