// A registration's emails carry a child's details (the notice: date of birth, guardian's phone), and may wait in the
// outbox for about a day (Postmark down, the worker retrying). What they were queued for is checked again when they
// leave. Found by a data protection review: with Postmark answering 500, a registration's notices to tasjeel@ and
// coaches@ waited; the organizer imported registration_emails with tasjeel@ alone (the README's remedy for a wrong
// address); once Postmark was back, the notice to coaches@ went out all the same.
// The same review found a registration's notice and receipt still waiting once the registration was gone (past its
// organization's registration_retention_days, or erased), and sent when Postmark came back: the retention job deleted
// only the emails that had left. Real SQLite with the real migrations and import, the real registration service,
// retention job and mail worker, the real postmark client against a fake Postmark.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncDb } from '../src/db/sync.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { applyRetention } from '../src/jobs/retention.js';
import { CANCEL_REASONS } from '../src/mail/send-time.js';
import { createPostmarkTransport } from '../src/mail/transports/postmark.js';
import { startMailWorker } from '../src/mail/worker.js';
import { submitRegistration } from '../src/registrations/service.js';
import { migratedDb, type TestDb } from './support/db.js';
import { FAKE_POSTMARK_TOKEN, FakePostmark } from './support/fake-postmark.js';

const T0 = new Date('2026-05-02T10:00:00Z');
const TASJEEL = 'tasjeel@riverside.example';
const COACHES = 'coaches@riverside.example';

let t: TestDb;
let store: SyncDb;
let fake: FakePostmark;
let apiHost: string;
beforeEach(async () => {
  t = await migratedDb();
  store = new SyncDb(t.sqlite);
  fake = new FakePostmark();
  apiHost = await fake.listen();
});
afterEach(async () => {
  await fake.close();
  await t.close();
});

/** The small fixture's organization, with these registration_emails, imported as `npm run import` does. */
function importWith(registrationEmails: string[], retentionDays?: number): void {
  const f = JSON.parse(fs.readFileSync('test/fixtures/import-small.json', 'utf8'));
  f.organizations[0].registration_emails = registrationEmails;
  if (retentionDays !== undefined) f.organizations[0].registration_retention_days = retentionDays;
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(t.sqlite, p.file);
}

function register(now = T0): string {
  return submitRegistration(store, {
    org_id: 'riverside', name: 'Omar Haddad', email: 'parent@example.org', date_of_birth: '2015-03-04',
    guardian_name: 'Lina Haddad', guardian_phone: '+962 79 555 0101',
  }, { client: 'c', now, receiptsPerDay: 3, noticesPerDay: 200 }).body.id;
}

/** The worker, at `now`, sends what is due through the real postmark client; the log lines. */
async function send(now: Date): Promise<string[]> {
  const log: string[] = [];
  const transport = createPostmarkTransport({ serverToken: FAKE_POSTMARK_TOKEN, apiHost, timeoutMs: 2_000 });
  const worker = startMailWorker(store, transport, {
    from: 'C <no-reply@c.example>', baseUrl: 'https://c.example', intervalMs: 60_000, now: () => now, random: () => 0.5, log: (line) => log.push(line),
  });
  await worker.drain();
  await worker.stop();
  return log;
}

const rows = () => t.sqlite.prepare(`SELECT to_address, template, status, last_error FROM email_outbox ORDER BY id`).all();
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

