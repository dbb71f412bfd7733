// The outbox queries on a real, migrated SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SyncDb } from '../db/sync.js';
import { migratedDb, type TestDb } from '../../test/support/db.js';
import {
  claimDueEmails,
  enqueueEmailSync,
  InvalidOutgoingEmailError,
  markEmailFailed,
  markEmailRetry,
  markEmailSent,
  oldestPendingEmail,
  queueEmail,
  type EnqueueTiming,
  type OutgoingEmail,
} from './outbox.js';

let t: TestDb;
let store: SyncDb;
beforeEach(async () => {
  t = await migratedDb();
  store = new SyncDb(t.sqlite);
});
/** Queues one prerendered email in its own transaction. */
const enqueueEmail = (msg: OutgoingEmail & EnqueueTiming) => store.transaction(() => enqueueEmailSync(store, msg));
const data = (row: { data_json: string }) => JSON.parse(row.data_json) as { subject: string; headers: Record<string, string> };
afterEach(async () => t.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const mail = (n = 1): OutgoingEmail => ({
  to: `fan${n}@example.com`,
  subject: `Subject ${n}`,
  text: 'text',
  html: '<p>html</p>',
  headers: { 'List-Unsubscribe': '<https://competitions.example/u?t=1>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  tag: 'follow-confirm',
});
const rows = () => t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute();

describe('enqueueEmail', () => {
  it('writes nothing when the caller’s transaction rolls back', async () => {
    expect(() =>
      store.transaction(() => {
        store.run(store.q.insertInto('organizations').values({ id: 'org1', name: 'Org' }));
        enqueueEmailSync(store, mail());
        throw new Error('the change failed');
      }),
    ).toThrow('the change failed');
    expect(await rows()).toEqual([]);
    expect(await t.db.selectFrom('organizations').selectAll().execute()).toEqual([]);
  });

  it('commits with the transaction: one pending row, due now, headers kept', async () => {
    const id = enqueueEmail(mail());
    const [row] = await rows();
    expect(data(row!).subject).toBe('Subject 1');
    expect(row).toMatchObject({
      id,
      to_address: 'fan1@example.com',
      template: 'prerendered',
      status: 'pending',
      attempts: 0,
      tag: 'follow-confirm',
      last_error: null,
      sent_at: null,
      provider_message_id: null,
    });
    expect(row!.next_attempt_at).toMatch(TIMESTAMP);
    expect(row!.created_at).toMatch(TIMESTAMP);
    expect(data(row!).headers).toEqual(mail().headers);
  });

  it('joins a SyncDb transaction, and rolls back with it', async () => {
    expect(() =>
      store.transaction(() => {
        enqueueEmailSync(store, mail(1));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(await rows()).toEqual([]);
    const id = store.transaction(() => enqueueEmailSync(store, { ...mail(2), createdAt: '2026-03-07T18:30:00Z' }));
    const [row] = await rows();
    expect(row).toMatchObject({ id, created_at: '2026-03-07T18:30:00.000Z', next_attempt_at: '2026-03-07T18:30:00.000Z' });
  });

  it('refuses what would break or forge the message', async () => {
    const bad: OutgoingEmail[] = [
      { ...mail(), to: 'a@example.com\r\nBcc: x@example.com' },
      { ...mail(), to: 'a@example.com, b@example.com' },
      { ...mail(), to: 'not an address' },
      { ...mail(), headers: { 'X-A': 'v\r\nBcc: x@example.com' } },
      { ...mail(), headers: { From: 'ceo@example.com' } },
      { ...mail(), subject: '   ' },
      { ...mail(), tag: 'a\nb' },
    ];
    for (const msg of bad) expect(() => enqueueEmail(msg), JSON.stringify(msg)).toThrow(InvalidOutgoingEmailError);
    expect(await rows()).toEqual([]);
  });

  it('folds line breaks in a subject into spaces', async () => {
    enqueueEmail({ ...mail(), subject: 'Welcome\r\n  Ali' });
    expect(data((await rows())[0]!).subject).toBe('Welcome Ali');
  });
});

describe('claim and outcomes', () => {
  const at = (iso: string) => new Date(iso);

  it('claims due pending messages oldest first, up to the limit, and leases them', async () => {
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push(enqueueEmail({ ...mail(n), createdAt: '2026-01-01T00:00:00Z' }));
    enqueueEmail({ ...mail(5), notBefore: '2026-01-01T01:00:00Z' }); // not due yet
    markEmailFailed(store, ids[3]!, { error: 'permanent: x' }); // not pending

    const now = at('2026-01-01T00:10:00.000Z');
    const first = claimDueEmails(store, { now, limit: 2, leaseMs: 60_000 });
    expect(first.map((r) => r.id)).toEqual([ids[0], ids[1]]);
    expect(first.every((r) => r.next_attempt_at === '2026-01-01T00:11:00.000Z')).toBe(true);

    // Leased rows are invisible to a second claim; the rest comes next.
    const second = claimDueEmails(store, { now, limit: 10, leaseMs: 60_000 });
    expect(second.map((r) => r.id)).toEqual([ids[2]]);
    expect(claimDueEmails(store, { now, limit: 10, leaseMs: 60_000 })).toEqual([]);

    // A lease that runs out (the process died mid-send) makes them due again.
    const later = claimDueEmails(store, { now: at('2026-01-01T00:11:00.000Z'), limit: 10, leaseMs: 60_000 });
    expect(later.map((r) => r.id)).toEqual([ids[0], ids[1], ids[2]]);
  });

  it('claims the longest due first, reading only the rows it claims (no sort of every due row)', async () => {
    const fresh = enqueueEmail({ ...mail(1), createdAt: '2026-01-01T00:05:00Z' });
    const retried = enqueueEmail({ ...mail(2), createdAt: '2026-01-01T00:06:00Z' });
    markEmailRetry(store, retried, { error: 'HTTP 503', nextAttemptAt: at('2026-01-01T00:01:00Z') });
    const claimed = claimDueEmails(store, { now: at('2026-01-01T00:10:00.000Z'), limit: 1, leaseMs: 60_000 });
    expect(claimed.map((r) => r.id)).toEqual([retried]);
    expect(claimDueEmails(store, { now: at('2026-01-01T00:10:00.000Z'), limit: 1, leaseMs: 60_000 }).map((r) => r.id)).toEqual([fresh]);
    // The plan of the claim's statement: its order is the index's, so SQLite stops after `limit` rows.
    const statements: string[] = [];
    const traced = new SyncDb(new Proxy(store.sqlite, {
      get: (target, name) => (name === 'prepare' ? (sql: string) => (statements.push(sql), target.prepare(sql)) : Reflect.get(target, name, target)),
    }));
    claimDueEmails(traced, { now: at('2026-01-01T00:10:00.000Z'), limit: 10, leaseMs: 60_000 });
    const claim = statements.find((sql) => sql.startsWith('update "email_outbox"'))!;
    const params = Array.from(claim.matchAll(/\?/g), () => '2026-01-01T00:10:00.000Z');
    const plan = (store.sqlite.prepare(`EXPLAIN QUERY PLAN ${claim}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX email_outbox_due/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('tells when the oldest pending email was queued, from the pending rows\' own index', async () => {
    expect(oldestPendingEmail(store)).toBeNull();
    const sent = enqueueEmail({ ...mail(1), createdAt: '2026-01-01T00:01:00Z' });
    const retried = enqueueEmail({ ...mail(2), createdAt: '2026-01-01T00:02:00Z' });
    enqueueEmail({ ...mail(3), createdAt: '2026-01-01T00:03:00Z' });
    markEmailSent(store, sent, { providerMessageId: 'pm-1', sentAt: at('2026-01-01T00:01:01Z') });
    markEmailRetry(store, retried, { error: 'HTTP 401', nextAttemptAt: at('2026-01-01T01:00:00Z') });
    expect(oldestPendingEmail(store)).toBe('2026-01-01T00:02:00.000Z');
    // One entry read, whatever the backlog: the partial index's first, not every pending row.
    const statements: string[] = [];
    const traced = new SyncDb(new Proxy(store.sqlite, {
      get: (target, name) => (name === 'prepare' ? (sql: string) => (statements.push(sql), target.prepare(sql)) : Reflect.get(target, name, target)),
    }));
    oldestPendingEmail(traced);
    const plan = (store.sqlite.prepare(`EXPLAIN QUERY PLAN ${statements.at(-1)!}`).all() as { detail: string }[]).map((r) => r.detail);
    expect(plan.join('\n')).toMatch(/SEARCH email_outbox USING (COVERING )?INDEX email_outbox_pending_age/);
  });

  it('records sent, retry and failed, each only on a pending message', async () => {
    const a = enqueueEmail(mail(1));
    const b = enqueueEmail(mail(2));
    const c = enqueueEmail(mail(3));

    expect(markEmailRetry(store, a, { error: 'HTTP 500', nextAttemptAt: at('2026-05-01T00:00:05Z') })).toBe(true);
    expect(markEmailSent(store, a, { providerMessageId: 'pm-1', sentAt: at('2026-05-01T00:00:06Z') })).toBe(true);
    expect(markEmailFailed(store, b, { error: 'permanent: inactive recipient' })).toBe(true);
    expect(markEmailRetry(store, c, { error: 'timeout', nextAttemptAt: at('2026-05-01T00:00:10Z') })).toBe(true);

    const [ra, rb, rc] = await rows();
    expect(ra).toMatchObject({ status: 'sent', attempts: 2, provider_message_id: 'pm-1', sent_at: '2026-05-01T00:00:06.000Z' });
    expect(rb).toMatchObject({ status: 'failed', attempts: 1, last_error: 'permanent: inactive recipient', sent_at: null });
    expect(rc).toMatchObject({ status: 'pending', attempts: 1, last_error: 'timeout', next_attempt_at: '2026-05-01T00:00:10.000Z' });

    // A finished message is never changed again.
    expect(markEmailSent(store, b, { providerMessageId: 'x', sentAt: new Date() })).toBe(false);
    expect(markEmailRetry(store, a, { error: 'x', nextAttemptAt: new Date() })).toBe(false);
    expect(markEmailFailed(store, a, { error: 'x' })).toBe(false);
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('keeps last_error bounded', async () => {
    const id = enqueueEmail(mail());
    markEmailRetry(store, id, { error: 'e'.repeat(5000), nextAttemptAt: new Date() });
    expect((await rows())[0]!.last_error!.length).toBeLessThanOrEqual(1000);
  });
});
