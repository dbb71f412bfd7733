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
import { composeEmail, composeForSending } from '../src/mail/compose.js';
import { exportRegistrations, parseSince } from '../src/registrations/export.js';
import { OVERFLOW_DELAY_MS, submitRegistration } from '../src/registrations/service.js';
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
  const last = 'This is the last single notice this address gets until fewer than 3 have gone to it in 24 hours (its limit). Registrations after it are kept, and a summary of how many came is sent at most once an hour; the export command below lists them.';
  expect(texts.map((text) => text.includes(last))).toEqual([false, false, true]);
  expect(exportRegistrations(store, 'riverside', parseSince('2026-05-02'))!.map((r) => r.id).sort()).toEqual([...ids].sort());
});

// An attacker's review used up the cap with 200 junk registrations, and the club heard of none of its real ones that
// day: past the cap, a summary an hour says how many came, with the export command from the first it covers.
it('past the cap: one summary waits an hour, counts every registration since the first it covers, and exports them', async () => {
  const store = await organizationIn('UTC');
  const t0 = new Date('2026-05-02T10:00:00.250Z');
  const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
  const submit = (i: number, now: Date) =>
    submitRegistration(store, { org_id: 'riverside', name: `Player ${i}`, email: `p${i}@example.org` }, { client: 'c', now, receiptsPerDay: 3, noticesPerDay: 2 }).body.id;
  const ids = [submit(1, at(0)), submit(2, at(0)), submit(3, at(1)), submit(4, at(20)), submit(5, at(59))];
  const rows = () => t!.sqlite.prepare(`SELECT * FROM email_outbox WHERE to_address = 'reg@riverside.example' ORDER BY id`).all() as Array<{ tag: string; status: string; created_at: string; next_attempt_at: string; data_json: string }>;
  expect(rows().map((r) => r.tag)).toEqual(['registration-notice', 'registration-notice', 'registration-overflow']);
  const summary = rows()[2]!;
  // Due an hour after the first registration it covers: one waiting at a time, whatever came after.
  expect(Date.parse(summary.next_attempt_at)).toBe(at(1).getTime() + OVERFLOW_DELAY_MS);
  // Stamped as queued then: an hour's planned wait is no mail backlog for /healthz.
  expect(summary.created_at).toBe(summary.next_attempt_at);
  const sent = composeForSending(store, summary as never, { baseUrl: 'https://c.example', now: at(61) });
  if (!('text' in sent)) throw new Error(`cancelled: ${sent.cancelled}`);
  expect(sent.subject).toBe('More registrations: 3 since Saturday 2 May 2026, 10:01 UTC');
  expect(sent.text).toContain('This address has reached its limit of 2 notices in 24 hours');
  // Nothing a submitter typed: a count and a command.
  expect(sent.text).not.toContain('Player');
  const command = /npm run registrations -- --org riverside --since (\S+) --output /.exec(sent.text);
  expect(command?.[1]).toBe('2026-05-02T10:01:00.250Z');
  expect(exportRegistrations(store, 'riverside', parseSince(command![1]!))!.map((r) => r.id)).toEqual(ids.slice(2));
  // Once it is due (it may be leaving, its count taken), the next registration past the cap waits for a summary of
  // its own: counted in two at worst, never in none.
  submit(6, at(61));
  t!.sqlite.prepare(`UPDATE email_outbox SET status = 'sent' WHERE id = (SELECT min(id) FROM email_outbox WHERE tag = 'registration-overflow')`).run();
  submit(7, at(62));
  expect(rows().map((r) => `${r.tag} ${r.status}`)).toEqual([
    'registration-notice pending', 'registration-notice pending', 'registration-overflow sent', 'registration-overflow pending',
  ]);
  expect(JSON.parse(rows()[3]!.data_json).since).toBe(at(61).toISOString());
});

// A registrations review: the cap reached within a second, the summary's command, cut to whole seconds, also listed the
// registrations notified earlier in that second ("8 more registrations", and 12 rows), and named a file with colons.
it("past the cap within a second: the summary's command lists the registrations it counts, and no other", async () => {
  const store = await organizationIn('UTC');
  const t0 = new Date('2026-05-02T10:00:00.100Z');
  const submit = (i: number, ms: number) =>
    submitRegistration(store, { org_id: 'riverside', name: `Player ${i}`, email: `p${i}@example.org` }, { client: 'c', now: new Date(t0.getTime() + ms), receiptsPerDay: 3, noticesPerDay: 2 }).body.id;
  const ids = [submit(1, 0), submit(2, 300), submit(3, 600), submit(4, 800)];
  const summary = t!.sqlite.prepare(`SELECT * FROM email_outbox WHERE tag = 'registration-overflow'`).get();
  const sent = composeForSending(store, summary as never, { baseUrl: 'https://c.example', now: new Date(t0.getTime() + OVERFLOW_DELAY_MS + 1000) });
  if (!('text' in sent)) throw new Error(`cancelled: ${sent.cancelled}`);
  expect(sent.subject).toBe('More registrations: 2 since Saturday 2 May 2026, 10:00 UTC');
  const command = /npm run registrations -- --org riverside --since (\S+) --output (\S+)\n/.exec(sent.text);
  expect(exportRegistrations(store, 'riverside', parseSince(command![1]!))!.map((r) => r.id)).toEqual(ids.slice(2));
  expect(command![2]).toBe('registrations-riverside-2026-05-02T100000Z.csv');
});
