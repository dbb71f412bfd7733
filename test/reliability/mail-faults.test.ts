// Postmark down, then slow, then back: the API answers at normal speed throughout, every email goes out
// once it is back, retries back off, and a permanently rejected address is recorded and not retried.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_POSTMARK_TOKEN, FakePostmark } from '../support/fake-postmark.js';
import { request } from '../support/http.js';
import { startService, type RunningService } from '../support/server.js';

let svc: RunningService;
let fake: FakePostmark;
let db: Database.Database;

beforeAll(async () => {
  fake = new FakePostmark();
  const url = await fake.listen();
  fake.mode = { kind: 'status', status: 500, errorCode: 0, message: 'Internal Server Error' };
  svc = await startService({
    RATE_LIMIT_WRITES_PER_MIN: '0',
    MAIL_TRANSPORT: 'postmark',
    POSTMARK_SERVER_TOKEN: FAKE_POSTMARK_TOKEN,
    POSTMARK_API_HOST: url,
    // Scaled down from seconds-to-minutes so the test runs in seconds; the shape is the same.
    MAIL_RETRY_BASE_S: '0.5',
    MAIL_RETRY_MAX_S: '4',
    MAIL_SEND_TIMEOUT_S: '1',
  });
  db = new Database(svc.env.DATABASE_PATH!, { readonly: true });
});
afterAll(async () => {
  db?.close();
  await svc?.stop();
  await fake?.close();
});

async function register(i: number, email = `mailfault.${i}@example.org`) {
  const started = performance.now();
  const res = await request(`${svc.url}/api/v0/register`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ org_id: 'riverside-sfl', name: `Mail Fault ${i}`, email }),
  });
  return { status: res.status, ms: performance.now() - started };
}

const outbox = () => db.prepare(`SELECT id, to_address, status, attempts, last_error FROM email_outbox ORDER BY id`).all() as {
  id: number; to_address: string; status: string; attempts: number; last_error: string | null;
}[];

describe('mail faults', () => {
  it('keeps the API fast while Postmark fails or hangs, then delivers everything once it is back', async () => {
    await register(-1, 'warmup@example.org'); // first request pays for JIT warm-up
    const timings: number[] = [];
    for (let i = 0; i < 10; i++) timings.push((await register(i)).ms);
    await new Promise((r) => setTimeout(r, 3000)); // Postmark answering 500 for a while
    fake.mode = { kind: 'hang' }; // then never answering
    for (let i = 10; i < 20; i++) timings.push((await register(i)).ms);
    await new Promise((r) => setTimeout(r, 4000));
    timings.sort((a, b) => a - b);
    const p95 = timings[Math.floor(timings.length * 0.95)]!;
    // Had a request waited on Postmark it would take at least the send timeout (1 s) while it hangs.
    expect(p95).toBeLessThan(500);
    const failing = outbox();
    expect(failing.every((m) => m.status === 'pending')).toBe(true);
    // Sending paused (src/mail/worker.ts pauseSending): one email tried at a time, not every email at every retry.
    const duringOutage = fake.received.length;
    expect(duringOutage).toBeGreaterThan(1);
    expect(duringOutage).toBeLessThan(failing.length);
    expect(svc.output()).toContain('mail: sending paused: postmark-http-500-code-0; one email is tried at a time');

    fake.mode = { kind: 'ok' };
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && outbox().some((m) => m.status !== 'sent')) await new Promise((r) => setTimeout(r, 200));
    const done = outbox();
    expect(done.map((m) => m.status)).toEqual(done.map(() => 'sent'));
    // Each message reached Postmark with our token; none twice after it was accepted.
    const accepted = new Set<string>();
    for (const r of fake.received) {
      expect(r.headers['x-postmark-server-token']).toBe(FAKE_POSTMARK_TOKEN);
    }
    for (const m of done) accepted.add(m.to_address);
    // The 21 contact addresses and the organization's registration address.
    expect(accepted.size).toBe(22);

    console.log(`mail-faults: 20 registrations during the outage, p95 ${p95.toFixed(1)} ms; ${duringOutage} requests to Postmark during it for ${failing.length} emails waiting; all sent after recovery`);
  }, 60_000);

  it('records a permanently rejected address as failed and does not retry it', async () => {
    fake.mode = { kind: 'status', status: 422, errorCode: 406, message: 'You tried to send to a recipient that has been marked as inactive.' };
    await register(99, 'inactive@example.org');
    const deadline = Date.now() + 10_000;
    let row;
    while (Date.now() < deadline) {
      row = outbox().find((m) => m.to_address === 'inactive@example.org');
      if (row?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringMatching(/406|inactive/i) });
    const attemptsBefore = fake.received.filter((r) => r.body.To === 'inactive@example.org').length;
    await new Promise((r) => setTimeout(r, 3000));
    expect(fake.received.filter((r) => r.body.To === 'inactive@example.org').length).toBe(attemptsBefore);
    fake.mode = { kind: 'ok' };
  }, 30_000);
});
