// Invitations Postmark refused for good (422, ErrorCode 406 inactive recipient, 300 invalid address). The mail review
// found them shown as invited, not answered, everywhere: `npm run rsvp` gave an empty state, and `npm run invite`
// again counted them "already invited" and never named them. The real commands on a real SQLite database, the real
// postmark client through the mail worker against a fake Postmark API.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { SyncDb } from '../src/db/sync.js';
import { createPostmarkTransport } from '../src/mail/transports/postmark.js';
import { startMailWorker } from '../src/mail/worker.js';
import { rsvpSummary } from '../src/rsvp/service.js';
import { tempDir } from './support/db.js';
import { FAKE_POSTMARK_TOKEN, FakePostmark } from './support/fake-postmark.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href;
let dir: string;
let env: Record<string, string>;
let fake: FakePostmark;
let apiHost: string;
beforeEach(async () => {
  dir = tempDir('competitions-rsvp-undeliverable-');
  env = { DATABASE_PATH: path.join(dir, 'app.db'), ENV_FILE: 'none' };
  fake = new FakePostmark();
  apiHost = await fake.listen();
});
afterEach(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const baseEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_PATH|ARTIFACTS_DIR|MAIL_DIR|PUBLIC_BASE_URL|PORT|ENV_FILE|INIT_CWD)$/.test(k)));

function command(script: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', TSX, path.join(ROOT, 'scripts', script), ...args], {
    cwd: dir, env: { ...baseEnv(), ...env }, encoding: 'utf8', timeout: 25_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** The small fixture, rs-m3 ahead: Sam (Lions) and three of United, one without an address. */
function importFixture(change: (org: any) => void = () => {}) {
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), 'utf8'));
  const org = fixture.organizations[0];
  org.timezone = 'Asia/Amman';
  org.teams[2].members = [
    { id: 'rs-united-1', name: 'Ben Cole', email: 'ben@example.org' },
    { id: 'rs-united-2', name: 'Adam West' },
    { id: 'rs-united-3', name: 'Cara Diaz', email: 'cara@example.org' },
  ];
  org.leagues[0].events[0].matches[2].kickoff = '2099-01-01T10:00:00Z';
  change(org);
  const file = path.join(dir, 'import.json');
  fs.writeFileSync(file, JSON.stringify(fixture));
  command('import.ts', [file]);
}

/** The mail worker drains the outbox through the real postmark client. */
async function sendMail(): Promise<string[]> {
  const db = await openDatabase(env.DATABASE_PATH!);
  const logs: string[] = [];
  try {
    const worker = startMailWorker(new SyncDb(db.sqlite), createPostmarkTransport({ serverToken: FAKE_POSTMARK_TOKEN, apiHost, timeoutMs: 2_000 }), {
      from: 'C <no-reply@c.example>', baseUrl: 'https://c.example', intervalMs: 60_000, log: (line) => logs.push(line),
    });
    await worker.drain();
    await worker.stop();
  } finally {
    await db.close();
  }
  return logs;
}

const HEADER = 'team_id,team_name,member_id,member_name,email,answer,answered_at,state';

it('rsvp says undeliverable and invite names them, for the addresses Postmark refused; the public summary is unchanged', async () => {
  importFixture();
  command('invite.ts', ['--match', 'rs-m3']);
  fake.inactive.add('ben@example.org');
  fake.invalid.add('cara@example.org');
  const logs = await sendMail();
  expect(logs.filter((l) => l.includes('failed permanently'))).toHaveLength(2);

  expect(command('rsvp.ts', ['--match', 'rs-m3'])).toBe(
    `\ufeff${HEADER}\r\n` +
      'rs-united,Mill Lane United,rs-united-1,Ben Cole,ben@example.org,,,undeliverable\r\n' +
      'rs-united,Mill Lane United,rs-united-3,Cara Diaz,cara@example.org,,,undeliverable\r\n' +
      'rs-lions,Riverside Lions,rs-lions-1,Sam Carter,sam.carter@example.org,,,\r\n',
  );
  expect(command('invite.ts', ['--match', 'rs-m3']).trim().split('\n')).toEqual([
    'match rs-m3: 0 invited (emails queued), 1 already invited, 1 without an email address, 2 whose address Postmark refuses',
    'could not be reached (phone them, or add or correct their address in the import file and invite again):',
    '  Mill Lane United: Adam West (rs-united-2): no email address',
    '  Mill Lane United: Ben Cole (rs-united-1): Postmark refused their address (inactive or invalid there): the invitation did not reach them',
    '  Mill Lane United: Cara Diaz (rs-united-3): Postmark refused their address (inactive or invalid there): the invitation did not reach them',
  ]);

  // Kept as specified: the public summary counts every invitation not answered as pending.
  const db = await openDatabase(env.DATABASE_PATH!);
  try {
    expect(rsvpSummary(new SyncDb(db.sqlite), 'rs-m3').summary.summary).toEqual({ yes: 0, no: 0, maybe: 0, pending: 3 });
  } finally {
    await db.close();
  }

  // Ben's address corrected in the import: the next invite invites him afresh there, and the new invitation stands.
  importFixture((org) => { org.teams[2].members[0].email = 'ben.cole@example.org'; });
  expect(command('invite.ts', ['--match', 'rs-m3']).split('\n')[0]).toBe(
    'match rs-m3: 1 invited (emails queued), 1 already invited, 1 without an email address, 1 whose address Postmark refuses',
  );
  await sendMail();
  expect(command('rsvp.ts', ['--match', 'rs-m3']).split('\r\n').slice(1, 3)).toEqual([
    'rs-united,Mill Lane United,rs-united-1,Ben Cole,ben.cole@example.org,,,',
    'rs-united,Mill Lane United,rs-united-3,Cara Diaz,cara@example.org,,,undeliverable',
  ]);
});
