// `npm run person`, through the real command on a real SQLite database with the real migrations: a data protection
// review found that an operator could answer neither "what do you hold about me" nor "erase this person" (a parent,
// for their child) without writing SQL. Lina Haddad follows the organization under a +tag, registered her son with
// her address typed another way, and is a member of a team invited to a match; Ben Cole, beside her, must keep
// everything. The emails are sent by the real mail worker with the file transport, and read back by another parser.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { followRequestSchema } from '../src/follows/schema.js';
import { requestFollow } from '../src/follows/service.js';
import { createFileTransport } from '../src/mail/transports/file.js';
import { startMailWorker } from '../src/mail/worker.js';
import { registrationRequestSchema } from '../src/registrations/schema.js';
import { submitRegistration } from '../src/registrations/service.js';
import { inviteMatch } from '../src/rsvp/service.js';
import { tempDir } from './support/db.js';
import { readEmails } from './support/mail.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href;
let dir: string;
let mailDir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir('competitions-person-command-');
  mailDir = path.join(dir, 'mail');
  env = { DATABASE_PATH: path.join(dir, 'app.db'), ENV_FILE: 'none', MAIL_TRANSPORT: 'file', MAIL_DIR: mailDir };
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const baseEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_PATH|ARTIFACTS_DIR|MAIL_DIR|MAIL_TRANSPORT|PUBLIC_BASE_URL|PORT|ENV_FILE|INIT_CWD)$/.test(k)));

function command(script: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', TSX, path.join(ROOT, 'scripts', script), ...args], {
    cwd: dir, env: { ...baseEnv(), ...env }, encoding: 'utf8', timeout: 25_000,
  });
}

const person = (...args: string[]) => command('person.ts', args);

/** The small fixture with a registration address, rs-m3 ahead, Lina in the Lions and Ben in United. */
function importFixture(change: (org: any) => void = () => {}) {
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), 'utf8'));
  const org = fixture.organizations[0];
  org.registration_emails = ['registrar@example.org'];
  org.teams[0].members = [{ id: 'rs-lions-1', name: 'Lina Haddad', email: 'Lina.Haddad@gmail.com' }];
  org.teams[2].members = [{ id: 'rs-united-1', name: 'Ben Cole', email: 'ben@example.org' }];
  org.leagues[0].events[0].matches[2].kickoff = '2099-01-01T10:00:00Z';
  change(org);
  const file = path.join(dir, 'import.json');
  fs.writeFileSync(file, JSON.stringify(fixture));
  const r = command('import.ts', [file]);
  expect(r.status, r.stderr).toBe(0);
  return r;
}

async function sendQueued(): Promise<void> {
  const database = await openDatabase(env.DATABASE_PATH!);
  const worker = startMailWorker(database.store, createFileTransport({ dir: mailDir }), {
    from: 'Competitions <no-reply@competitions.example>', baseUrl: 'https://competitions.example', intervalMs: 60_000, log: () => {},
  });
  try {
    await worker.drain();
  } finally {
    await worker.stop();
    await database.close();
  }
}

/**
 * Lina's follow (a +tag), her son's registration (her address in capitals, a retry key), both members invited; every
 * email sent; then a follow of a league each, their confirmations still queued.
 */
async function lina(): Promise<void> {
  importFixture();
  const database = await openDatabase(env.DATABASE_PATH!);
  const { store } = database;
  const now = new Date();
  try {
    const follow = (input: object) => requestFollow(store, followRequestSchema.parse(input), { now, emailsPerDay: 0 });
    follow({ org_id: 'riverside', email: 'lina.haddad+club@gmail.com', language: 'ar' });
    follow({ org_id: 'riverside', email: 'ben@example.org' });
    const registration = registrationRequestSchema.parse({
      org_id: 'riverside', division_id: 'rs-senior', name: 'Omar Haddad', email: 'LinaHaddad@Gmail.com', date_of_birth: '2012-05-04',
      guardian_name: 'Lina Haddad', guardian_phone: '+962 79 555 0101',
    });
    submitRegistration(store, registration, { idempotencyKey: 'retry-1', client: '203.0.113.5', now, receiptsPerDay: 0, noticesPerDay: 0 });
    inviteMatch(store, 'rs-m3', now);
  } finally {
    await database.close();
  }
  await sendQueued();
  const again = await openDatabase(env.DATABASE_PATH!);
  try {
    for (const email of ['LINA.HADDAD@gmail.com', 'ben@example.org']) {
      requestFollow(again.store, followRequestSchema.parse({ org_id: 'riverside', league_id: 'rs-sunday', email }), { now, emailsPerDay: 0 });
    }
  } finally {
    await again.close();
  }
}

