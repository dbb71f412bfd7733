// The outbox worker on a real database: with the file transport end to end (the .eml files parse back),
// and with a scripted transport for the retry rules (a double of the narrow MailTransport interface only).
import { createHook } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SERVER_BUSY_TIMEOUT_MS, setBusyTimeout } from '../src/db/connect.js';
import { GroupCommit } from '../src/db/group-commit.js';
import { SyncDb } from '../src/db/sync.js';
import { enqueueEmailSync, queueEmail, type EnqueueTiming, type OutgoingEmail } from '../src/mail/outbox.js';
import { hashToken } from '../src/security/tokens.js';
import { MailDeliveryError, type MailMessage, type MailTransport } from '../src/mail/transport.js';
import { createFileTransport } from '../src/mail/transports/file.js';
import { backoffMs, startMailWorker, type MailWorker, type MailWorkerOptions } from '../src/mail/worker.js';
import { migratedDb, type TestDb } from './support/db.js';

const FROM = 'منافسات <no-reply@competitions.example>';
const SECRET = 'tok_s3cr3t_do_not_log';

let t: TestDb;
let store: SyncDb;
let clock: Date;
let logs: string[];
let worker: MailWorker | undefined;

beforeEach(async () => {
  t = await migratedDb();
  store = new SyncDb(t.sqlite);
  clock = new Date(Date.now() + 1_000); // just after the rows' default next_attempt_at
  logs = [];
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await t.close();
});

const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const rows = () => t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute();
const BASE = 'https://competitions.example';
/** Queues one prerendered email in its own transaction. */
const enqueueEmail = (msg: OutgoingEmail & EnqueueTiming) => store.transaction(() => enqueueEmailSync(store, msg));

function start(transport: MailTransport, options: Partial<MailWorkerOptions> = {}): MailWorker {
  worker = startMailWorker(store, transport, {
    from: FROM,
    baseUrl: BASE,
    intervalMs: 60_000,
    now: () => clock,
    random: () => 0.5,
    log: (line) => logs.push(line),
    ...options,
  });
  return worker;
}

const simple = (n: number, tag = 'test'): OutgoingEmail => ({
  to: `person${n}@example.org`,
  subject: `Message ${n}`,
  text: `Body ${n} with ${SECRET}`,
  html: `<p>Body ${n} <a href="https://competitions.example/x?token=${SECRET}">link</a></p>`,
  tag,
});

/** A transport whose answers the test scripts per call. */
function scripted(answer: (msg: MailMessage, call: number) => Promise<{ messageId: string }>) {
  const calls: MailMessage[] = [];
  const transport: MailTransport = {
    send: (msg) => {
      calls.push(msg);
      return answer(msg, calls.length);
    },
  };
  return { transport, calls };
}

