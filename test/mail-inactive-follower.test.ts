// A follower whose address Postmark refuses for good (422, ErrorCode 406: bounced, complained, or unsubscribed
// through Postmark's own link): the follow ends with the failed digest. A follower's review found every digest to such
// an address failing, for good, and the follow never ending. Real SQLite with the real migrations and import, the
// updates job, the real postmark client through the mail worker, against a fake Postmark API.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SyncDb } from '../src/db/sync.js';
import { requestFollow } from '../src/follows/service.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { createPostmarkTransport } from '../src/mail/transports/postmark.js';
import { startMailWorker } from '../src/mail/worker.js';
import { runUpdates } from '../src/updates/run.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { tempDir } from './support/db.js';
import { FAKE_POSTMARK_TOKEN, FakePostmark } from './support/fake-postmark.js';

let dir: string;
let db: Database;
let fake: FakePostmark;
beforeEach(async () => {
  dir = tempDir('mail-inactive-');
  db = await openDatabase(path.join(dir, 'app.db'));
  fake = new FakePostmark();
});
afterEach(async () => {
  await fake.close();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The small fixture, its league's third match with the result given (or none). */
const load = (score?: { home: number; away: number }) => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  const m3 = f.organizations[0].leagues[0].events[0].matches[2];
  Object.assign(m3, { kickoff: '2026-11-01T10:00:00Z' }, score ? { status: 'completed', score } : {});
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
};

// And one Postmark finds invalid (ErrorCode 300): the mail review found its follow kept, every digest failing for good.
it.each([
  ['as to an inactive recipient', 'inactive', 406],
  ['as an invalid address', 'invalid', 300],
] as const)("a digest Postmark refuses %s ends its follow, naming no address in the log", async (_, refusal, code) => {
  const store = new SyncDb(db.sqlite);
  // An hour ago: every row the updates job queues is due at the worker's wall clock.
  const now = new Date(Date.now() - 3600_000);
  load();
  const updates = (at: Date) => runUpdates(db, { now: at, digestHour: 18, alertDelayMs: 0, forceDigests: true, publicBaseUrl: 'https://c.example' });
  await updates(now); // the baseline
  for (const email of ['gone@fans.example', 'here@fans.example']) requestFollow(store, { org_id: 'riverside', email }, { now, emailsPerDay: 3 });
  db.sqlite.prepare(`UPDATE follows SET status = 'active', confirmed_at = ?`).run(now.toISOString());
  db.sqlite.prepare(`UPDATE email_outbox SET status = 'sent'`).run(); // the confirmations, long since
  load({ home: 2, away: 1 });
  expect(await updates(new Date(now.getTime() + 1000))).toMatchObject({ emails: 2 });

  const apiHost = await fake.listen();
  fake[refusal].add('gone@fans.example');
  const logs: string[] = [];
  const worker = startMailWorker(store, createPostmarkTransport({ serverToken: FAKE_POSTMARK_TOKEN, apiHost, timeoutMs: 2_000 }), {
    from: 'C <no-reply@c.example>', baseUrl: 'https://c.example', intervalMs: 60_000, log: (line) => logs.push(line),
  });
  await worker.drain();
  await worker.stop();
  expect(db.sqlite.prepare(`SELECT to_address, status FROM email_outbox WHERE tag = 'follow-digest' ORDER BY to_address`).all()).toEqual([
    { to_address: 'gone@fans.example', status: 'failed' }, { to_address: 'here@fans.example', status: 'sent' },
  ]);
  expect(db.sqlite.prepare(`SELECT email, status, unsubscribed_at IS NOT NULL AS ended FROM follows ORDER BY email`).all()).toEqual([
    { email: 'gone@fans.example', status: 'unsubscribed', ended: 1 }, { email: 'here@fans.example', status: 'active', ended: 0 },
  ]);
  expect(logs.join('\n')).toContain(`failed permanently (attempt 1): postmark-http-422-code-${code}; its follow ended: the address no longer takes mail`);
  expect(logs.join('\n')).not.toContain('@fans.example');
});