it("a notice waiting for an address the organization has since removed from registration_emails is not sent", async () => {
  importWith([TASJEEL, COACHES]);
  register();
  fake.mode = { kind: 'status', status: 500, errorCode: 0, message: 'Internal Server Error' };
  await send(T0);
  expect(rows()).toMatchObject([
    { to_address: TASJEEL, status: 'pending' }, { to_address: COACHES, status: 'pending' }, { template: 'registration-receipt', status: 'pending' },
  ]);
  importWith([TASJEEL]);
  fake.mode = { kind: 'ok' };
  fake.received = [];
  const log = await send(later(60));
  expect(fake.received.map((r) => r.body.To).sort()).toEqual(['parent@example.org', TASJEEL]);
  expect(JSON.stringify(fake.received)).not.toContain(COACHES);
  expect(rows()).toEqual([
    { to_address: TASJEEL, template: 'registration-notice', status: 'sent', last_error: expect.any(String) },
    { to_address: COACHES, template: 'registration-notice', status: 'failed', last_error: `cancelled at send time: ${CANCEL_REASONS.notRegistrationAddress}` },
    { to_address: 'parent@example.org', template: 'registration-receipt', status: 'sent', last_error: expect.any(String) },
  ]);
  // The log names the row and the fixed reason, never the address.
  expect(log.join('\n')).toMatch(/^mail #2 tag=registration-notice cancelled at send time: its address is no longer one of its organization's registration_emails$/m);
  expect(log.join('\n')).not.toContain('coaches');
});

it.each([
  ['the same address kept', true, [TASJEEL], [TASJEEL]],
  ['the same Gmail mailbox, spelt without its dot (Gmail delivers both alike)', true, ['club.tasjeel@gmail.com'], ['clubtasjeel@gmail.com']],
  ['another Outlook address, which differs by a dot only (another person at Outlook)', false, ['john.smith@outlook.com'], ['johnsmith@outlook.com']],
  ['a +tag at a domain not known to deliver it to the plain address', false, [TASJEEL], ['tasjeel+reg@riverside.example']],
  ['every address removed', false, [TASJEEL], []],
])('registration_emails corrected while a notice waits: %s → sent: %s', async (_name, sent, before, after) => {
  importWith(before);
  register();
  importWith(after);
  await send(T0);
  const notice = rows().find((r) => (r as { template: string }).template === 'registration-notice') as { status: string; last_error: string | null };
  expect(notice.status).toBe(sent ? 'sent' : 'failed');
  if (!sent) expect(notice.last_error).toBe(`cancelled at send time: ${CANCEL_REASONS.notRegistrationAddress}`);
});

it('the summary past the daily cap, waiting for an address since removed, is not sent either', async () => {
  importWith([TASJEEL, COACHES]);
  const ctx = { client: 'c', receiptsPerDay: 0, noticesPerDay: 1 };
  for (const i of [1, 2]) submitRegistration(store, { org_id: 'riverside', name: `Player ${i}`, email: `p${i}@example.org` }, { ...ctx, now: T0 });
  importWith([TASJEEL]);
  await send(later(61));
  expect(t.sqlite.prepare(`SELECT to_address, status, last_error FROM email_outbox WHERE template = 'registration-overflow' ORDER BY id`).all()).toEqual([
    { to_address: TASJEEL, status: 'sent', last_error: null },
    { to_address: COACHES, status: 'failed', last_error: `cancelled at send time: ${CANCEL_REASONS.notRegistrationAddress}` },
  ]);
});

describe('a registration no longer kept', () => {
  const postmarkDown = async () => {
    fake.mode = { kind: 'status', status: 500, errorCode: 0, message: 'Internal Server Error' };
    await send(T0);
    expect(rows()).toMatchObject([{ status: 'pending' }, { status: 'pending' }]);
    fake.mode = { kind: 'ok' };
    fake.received = [];
  };

  it('erased while its notice and receipt wait: neither is sent', async () => {
    importWith([TASJEEL]);
    const id = register();
    await postmarkDown();
    t.sqlite.prepare(`DELETE FROM registrations WHERE id = ?`).run(id);
    const log = await send(later(60));
    expect(fake.received).toEqual([]);
    expect(rows()).toEqual([
      { to_address: TASJEEL, template: 'registration-notice', status: 'failed', last_error: `cancelled at send time: ${CANCEL_REASONS.registrationGone}` },
      { to_address: 'parent@example.org', template: 'registration-receipt', status: 'failed', last_error: `cancelled at send time: ${CANCEL_REASONS.registrationGone}` },
    ]);
    expect(log.join('\n')).toMatch(/^mail #1 tag=registration-notice cancelled at send time: the registration is no longer kept$/m);
  });

  it('past its retention: the retention job deletes its emails still waiting with it, and nothing is sent', async () => {
    importWith([TASJEEL], 1);
    register();
    await postmarkDown();
    const kept = register(later(2 * 24 * 60 - 60)); // an hour before the run: kept, and its emails too
    const result = applyRetention(store, later(2 * 24 * 60));
    expect(result.registrations).toBe(1);
    expect(result.emails).toBe(2);
    expect(t.sqlite.prepare(`SELECT DISTINCT json_extract(data_json, '$.registrationId') AS id FROM email_outbox`).all()).toEqual([{ id: kept }]);
    await send(later(2 * 24 * 60));
    expect(fake.received.map((r) => r.body.To).sort()).toEqual(['parent@example.org', TASJEEL]);
  });
});
