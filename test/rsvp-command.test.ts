// The organizer's side of RSVP, through the real commands on a real SQLite database. An RSVP review found that the
// organizer who ran `npm run invite` could never learn who was coming (the public summary counts both teams together,
// and nothing named anyone), nor whom invite had skipped for having no address (it printed their count). `npm run
// rsvp` lists each invitation and its answer; invite names the members it could not invite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tempDir } from './support/db.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href;
let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir('competitions-rsvp-command-');
  env = { DATABASE_PATH: path.join(dir, 'app.db'), ENV_FILE: 'none' };
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const baseEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_PATH|ARTIFACTS_DIR|MAIL_DIR|PUBLIC_BASE_URL|PORT|ENV_FILE|INIT_CWD)$/.test(k)));

function command(script: string, args: string[]) {
  return spawnSync(process.execPath, ['--import', TSX, path.join(ROOT, 'scripts', script), ...args], {
    cwd: dir, env: { ...baseEnv(), ...env }, encoding: 'utf8', timeout: 25_000,
  });
}

/** As the organizer types it, from `cwd`: npm runs the script in the project folder and says where it was typed in INIT_CWD. */
function npm(cwd: string, args: string[]) {
  return spawnSync('npm', ['--prefix', ROOT, 'run', '--silent', ...args], { cwd, env: { ...baseEnv(), ...env }, encoding: 'utf8', timeout: 60_000 });
}

/** The small fixture in Amman's zone, rs-m3 ahead, each team with a member who has no address. */
function importFixture(change: (org: any) => void = () => {}) {
  const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), 'utf8'));
  const org = fixture.organizations[0];
  org.timezone = 'Asia/Amman';
  org.teams[0].members.push({ id: 'rs-lions-2', name: 'Zed Young' });
  org.teams[2].members = [{ id: 'rs-united-1', name: 'Ben Cole', email: 'ben@example.org' }, { id: 'rs-united-2', name: 'Adam West' }];
  org.leagues[0].events[0].matches[2].kickoff = '2099-01-01T10:00:00Z';
  change(org);
  const file = path.join(dir, 'import.json');
  fs.writeFileSync(file, JSON.stringify(fixture));
  const r = command('import.ts', [file]);
  expect(r.status, r.stderr).toBe(0);
}

it('invite names the members it skipped for having no address, by team then name', () => {
  importFixture();
  const r = command('invite.ts', ['--match', 'rs-m3']);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n')).toEqual([
    'match rs-m3: 2 invited (emails queued), 0 already invited, 2 without an email address',
    'could not be reached (phone them, or add or correct their address in the import file and invite again):',
    '  Mill Lane United: Adam West (rs-united-2): no email address',
    '  Riverside Lions: Zed Young (rs-lions-2): no email address',
  ]);
});

it('rsvp lists each invitation, its answer in the organization\'s time, and where it stands; never a token', () => {
  importFixture();
  expect(command('invite.ts', ['--match', 'rs-m3']).status).toBe(0);
  const db = new Database(env.DATABASE_PATH!);
  try {
    db.prepare(`UPDATE rsvp_invitations SET response = 'yes', responded_at = '2026-11-26T22:30:00.015Z' WHERE member_id = 'rs-united-1'`).run();
    // Sam's address corrected since: the invitation waits for the next `npm run invite` to move it.
    importFixture((org) => { org.teams[0].members[0].email = 'sam.carter@example.net'; });
    const csv = command('rsvp.ts', ['--match', 'rs-m3']);
    expect(csv.status, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(
      '\ufeffteam_id,team_name,member_id,member_name,email,answer,answered_at,state\r\n' +
        'rs-united,Mill Lane United,rs-united-1,Ben Cole,ben@example.org,yes,2026-11-27T01:30:00+03:00,\r\n' +
        'rs-lions,Riverside Lions,rs-lions-1,Sam Carter,sam.carter@example.org,,,address_changed\r\n',
    );
    const json = command('rsvp.ts', ['--match', 'rs-m3', '--format', 'json']);
    expect(json.status, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      match: 'rs-m3',
      invitations: [
        { team_id: 'rs-united', team_name: 'Mill Lane United', member_id: 'rs-united-1', member_name: 'Ben Cole', email: 'ben@example.org', answer: 'yes', answered_at: '2026-11-27T01:30:00+03:00', state: null },
        { team_id: 'rs-lions', team_name: 'Riverside Lions', member_id: 'rs-lions-1', member_name: 'Sam Carter', email: 'sam.carter@example.org', answer: null, answered_at: null, state: 'address_changed' },
      ],
    });
    // The rows are all there is (compared whole above): no token (the links' are minted as each email leaves, kept
    // only hashed), not even the invitation's id, which the link tokens name.
    for (const { id } of db.prepare(`SELECT id FROM rsvp_invitations`).all() as Array<{ id: string }>) expect(csv.stdout + json.stdout).not.toContain(id);
  } finally {
    db.close();
  }
});