describe('mail worker with the file transport', () => {
  it('writes each message as an .eml file that parses back, and marks it sent', async () => {
    const dir = path.join(t.dir, 'mail');
    // The follow the confirmation is for, still waiting for it, of a league with a public competition: the worker
    // checks both before it sends (src/mail/send-time.ts).
    t.sqlite.exec(`
      INSERT INTO organizations (id, name, name_ar, language) VALUES ('shj', 'Sharjah', 'نادي الشارقة الرياضي', 'ar');
      INSERT INTO leagues (id, org_id, name, name_ar) VALUES ('shj-youth', 'shj', 'Youth League', 'دوري الناشئين');
      INSERT INTO events (id, league_id, name, competition_type) VALUES ('shj-youth-2026', 'shj-youth', 'Youth 2026', 'league');
      INSERT INTO follows (id, org_id, league_id, email, status) VALUES ('fol_1', 'shj', 'shj-youth', 'fan@example.com', 'pending');
      INSERT INTO organizations (id, name, language, registration_emails) VALUES ('riverside', 'Riverside FA', 'en', '["alex@example.com"]');
      INSERT INTO registrations (id, org_id, name, email) VALUES ('reg_1', 'riverside', 'Alex', 'player@example.com');
    `);
    const ids = store.transaction(() => [
      queueEmail(store, {
        to: 'fan@example.com',
        template: 'follow-confirm',
        tag: 'follow-confirm',
        data: { followId: 'fol_1', language: 'ar', organizationName: 'نادي الشارقة الرياضي', leagueName: 'دوري الناشئين' },
      }),
      queueEmail(store, {
        to: 'Alex Doe <alex@example.com>',
        template: 'registration-notice',
        tag: 'registration-notice',
        data: {
          language: 'en', organizationId: 'riverside', organizationName: 'Riverside FA', divisionName: 'U12', registrationId: 'reg_1',
          submittedAt: '2026-03-01T10:00:00.000Z', timeZone: 'UTC', playerName: 'Alex <Doe> & "Co"', playerNameAr: null,
          email: 'player@example.com', phone: null, dateOfBirth: null, guardianName: null, guardianPhone: null, hasNotes: false,
        },
      }),
    ]);

    await start(createFileTransport({ dir, now: () => clock })).drain();

    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(2); // no temp files left behind
    expect(files.sort()).toEqual(files);
    const [first, second] = files;
    expect(first).toMatch(new RegExp(`^\\d{8}T\\d{6}Z-${String(ids[0]).padStart(6, '0')}-follow-confirm\\.eml$`));
    expect(second).toMatch(new RegExp(`^\\d{8}T\\d{6}Z-${String(ids[1]).padStart(6, '0')}-registration-notice\\.eml$`));

    // Readable by their owner only: a notice carries a player's details (an operator's review found them 0644).
    for (const file of files) expect((fs.statSync(path.join(dir, file)).mode & 0o777).toString(8)).toBe('600');
    const a = await PostalMime.parse(fs.readFileSync(path.join(dir, first!)));
    expect(a.subject).toBe('تأكيد متابعة \u2068دوري الناشئين\u2069 (\u2068نادي الشارقة الرياضي\u2069)');
    // Sent for the organization: its name in the From, "via" MAIL_FROM's (two reviews: every email came from the service's name).
    expect(a.from).toEqual({ name: 'نادي الشارقة الرياضي عبر منافسات', address: 'no-reply@competitions.example' });
    expect(a.to).toEqual([{ name: '', address: 'fan@example.com' }]);
    const [ra0] = await rows();
    expect(a.messageId).toBe(`<${ra0!.message_key}@competitions.example>`);
    // The links were minted at send time: only their hashes are in the database.
    const confirm = new RegExp(`${BASE}/follow/confirm\\?token=([A-Za-z0-9_-]{43})`).exec(a.text!)!;
    const unsubscribe = new RegExp(`${BASE}/follow/unsubscribe\\?token=([A-Za-z0-9_-]{43})`).exec(a.text!)!;
    expect(a.headers.find((h) => h.key === 'list-unsubscribe')?.value).toBe(`<${unsubscribe[0]}>`);
    expect(a.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe('List-Unsubscribe=One-Click');
    expect(a.html).toContain('<html lang="ar" dir="rtl">');
    expect(a.html).toContain(`href="${confirm[0]}"`);
    const tokens = t.sqlite.prepare(`SELECT hash, purpose, subject_id FROM link_tokens ORDER BY purpose`).all();
    expect(tokens).toEqual([
      { hash: hashToken(confirm[1]!), purpose: 'follow-confirm', subject_id: 'fol_1' },
      { hash: hashToken(unsubscribe[1]!), purpose: 'follow-unsubscribe', subject_id: 'fol_1' },
    ]);
    expect(fs.readFileSync(t.file).includes(confirm[1]!)).toBe(false);

    const b = await PostalMime.parse(fs.readFileSync(path.join(dir, second!)));
    expect(b.to).toEqual([{ name: 'Alex Doe', address: 'alex@example.com' }]);
    // To the organization itself: from the service, as MAIL_FROM says.
    expect(b.from).toEqual({ name: 'منافسات', address: 'no-reply@competitions.example' });
    expect(b.text).toContain('Player: Alex <Doe> & "Co"');
    expect(b.html).toContain('Alex &lt;Doe&gt; &amp; &quot;Co&quot;');
    // The organization's reply to a registration notice reaches the person who registered, not no-reply@.
    expect(b.replyTo).toEqual([{ name: '', address: 'player@example.com' }]);
    expect(a.replyTo).toBeUndefined();
    // RFC 3834: sent by the service, so that automatic replies (out of office) are not sent back.
    for (const parsed of [a, b]) expect(parsed.headers.find((h) => h.key === 'auto-submitted')?.value).toBe('auto-generated');
    // Exchange's own switch for its automatic answers (out of office), which the notice's Reply-To would reach.
    for (const parsed of [a, b]) expect(parsed.headers.find((h) => h.key === 'x-auto-response-suppress')?.value).toBe('All');

    const [ra, rb] = await rows();
    expect(ra).toMatchObject({ status: 'sent', attempts: 1, provider_message_id: first, sent_at: clock.toISOString() });
    expect(rb).toMatchObject({ status: 'sent', attempts: 1, provider_message_id: second });
  });

  it("leaves a stranger's +tag out of the To: of an email nobody asked for, and keeps the address of one asked for", async () => {
    const dir = path.join(t.dir, 'mail');
    const receipt = { language: 'en', organizationName: 'Riverside FA', divisionName: null, registrationId: 'reg_1' } as const;
    const notice = {
      language: 'en', organizationId: 'riverside', organizationName: 'Riverside FA', divisionName: null, registrationId: 'reg_1',
      submittedAt: '2026-03-01T10:00:00.000Z', timeZone: 'UTC', playerName: 'Alex', playerNameAr: null,
      email: 'lina+call-5551234@gmail.com', phone: null, dateOfBirth: null, guardianName: null, guardianPhone: null, hasNotes: false,
    } as const;
    // The registration is kept, and the notice's address still the organization's, when they leave (src/mail/send-time.ts).
    t.sqlite.exec(`INSERT INTO organizations (id, name, language, registration_emails) VALUES ('riverside', 'Riverside FA', 'en', '["registrations+u12@gmail.com"]');
      INSERT INTO registrations (id, org_id, name, email) VALUES ('reg_1', 'riverside', 'Alex', 'lina+call-5551234@gmail.com')`);
    store.transaction(() => {
      // Anyone can type anyone's address into the form: the receipt goes to Lina, who did not ask for it.
      queueEmail(store, { to: 'lina+call-5551234@gmail.com', template: 'registration-receipt', tag: 'registration-receipt', data: receipt });
      queueEmail(store, { to: 'sam+club@example.org', template: 'registration-receipt', tag: 'registration-receipt', data: receipt });
      // The organization chose its own address, tag and all.
      queueEmail(store, { to: 'registrations+u12@gmail.com', template: 'registration-notice', tag: 'registration-notice', data: notice });
    });
    await start(createFileTransport({ dir, now: () => clock })).drain();
    const to = await Promise.all(
      fs.readdirSync(dir).sort().map(async (f) => (await PostalMime.parse(fs.readFileSync(path.join(dir, f)))).to?.[0]?.address),
    );
    // At a provider that delivers x+tag@ to x@ the tag goes; elsewhere a + may be part of the mailbox, and stays.
    expect(to).toEqual(['lina@gmail.com', 'sam+club@example.org', 'registrations+u12@gmail.com']);
    expect((await rows()).map((r) => [r.to_address, r.status])).toEqual([
      ['lina+call-5551234@gmail.com', 'sent'], ['sam+club@example.org', 'sent'], ['registrations+u12@gmail.com', 'sent'],
    ]);
  });

  it('wakes when a transaction that queued mail commits, and delivers it', async () => {
    const dir = path.join(t.dir, 'mail');
    const w = startMailWorker(store, createFileTransport({ dir }), { from: FROM, baseUrl: BASE, intervalMs: 60_000, log: () => {} });
    worker = w;
    store.on('email-queued', () => w.kick());
    await new Promise((r) => setTimeout(r, 50)); // the worker's first round (at start) is over: it now sleeps 60 s
    store.transaction(() => enqueueEmailSync(store, { ...simple(1), createdAt: new Date() }));
    const deadline = Date.now() + 2_000;
    while (!fs.existsSync(dir) || fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).length === 0) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 10));
    }
    await w.drain();
    expect(fs.readdirSync(dir)).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: 'sent' });
  });

  it('gives the first email of two new installations different Message-IDs (never outbox.1@… on every install)', async () => {
    const other = await migratedDb();
    try {
      const ids: string[] = [];
      for (const db of [t, other]) {
        const s = new SyncDb(db.sqlite);
        s.transaction(() => enqueueEmailSync(s, simple(1)));
        const dir = path.join(db.dir, 'mail');
        const w = startMailWorker(s, createFileTransport({ dir }), { from: FROM, baseUrl: BASE, intervalMs: 60_000, log: () => {} });
        await w.drain();
        await w.stop();
        const [file] = fs.readdirSync(dir);
        ids.push((await PostalMime.parse(fs.readFileSync(path.join(dir, file!)))).messageId!);
      }
      expect(ids[0]).toMatch(/^<[0-9a-f]{32}@competitions\.example>$/);
      expect(ids[1]).not.toBe(ids[0]);
    } finally {
      await other.close();
    }
  });

  it('keeps the message when the directory cannot be written, and delivers once it can', async () => {
    const blocker = path.join(t.dir, 'not-a-dir');
    fs.writeFileSync(blocker, 'a file where the mail directory should be');
    const w = start(createFileTransport({ dir: path.join(blocker, 'mail') }));
    enqueueEmail(simple(1));
    await w.drain();
    expect((await rows())[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await rows())[0]!.last_error).toMatch(/ENOTDIR|EEXIST/);
  });
});