/** What the database holds, read with a connection of the test's own. */
async function rows<T>(query: string, ...params: unknown[]): Promise<T[]> {
  const database = await openDatabase(env.DATABASE_PATH!, { migrate: false });
  try {
    return database.sqlite.prepare(query).all(...params) as T[];
  } finally {
    await database.close();
  }
}

const isLina = (address: string) => /^lina\.?haddad(\+club)?@gmail\.com$/i.test(address);

describe('npm run person', () => {
  it('lists what is held about every spelling of the mailbox, naming the spellings, and changes nothing', async () => {
    await lina();
    // The follow's confirmation, the receipt, the invitation; and the organization's notice of her son's registration
    // (its Reply-To hers), which names the child: the diff review's erasure left it in MAIL_DIR.
    const hers = (await readEmails(mailDir)).filter((e) => isLina(e.to) || e.file.endsWith('-registration-notice.eml')).map((e) => e.file).sort();
    expect(hers.length).toBe(4);
    const before = await rows(`SELECT (SELECT count(*) FROM follows) AS f, (SELECT count(*) FROM email_outbox) AS e, (SELECT count(*) FROM link_tokens) AS l`);

    const r = person('--email', 'Lina.Haddad+whatever@Gmail.com');
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out.split('\n')[0]).toBe(
      'held about Lina.Haddad+whatever@Gmail.com (the mailbox linahaddad@gmail.com; spellings found: lina.haddad+club@gmail.com, ' +
        'lina.haddad@gmail.com, linahaddad@gmail.com):',
    );
    // Her first follow asked for its emails in Arabic: what is held of her includes it.
    expect(out).toMatch(/follows \(2\):\n {2}Riverside Sunday League \(riverside\): pending; asked [^\n]*; emails in Arabic\n/);
    expect(out).toMatch(/\n {2}Riverside Sunday League \(riverside\), league .* \(rs-sunday\): pending; asked /);
    expect(out).toMatch(/registrations where it is the contact address [^\n]*\(1\):\n {2}reg_[\w-]+: Riverside Sunday League \(riverside\), division Senior \(rs-senior\), created 20/);
    expect(out).toContain('RSVP invitations (1):\n  match rs-m3, team Riverside Lions (rs-lions), member Lina Haddad (rs-lions-1): not answered');
    expect(out).toContain('team members with this address (their organization\'s import file) (1):\n  Lina Haddad (rs-lions-1), team Riverside Lions (rs-lions), organization riverside');
    expect(out).toContain('organizations sending their registration notices to it (their import file\'s registration_emails): none');
    expect(out).toMatch(/outbox emails to it \(never their content\) \(4\):\n(.*follow-confirm: sent.*\n)(.*registration-receipt: sent.*\n)(.*rsvp-invite: sent.*\n)(.*follow-confirm: pending.*\n)/);
    expect(out).toMatch(/outbox emails to others about it \(1\):\n {2}#\d+ registration-notice, about registration reg_[\w-]+: sent; queued /);
    expect(out).toContain(`.eml files under MAIL_DIR to it or about it (4):\n${hers.map((f) => `  ${f}`).join('\n')}\n`);
    // The text names registrations only, and never an email's content or anyone else.
    for (const word of ['Omar', '555 0101', 'ben@', 'registrar@', 'token=']) expect(out).not.toContain(word);

    const json = person('--email', 'linahaddad@gmail.com', '--format', 'json');
    expect(json.status, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.registrations[0].fields).toEqual({
      name: 'Omar Haddad', name_ar: null, email: 'linahaddad@gmail.com', phone: null, date_of_birth: '2012-05-04',
      guardian_name: 'Lina Haddad', guardian_phone: '+962 79 555 0101', notes: null,
    });
    expect(doc.eml_files).toEqual(hers);
    expect(doc.invitations).toEqual([expect.objectContaining({ match_id: 'rs-m3', team_id: 'rs-lions', answer: null })]);
    expect(JSON.stringify(doc)).not.toMatch(/data_json|text_body|token/);
    expect(await rows(`SELECT (SELECT count(*) FROM follows) AS f, (SELECT count(*) FROM email_outbox) AS e, (SELECT count(*) FROM link_tokens) AS l`)).toEqual(before);
  });

  it('erases it in one go: nothing queued is sent after, Ben keeps everything, and the next import still works', async () => {
    await lina();
    const [reg] = await rows<{ id: string }>(`SELECT id FROM registrations WHERE email = 'linahaddad@gmail.com'`);
    const herIds = await rows<{ id: string }>(
      `SELECT id FROM follows WHERE email LIKE 'lina%' UNION SELECT i.id FROM rsvp_invitations i WHERE i.member_id = 'rs-lions-1'`,
    );
    const herLinks = () => rows(`SELECT hash FROM link_tokens WHERE subject_id IN (${herIds.map(() => '?').join(',')})`, ...herIds.map((r) => r.id));
    expect((await herLinks()).length).toBeGreaterThan(0);
    expect(await rows(`SELECT key FROM idempotency_keys WHERE json_extract(response_body, '$.id') = ?`, reg!.id)).toEqual([{ key: 'retry-1' }]);
    const bensBefore = await rows(`SELECT 'f' || count(*) AS n FROM follows WHERE email = 'ben@example.org' UNION ALL SELECT 'i' || count(*) FROM rsvp_invitations WHERE member_id = 'rs-united-1'`);
    const hersSent = (await readEmails(mailDir)).filter((e) => isLina(e.to) || e.file.endsWith('-registration-notice.eml')).map((e) => e.file).sort();

    const r = person('--email', 'lina.haddad+club@gmail.com', '--erase');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n').slice(1)).toEqual([
      '  2 follows',
      `  1 registration (${reg!.id}), and 1 stored answer to their submit`,
      '  1 RSVP invitation (match rs-m3)',
      expect.stringMatching(/^ {2}\d+ links of those \(their hashes\)$/),
      '  5 outbox emails (1 still queued: never sent)',
      `  4 .eml files under MAIL_DIR: ${hersSent.join(', ')}`,
      '  the address of member Lina Haddad (rs-lions-1) of team rs-lions cleared: organization riverside must also remove it from its import file, else its next import brings it back',
      '',
    ]);

    expect(await rows(`SELECT id FROM follows WHERE email NOT LIKE 'ben%'`)).toEqual([]);
    expect(await rows(`SELECT id FROM registrations`)).toEqual([]);
    expect(await rows(`SELECT id FROM rsvp_invitations WHERE member_id = 'rs-lions-1'`)).toEqual([]);
    expect(await herLinks()).toEqual([]);
    expect(await rows(`SELECT key FROM idempotency_keys`)).toEqual([]);
    // Every email to her, in any status, and the organization's notice of her son's registration.
    expect((await rows<{ to_address: string }>(`SELECT to_address FROM email_outbox`)).filter((e) => isLina(e.to_address))).toEqual([]);
    expect(await rows(`SELECT id FROM email_outbox WHERE json_extract(data_json, '$.registrationId') IS NOT NULL`)).toEqual([]);
    expect(await rows(`SELECT id, name, email FROM team_members WHERE id = 'rs-lions-1'`)).toEqual([{ id: 'rs-lions-1', name: 'Lina Haddad', email: null }]);
    expect((await readEmails(mailDir)).filter((e) => isLina(e.to) || e.file.endsWith('-registration-notice.eml'))).toEqual([]);
    // Ben: his follow, his invitation, his emails; his league's confirmation still queued.
    expect(await rows(`SELECT 'f' || count(*) AS n FROM follows WHERE email = 'ben@example.org' UNION ALL SELECT 'i' || count(*) FROM rsvp_invitations WHERE member_id = 'rs-united-1'`)).toEqual(bensBefore);
    expect(await rows(`SELECT to_address FROM email_outbox WHERE status = 'pending'`)).toEqual([{ to_address: 'ben@example.org' }]);

    // The mail worker's next round sends Ben's confirmation, and nothing to her.
    await sendQueued();
    const after = await readEmails(mailDir);
    expect(after.filter((e) => isLina(e.to))).toEqual([]);
    expect(after.filter((e) => e.to === 'ben@example.org').length).toBeGreaterThan(1);

    // Nothing is held now; the next import of the same file works, and brings her member's address back (as the
    // erasure said); the file without it leaves nothing.
    expect(person('--email', 'linahaddad@gmail.com').stdout).toMatch(/^nothing is held about linahaddad@gmail\.com/);
    importFixture();
    expect(person('--email', 'linahaddad@gmail.com').stdout).toContain('team members with this address (their organization\'s import file) (1):');
    importFixture((org) => { delete org.teams[0].members[0].email; });
    const none = person('--email', 'linahaddad@gmail.com');
    expect([none.status, none.stdout]).toEqual([
      0,
      'nothing is held about linahaddad@gmail.com (the mailbox linahaddad@gmail.com): no follow, registration, RSVP invitation, team member, ' +
        "organization's registration address, outbox email or .eml file\n",
    ]);
  });

  it('an organization\'s registration address: removed, and the organization told to remove it from its import file', async () => {
    importFixture();
    const r = person('--email', 'Registrar+x@Example.org', '--erase');
    // example.org is not known to deliver a +tag to the same mailbox: another address, nothing held.
    expect(r.stdout).toMatch(/^nothing is held about Registrar\+x@Example\.org/);
    const erased = person('--email', 'Registrar@Example.org', '--erase', '--format', 'json');
    expect(erased.status, erased.stderr).toBe(0);
    const doc = JSON.parse(erased.stdout);
    expect([doc.registration_addresses, doc.erased.registration_addresses_removed]).toEqual([
      [{ org_id: 'riverside', org_name: 'Riverside Sunday League', address: 'registrar@example.org' }], 1,
    ]);
    expect(await rows(`SELECT registration_emails FROM organizations`)).toEqual([{ registration_emails: '[]' }]);
  });

  it('an unknown address: nothing held, nothing erased, exit 0', () => {
    importFixture();
    const listed = person('--email', 'nobody@example.org');
    expect([listed.status, listed.stdout, listed.stderr]).toEqual([
      0,
      'nothing is held about nobody@example.org (the mailbox nobody@example.org): no follow, registration, RSVP invitation, team member, ' +
        "organization's registration address, outbox email or .eml file\n",
      '',
    ]);
    const erased = person('--email', 'nobody@example.org', '--erase');
    expect([erased.status, erased.stdout]).toEqual([0, 'nothing is held about nobody@example.org (the mailbox nobody@example.org): nothing erased\n']);
  });

  it.each([
    [[], 'usage: npm run person -- --email ADDRESS [--erase] [--format text|json]'],
    [['--email', 'nobody'], '--email must be an address (name@domain)'],
    [['--email', 'a@b.example', '--format', 'csv'], '--format must be text or json'],
    [['--email', 'a@b.example', '--dry-run'], "Unknown option '--dry-run'"],
    [['--email', 'a@b.example', '--email', 'c@d.example'], '--email is given twice: give it once'],
  ])('refuses %j in one line with the usage', (args, first) => {
    importFixture();
    const r = person(...args);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')[0]).toBe(first);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('usage: npm run person -- --email ADDRESS [--erase] [--format text|json]');
  });
});