it('rsvp --output, typed in a folder through npm: that folder\'s file, whole, readable by its owner only', () => {
  importFixture();
  expect(command('invite.ts', ['--match', 'rs-m3']).status).toBe(0);
  const folder = path.join(dir, 'organizer');
  fs.mkdirSync(folder);
  const run = npm(folder, ['rsvp', '--', '--match', 'rs-m3', '--output', 'rs-m3.csv']);
  expect(run.status, run.stderr).toBe(0);
  const file = path.join(folder, 'rs-m3.csv');
  expect(run.stdout).toBe(`2 invitations of match rs-m3 written to ${file}\n`);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(file, 'utf8').split('\r\n').slice(0, 2)).toEqual([
    '\ufeffteam_id,team_name,member_id,member_name,email,answer,answered_at,state',
    'rs-united,Mill Lane United,rs-united-1,Ben Cole,ben@example.org,,,',
  ]);
  const missing = npm(folder, ['rsvp', '--', '--match', 'rs-m3', '--output', 'no/such/x.csv']);
  expect(missing.status).toBe(1);
  expect(missing.stderr.trim()).toBe(`--output ${path.join(folder, 'no/such/x.csv')}: ENOENT: nothing written`);
});

it('rsvp reads a private competition\'s match (the operator runs it) and refuses an unknown one in one line', () => {
  importFixture();
  const cup = command('rsvp.ts', ['--match', 'rs-c1']);
  expect(cup.status, cup.stderr).toBe(0);
  expect(cup.stdout).toBe('\ufeffteam_id,team_name,member_id,member_name,email,answer,answered_at,state\r\n');
  const unknown = command('rsvp.ts', ['--match', 'rs-m9']);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr.trim()).toBe('no match has the id "rs-m9"');
  expect(unknown.stdout).toBe('');
});

it.each([
  [['--match', 'rs-m3', '--dry-run'], "Unknown option '--dry-run'"],
  [['--match', 'rs-m3', '--match', 'rs-m1'], '--match is given twice: give it once'],
  [['--match', 'rs-m3', '--format', 'xlsx'], '--format must be csv or json'],
  [['--match', 'rs-m3', '--output', ' '], '--output needs a file name'],
  [[], 'usage: npm run rsvp -- --match MATCH_ID [--format csv|json] [--output FILE]'],
])('rsvp refuses %j with its usage, before it opens the database', (args, first) => {
  const r = command('rsvp.ts', args);
  expect(r.status).toBe(1);
  const lines = r.stderr.trim().split('\n');
  expect(lines[0]).toContain(first);
  expect(lines.at(-1)).toBe('usage: npm run rsvp -- --match MATCH_ID [--format csv|json] [--output FILE]');
  expect(fs.existsSync(env.DATABASE_PATH!)).toBe(false);
});