/**
 * A drain that fails under the database leaves the one email claimed and untouched (never failed, nothing sent);
 * once `heal` has run and its claim's lease is over, the next drain sends it once.
 */
async function expectHeldThenSent(w: MailWorker, calls: MailMessage[], heal: () => void, o: { firstDrain?: 'rejects' } = {}): Promise<void> {
  if (o.firstDrain === 'rejects') await expect(w.drain()).rejects.toThrow(/SQLITE_FULL/);
  else await w.drain();
  expect(calls).toHaveLength(0);
  expect((await rows())[0]).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
  heal();
  advance(10 * 60_000); // past the claim's lease
  await w.drain();
  expect(calls).toHaveLength(1);
  expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 1 });
}

describe('mail worker committing through the group commit (as the server runs it)', () => {
  it('sends and records through shared commits: links minted, each message marked sent once', async () => {
    const commits = new GroupCommit(store);
    let works = 0;
    const dir = path.join(t.dir, 'mail');
    for (const n of [1, 2, 3]) enqueueEmail(simple(n));
    const w = start(createFileTransport({ dir, now: () => clock }), { commit: (work) => (works++, commits.run(work)) });
    await w.drain();
    expect(fs.readdirSync(dir)).toHaveLength(3);
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual([['sent', 1], ['sent', 1], ['sent', 1]]);
    // A claim with its messages' send-time compositions, then per message its outcome: all through the commit given.
    expect(works).toBeGreaterThanOrEqual(1 + 3);
  });

  // The server's path (a diff review found only the direct commit tested): the folder not writable is a failure of
  // every email with the file transport; the batch's rest is released through the shared commit, a kick while paused
  // starts nothing, stop() while paused returns, and a new worker (a restart) sends it all once the folder is there.
  it('pauses through the shared commit: the rest released, a kick starts nothing, and all goes once the folder is mended', async () => {
    const commits = new GroupCommit(store);
    const blocker = path.join(t.dir, 'not-a-dir');
    fs.writeFileSync(blocker, 'a file where the mail directory should be');
    for (const n of [1, 2, 3, 4, 5, 6]) enqueueEmail(simple(n));
    const w = start(createFileTransport({ dir: path.join(blocker, 'mail'), now: () => clock }), { commit: (work) => commits.run(work), concurrency: 1 });
    await w.drain();
    expect(logs.filter((l) => l.startsWith('mail: sending paused: file-ENOTDIR'))).toHaveLength(1);
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual([['pending', 1], ...Array.from({ length: 5 }, () => ['pending', 0])]);
    w.kick();
    await w.drain();
    expect((await rows()).reduce((n, r) => n + r.attempts, 0)).toBe(1);
    await w.stop();
    fs.rmSync(blocker);
    const again = start(createFileTransport({ dir: path.join(blocker, 'mail'), now: () => clock }), { commit: (work) => commits.run(work) });
    advance(5_000);
    await again.drain();
    expect((await rows()).map((r) => r.status)).toEqual(Array.from({ length: 6 }, () => 'sent'));
    expect(fs.readdirSync(path.join(blocker, 'mail'))).toHaveLength(6);
  });

  it('keeps sending while writes keep arriving: each shared commit carries the worker further, not one email per lane', async () => {
    // 32 clients, each sending its next write once its last has committed (wrk -c32 against the server), every
    // write queuing an email as a registration does. Every group commit is one event-loop turn, and the transport
    // answers a few turns after it is called, as any transport does (six file-system calls for the file transport, a
    // network reply for Postmark): the worker's progress is counted in the commits the writers see, not in time.
    const commits = new GroupCommit(store);
    const { transport, calls } = scripted(async (msg) => {
      for (let turn = 0; turn < 4; turn++) await new Promise((resolve) => setImmediate(resolve));
      return { messageId: `id-${msg.outboxId}` };
    });
    const w = start(transport, { commit: (work) => commits.run(work) });
    store.on('email-queued', () => w.kick());
    let queued = 0;
    // Due at the worker's clock however long the writes take (the rows' default is the wall clock's now).
    const client = async () => {
      for (let write = 0; write < 100; write++) await commits.run(() => enqueueEmail({ ...simple(++queued), createdAt: clock }));
    };
    await Promise.all(Array.from({ length: 32 }, client));
    const sentDuringLoad = (await rows()).filter((r) => r.status === 'sent').length;
    // About 100 commits. Two sends in flight, each email composed and recorded in commits of its own: 32 sent.
    // A batch claimed and composed in one commit, four of it in flight (the default; worker.ts says why not ten),
    // its outcomes sharing commits: 60 (ten in flight: 160, one: 19).
    expect(queued).toBe(3_200);
    expect(sentDuringLoad).toBeGreaterThanOrEqual(48);
    await w.drain();
    expect(calls).toHaveLength(3_200);
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('never takes a failed commit for a message that cannot be rendered: it stays pending and goes once commits work', async () => {
    const commits = new GroupCommit(store);
    let failing = true;
    const { transport, calls } = scripted(async () => ({ messageId: 'ok' }));
    enqueueEmail(simple(1));
    // The commit of the claim and its composition fails, as a full disk would make it fail: the round fails with it.
    const w = start(transport, {
      commit: (work) => {
        const result = commits.run(work);
        return failing ? result.then(() => Promise.reject(new Error('SQLITE_FULL: database or disk is full'))) : result;
      },
    });
    await expectHeldThenSent(w, calls, () => (failing = false), { firstDrain: 'rejects' });
  });
});

describe('mail worker when the database fails under it', () => {
  it('leaves an email whose links could not be minted pending, not failed, and sends it once the database works', async () => {
    t.sqlite.exec(`
      INSERT INTO organizations (id, name, language) VALUES ('shj', 'Sharjah', 'en');
      INSERT INTO follows (id, org_id, email, status) VALUES ('fol_1', 'shj', 'fan@example.com', 'pending');
    `);
    store.transaction(() =>
      queueEmail(store, { to: 'fan@example.com', template: 'follow-confirm', tag: 'follow-confirm', data: { followId: 'fol_1', language: 'en', organizationName: 'Sharjah', leagueName: null } }),
    );
    // The insert of its links fails as a full disk would make it fail: an error of SQLite, not of the row.
    t.sqlite.exec(`CREATE TEMP TRIGGER full_disk BEFORE INSERT ON link_tokens BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    const { transport, calls } = scripted(async () => ({ messageId: 'ok' }));
    const commits = new GroupCommit(store);
    const w = start(transport, { commit: (work) => commits.run(work) });
    await expectHeldThenSent(w, calls, () => t.sqlite.exec(`DROP TRIGGER full_disk`));
  });
});

// An on-call review's log, while a sqlite3 shell held the write lock: `mail worker: round failed: database is locked`,
// a line per round, naming neither the database nor what to do.
describe('mail worker while another process holds the write lock', () => {
  it('skips its rounds, says so once with the cause, and sends once the lock is released', async () => {
    setBusyTimeout(t.sqlite, SERVER_BUSY_TIMEOUT_MS); // the server's connection
    enqueueEmail(simple(1));
    const other = new Database(t.file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const { transport, calls } = scripted(async () => ({ messageId: 'ok' }));
      start(transport, { intervalMs: 20 });
      await new Promise((resolve) => setTimeout(resolve, 800)); // rounds every 20 ms, each one skipped
      expect(calls).toHaveLength(0);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(new RegExp(`^mail worker: rounds skipped until the database can be written: SQLITE_BUSY database is locked \\(DATABASE_PATH ${t.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: another process held it locked`));
      other.exec('ROLLBACK');
      await expect.poll(async () => (await rows())[0]?.status, { timeout: 5_000 }).toBe('sent');
      // A lock met again later is said again.
      other.exec('BEGIN IMMEDIATE');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(logs.filter((l) => l.startsWith('mail worker:'))).toHaveLength(2);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('mail worker retry rules', () => {
  it('retries a retryable failure with backoff and delivers when the transport recovers', async () => {
    let up = false;
    const { transport, calls } = scripted(async () => {
      if (!up) throw new MailDeliveryError('HTTP 503', { permanent: false, kind: 'http-503' });
      return { messageId: 'ok-1' };
    });
    const w = start(transport);
    enqueueEmail(simple(1));

    await w.drain();
    let [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 503' });
    // random() = 0.5 puts the first delay at 3/4 of 5 s.
    expect(row!.next_attempt_at).toBe(new Date(clock.getTime() + 3_750).toISOString());

    await w.drain(); // not due yet: nothing happens
    expect(calls).toHaveLength(1);

    advance(3_750);
    await w.drain();
    [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row!.next_attempt_at).toBe(new Date(clock.getTime() + 7_500).toISOString());

    up = true;
    advance(7_500);
    await w.drain();
    [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 3, provider_message_id: 'ok-1' });
    expect(calls).toHaveLength(3);
  });

  it('fails a permanent error at once and never retries it', async () => {
    const { transport, calls } = scripted(async () => {
      throw new MailDeliveryError('inactive recipient', { permanent: true, kind: 'inactive' });
    });
    const w = start(transport);
    enqueueEmail(simple(1));
    await w.drain();
    advance(24 * 3600_000);
    await w.drain();
    expect(calls).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: 'failed', attempts: 1, last_error: 'permanent: inactive recipient' });
  });

  it('gives up after maxAttempts', async () => {
    const { transport, calls } = scripted(async () => {
      throw new Error('socket hang up'); // not a MailDeliveryError: counts as retryable
    });
    const w = start(transport, { maxAttempts: 3 });
    enqueueEmail(simple(1));
    for (let i = 0; i < 5; i++) {
      await w.drain();
      advance(16 * 60_000);
    }
    expect(calls).toHaveLength(3);
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row!.last_error).toBe('gave up after 3 attempts: socket hang up');
  });

  it('does not let one failing message stop the others', async () => {
    const { transport, calls } = scripted(async (msg) => {
      if (msg.to === 'person2@example.org') throw new TypeError('boom');
      if (msg.to === 'person3@example.org') throw new MailDeliveryError('bad address', { permanent: true, kind: 'invalid' });
      return { messageId: `id-${msg.outboxId}` };
    });
    const w = start(transport, { batchSize: 2 });
    for (let n = 1; n <= 5; n++) enqueueEmail(simple(n));
    await w.drain();
    expect(calls).toHaveLength(5);
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'pending', 'failed', 'sent', 'sent']);
  });

  // An on-call review's bad token: 86 lines in 20 s for 20 follows, every email tried and refused.
  it('pauses sending after a failure of every email: one email at a time until one is taken, the others counting no attempt', async () => {
    let up = false;
    const { transport, calls } = scripted(async (msg) => {
      if (!up) throw new MailDeliveryError('HTTP 503', { permanent: false, kind: 'http-503', everyEmail: true });
      return { messageId: `id-${msg.outboxId}` };
    });
    const w = start(transport); // 4 sends at once
    for (let n = 1; n <= 10; n++) enqueueEmail(simple(n));
    await w.drain();
    // The four sends in flight together failed; the other six were given back, due when the pause is over.
    expect(calls).toHaveLength(4);
    const pausedUntil = new Date(clock.getTime() + 3_750).toISOString();
    expect((await rows()).map((r) => [r.attempts, r.next_attempt_at])).toEqual([
      ...Array.from({ length: 4 }, () => [1, pausedUntil]),
      ...Array.from({ length: 6 }, () => [0, pausedUntil]),
    ]);
    expect(logs.filter((l) => l.startsWith('mail: sending paused'))).toEqual([
      'mail: sending paused: http-503; one email is tried at a time, from 4 s on, then at longer intervals up to 60 s, until one is taken; the others wait, and none is given up meanwhile',
    ]);
    expect(logs.filter((l) => / attempt 1 failed, waits while sending is paused: http-503$/.test(l))).toHaveLength(4);

    await w.drain(); // paused: nothing is tried, nothing is read
    expect(calls).toHaveLength(4);
    advance(3_750);
    logs = [];
    await w.drain(); // one email, refused again: paused twice as long
    expect(calls).toHaveLength(5);
    expect(logs).toEqual([expect.stringMatching(/^mail #1 tag=test attempt 2 failed, waits while sending is paused: http-503$/)]);
    advance(3_750);
    await w.drain();
    expect(calls).toHaveLength(5);

    up = true;
    advance(3_750);
    await w.drain(); // one taken: the rest goes in the same drain
    expect(calls).toHaveLength(15);
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 3],
      ...Array.from({ length: 3 }, () => ['sent', 2]),
      ...Array.from({ length: 6 }, () => ['sent', 1]),
    ]);
    expect(logs.filter((l) => l.startsWith('mail: sending works again'))).toHaveLength(1);
    expect(w.sending()).toEqual({ failingSinceMs: null, setupRefused: false });
  });

  // A diff review: on the emails' curve the pause grew to 15 minutes (MAIL_RETRY_MAX_S, up to a day), and an email
  // queued once Postmark was back waited that long; and a long outage gave up emails that only waited their turn.
  it('tries an email at least once a minute however long the outage, and gives none up meanwhile', async () => {
    let up = false;
    const { transport, calls } = scripted(async (msg) => {
      if (!up) throw new MailDeliveryError('HTTP 503', { permanent: false, kind: 'http-503', everyEmail: true });
      return { messageId: `id-${msg.outboxId}` };
    });
    const w = start(transport, { maxAttempts: 3, concurrency: 1 });
    for (let n = 1; n <= 3; n++) enqueueEmail(simple(n));
    for (let minute = 0; minute < 60; minute++) {
      await w.drain();
      advance(60_000);
    }
    expect(calls.length).toBeGreaterThanOrEqual(60);
    expect((await rows()).map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    expect((await rows()).reduce((n, r) => n + r.attempts, 0)).toBe(calls.length);
    up = true;
    enqueueEmail(simple(4));
    await w.drain();
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it("does not pause for one email's own failure", async () => {
    const { transport, calls } = scripted(async (msg) => {
      if (msg.outboxId === 1) throw new MailDeliveryError('HTTP 503', { permanent: false, kind: 'http-503' });
      return { messageId: `id-${msg.outboxId}` };
    });
    const w = start(transport, { concurrency: 1 });
    for (let n = 1; n <= 3; n++) enqueueEmail(simple(n));
    await w.drain();
    expect(calls).toHaveLength(3);
    expect((await rows()).map((r) => r.status)).toEqual(['pending', 'sent', 'sent']);
    expect(logs.some((l) => l.startsWith('mail: sending paused'))).toBe(false);
  });

  it('never sends a message twice when rounds overlap', async () => {
    const { transport, calls } = scripted(async (msg) => {
      await new Promise((r) => setTimeout(r, 20));
      return { messageId: `id-${msg.outboxId}` };
    });
    const w = start(transport, { concurrency: 3, batchSize: 4 });
    for (let n = 1; n <= 10; n++) enqueueEmail(simple(n));
    w.kick();
    w.kick();
    await Promise.all([w.drain(), w.drain()]);
    w.kick();
    await w.drain();
    expect(calls.map((c) => c.outboxId).sort((a, b) => a - b)).toEqual((await rows()).map((r) => r.id));
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('holds nothing per kick while a round is in progress (a round under steady writes never ends)', async () => {
    let release!: () => void;
    const { transport, calls } = scripted((_msg, call) =>
      call === 1 ? new Promise((resolve) => (release = () => resolve({ messageId: 'held' }))) : Promise.resolve({ messageId: 'next' }),
    );
    const w = start(transport);
    enqueueEmail(simple(1));
    w.kick();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(1); // the round is waiting on its send
    // Every write's commit kicks the worker: count the promises those kicks create.
    let promises = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) }).enable();
    for (let i = 0; i < 1_000; i++) w.kick();
    hook.disable();
    // The kicks are not lost: the round makes one more pass and delivers what was queued meanwhile.
    enqueueEmail(simple(2));
    release();
    await w.drain();
    expect(promises).toBe(0);
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('stop() waits for the send in flight', async () => {
    let release!: () => void;
    const { transport } = scripted(() => new Promise((resolve) => (release = () => resolve({ messageId: 'late' }))));
    const w = start(transport);
    enqueueEmail(simple(1));
    w.kick();
    await new Promise((r) => setTimeout(r, 50));
    let stopped = false;
    const stopping = w.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await rows())[0]).toMatchObject({ status: 'sent', provider_message_id: 'late' });
  });

  // A review's SIGTERM met sends still starting seconds later; the exit cut one off between its delivery and its record,
  // and it went twice after the restart.
  it('stop() starts no new send: what its batch still holds stays pending, claimed, and goes after a restart', async () => {
    let release!: () => void;
    const { transport, calls } = scripted(() => new Promise((resolve) => (release = () => resolve({ messageId: `m${calls.length}` }))));
    const w = start(transport, { concurrency: 1, batchSize: 5 });
    for (let n = 1; n <= 5; n++) enqueueEmail(simple(n));
    w.kick();
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(1);
    const stopping = w.stop();
    release();
    await stopping;
    expect(calls).toHaveLength(1);
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'pending', 'pending', 'pending', 'pending']);
  });

  it('logs ids and tags, never addresses, their domains, bodies or tokens', async () => {
    const { transport } = scripted(async (msg) => {
      if (msg.outboxId % 2 === 0) throw new MailDeliveryError(`rejected ${msg.to} ${msg.text}`, { permanent: false, kind: 'http-500' });
      return { messageId: 'x' };
    });
    const w = start(transport);
    enqueueEmail(simple(1, 'follow-confirm'));
    enqueueEmail(simple(2, 'rsvp-invite'));
    await w.drain();
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatch(/^mail #\d+ tag=follow-confirm sent/);
    expect(logs[1]).toMatch(/^mail #\d+ tag=rsvp-invite attempt 1 failed, retry in \d+ s: http-500$/);
    for (const line of logs) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain('person');
      expect(line).not.toContain('example.org');
      expect(line).not.toContain('Body');
    }
  });

  it('refuses to start with an unusable From', () => {
    expect(() => start(scripted(async () => ({ messageId: 'x' })).transport, { from: 'not an address' })).toThrow();
  });
});

describe('backoffMs', () => {
  it('doubles from 5 s, caps at 15 min, with jitter in the upper half', () => {
    const exact = (n: number) => backoffMs(n, { random: () => 1 });
    expect([1, 2, 3, 4].map(exact)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(exact(9)).toBe(900_000);
    expect(exact(50)).toBe(900_000);
    expect(backoffMs(1, { random: () => 0 })).toBe(2_500);
    for (let i = 0; i < 100; i++) {
      const d = backoffMs(3);
      expect(d).toBeGreaterThanOrEqual(10_000);
      expect(d).toBeLessThanOrEqual(20_000);
    }
  });

  it('keeps the default 100 attempts to about a day', () => {
    let total = 0;
    for (let n = 1; n < 100; n++) total += backoffMs(n, { random: () => 1 });
    expect(total / 3600_000).toBeGreaterThan(20);
    expect(total / 3600_000).toBeLessThan(26);
  });
});
