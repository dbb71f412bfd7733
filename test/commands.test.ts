// The commands read the configuration the server reads: the process environment over `.env` in the working
// directory (as `cd /srv/competitions && npm run regenerate` from cron has it), and whatever runs the
// regeneration, a match's calendar UID never changes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleFile, freshBundle, SCRIPT_BUNDLE_DIR } from '../src/threads/bundles.mjs';
import { tempDir } from './support/db.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs')).href;
let dir: string;
beforeEach(() => {
  dir = tempDir('competitions-commands-');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The process environment without the variables the commands are given here. */
const baseEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_PATH|ARTIFACTS_DIR|MAIL_DIR|PUBLIC_BASE_URL|PORT|ENV_FILE|INIT_CWD)$/.test(k)));

/** A command run from `dir` (its working directory), with only the given variables set beyond the basics. */
function command(script: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', TSX, path.join(ROOT, 'scripts', script), ...args], {
    cwd: dir,
    env: { ...baseEnv(), ...env },
    encoding: 'utf8',
    timeout: 25_000, // a command that should have refused but serves instead is killed (status null) within the test's time
  });
}

/**
 * `npm run regenerate` and `npm run updates` as cron starts them: scripts/launch.mjs, which runs the job's bundle (global
 * setup builds it).
 */
function launch(name: string, env: Record<string, string> = {}, args: string[] = []) {
  return spawnSync(process.execPath, [path.join(ROOT, 'scripts/launch.mjs'), name, ...args], { cwd: dir, env: { ...baseEnv(), ...env }, encoding: 'utf8' });
}

const calendar = () => fs.readFileSync(path.join(dir, 'artifacts/api/v0/calendar/rs-winter-2026.ics'), 'utf8');
const uids = (ics: string) => [...ics.matchAll(/^UID:(.*)$/gm)].map((m) => m[1]!.trim());

describe('commands', () => {
  it('read .env from their working directory, under the process environment', () => {
    fs.writeFileSync(path.join(dir, '.env'), 'DATABASE_PATH=db/app.db\nARTIFACTS_DIR=artifacts\nPUBLIC_BASE_URL=https://first.example\n');
    const imported = command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, 'db/app.db'))).toBe(true);
    const first = launch('regenerate');
    expect(first.status, first.stderr).toBe(0);
    expect(uids(calendar()).every((uid) => uid.endsWith('@first.example'))).toBe(true);
    const doc = () => JSON.parse(fs.readFileSync(path.join(dir, 'artifacts/api/v0/openapi.json'), 'utf8')) as { servers: { url: string }[] };
    expect(doc().servers[0]!.url).toBe('https://first.example');
    // The process environment wins over the file.
    const overridden = launch('regenerate', { PUBLIC_BASE_URL: 'https://second.example' });
    expect(overridden.status, overridden.stderr).toBe(0);
    expect(doc().servers[0]!.url).toBe('https://second.example');
  });

  // An operator's review: under a service manager's UMask=0077 the reads were 0600 in 0700 folders, and nginx (another
  // user) answered 404 for every competition.
  it('regenerate under umask 077: the reads stay readable by others, the folders traversable', () => {
    fs.writeFileSync(path.join(dir, '.env'), 'DATABASE_PATH=db/app.db\nARTIFACTS_DIR=out/artifacts\n');
    expect(command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')]).status).toBe(0);
    const run = spawnSync('sh', ['-c', `umask 077 && exec "${process.execPath}" "${path.join(ROOT, 'scripts/launch.mjs')}" regenerate`], { cwd: dir, env: baseEnv(), encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const mode = (rel: string) => (fs.statSync(path.join(dir, rel)).mode & 0o777).toString(8);
    for (const folder of ['out', 'out/artifacts', 'out/artifacts/api/v0/events/rs-winter-2026', 'out/artifacts/api/v0/calendar']) expect([folder, mode(folder)]).toEqual([folder, '755']);
    for (const file of ['out/artifacts/api/v0/events.json', 'out/artifacts/api/v0/events/rs-winter-2026/standings.json', 'out/artifacts/api/v0/calendar/rs-winter-2026.ics']) {
      expect([file, mode(file)]).toEqual([file, '644']);
    }
    // The database stays the owner's.
    expect(mode('db/app.db')).toBe('600');
  });

  it('updates runs from its bundle, with its .env and its arguments', () => {
    // The bundle the build made from these sources, which launch.mjs runs rather than the TypeScript through tsx.
    expect(freshBundle(bundleFile(SCRIPT_BUNDLE_DIR, 'scripts/updates.ts'))).toBe(true);
    fs.writeFileSync(path.join(dir, '.env'), 'DATABASE_PATH=db/app.db\n');
    expect(command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')]).status).toBe(0);
    const run = launch('updates', {}, ['--now']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^updates: 0 changes found, 0 follows considered, 0 emails queued, \d+ ms\n$/);
    // Its own usage, from the bundle, for an argument it does not take.
    const refused = launch('updates', {}, ['--later']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('usage: npm run updates [-- --now]');
  });

  it.each([[''], ['../scripts/start'], ['regenerate;true']])('launch.mjs refuses %j as a command, with its usage', (name) => {
    const r = launch(name);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^usage: node scripts\/launch\.mjs COMMAND/);
  });

  it('never move a calendar UID, whatever base URL a later run is given', () => {
    const env = { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: path.join(dir, 'artifacts') };
    expect(command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')], env).status).toBe(0);
    expect(command('regenerate.ts', [], { ...env, PUBLIC_BASE_URL: 'https://competitions.example' }).status).toBe(0);
    const before = calendar();
    expect(uids(before).length).toBeGreaterThan(2);
    const moved = command('regenerate.ts', [], { ...env, PUBLIC_BASE_URL: 'http://localhost:4321' });
    expect(moved.status, moved.stderr).toBe(0);
    expect(calendar()).toBe(before);
    expect(uids(calendar()).every((uid) => uid.endsWith('@competitions.example'))).toBe(true);
  });

  it.each([
    ['a match played in September', 'rs-m1', `UPDATE matches SET status = 'completed' WHERE id = 'rs-m1'`, 'match rs-m1: it was played on 2026-09-06; nobody was invited'],
    // Found by a review: a match under way was "played on" its kickoff day, a later one here.
    ['a match under way', 'rs-m3', `UPDATE matches SET status = 'in_progress', home_score = NULL, away_score = NULL, kickoff_at = '2099-01-01T10:00:00Z' WHERE id = 'rs-m3'`, 'match rs-m3: it is under way; nobody was invited'],
    ['a cancelled match', 'rs-m3', `UPDATE matches SET status = 'cancelled', home_score = NULL, away_score = NULL WHERE id = 'rs-m3'`, 'match rs-m3: it is cancelled; nobody was invited'],
    ['a match whose kickoff has passed', 'rs-m3', `UPDATE matches SET kickoff_at = '2026-01-01T10:00:00Z' WHERE id = 'rs-m3'`, 'match rs-m3: it kicked off on 2026-01-01; nobody was invited'],
    // The organization's day (London, in summer), not the UTC date before it (a review).
    ['a match that kicked off at 00:30 in London', 'rs-m3', `UPDATE organizations SET timezone = 'Europe/London'; UPDATE matches SET kickoff_at = '2026-06-30T23:30:00Z' WHERE id = 'rs-m3'`, 'match rs-m3: it kicked off on 2026-07-01; nobody was invited'],
    // The calendar feed shows these two CANCELLED and TENTATIVE: nobody is asked to play them (README, RSVP).
    ['a match of a cancelled competition', 'rs-m3', `UPDATE events SET status = 'cancelled' WHERE id = 'rs-winter-2026'`, 'match rs-m3: its competition is cancelled; nobody was invited'],
    ['a postponed match', 'rs-m3', `UPDATE matches SET status = 'postponed' WHERE id = 'rs-m3'`, 'match rs-m3: it is postponed and has no new kickoff yet (invite again once it is rescheduled); nobody was invited'],
    ['a match of a private competition', 'rs-c1', `UPDATE matches SET status = 'scheduled', home_score = NULL, away_score = NULL, kickoff_at = '2099-01-01T10:00:00Z' WHERE id = 'rs-c1'`, 'match rs-c1: it belongs to a private competition; nobody was invited'],
  ])('invite refuses %s with one line and sends nothing', (_label, match, change, line) => {
    const env = { DATABASE_PATH: path.join(dir, 'app.db') };
    expect(command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')], env).status).toBe(0);
    const db = new Database(env.DATABASE_PATH);
    try {
      db.prepare(`UPDATE matches SET kickoff_at = '2099-01-01T10:00:00Z' WHERE id = 'rs-m3'`).run();
      db.exec(change);
      const r = command('invite.ts', ['--match', match], env);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(line);
      expect(db.prepare(`SELECT (SELECT count(*) FROM rsvp_invitations) + (SELECT count(*) FROM email_outbox) AS n`).get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('invite run again after an address was corrected says it invited the member again, at the new address', () => {
    const env = { DATABASE_PATH: path.join(dir, 'app.db') };
    const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), 'utf8'));
    const file = path.join(dir, 'import.json');
    const importWith = (email: string) => {
      fixture.organizations[0].teams[0].members[0].email = email;
      fs.writeFileSync(file, JSON.stringify(fixture));
      expect(command('import.ts', [file], env).status).toBe(0);
    };
    importWith('sam.carter@exmaple.org'); // the organizer's typo
    const db = new Database(env.DATABASE_PATH);
    try {
      db.prepare(`UPDATE matches SET kickoff_at = '2099-01-01T10:00:00Z' WHERE id = 'rs-m3'`).run();
      expect(command('invite.ts', ['--match', 'rs-m3'], env).stdout.trim())
        .toBe('match rs-m3: 1 invited (emails queued), 0 already invited, 0 without an email address');
      importWith('sam.carter@example.org');
      db.prepare(`UPDATE matches SET kickoff_at = '2099-01-01T10:00:00Z' WHERE id = 'rs-m3'`).run();
      const r = command('invite.ts', ['--match', 'rs-m3'], env);
      expect(r.status).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual([
        'match rs-m3: 1 invited (emails queued), 0 already invited, 0 without an email address',
        'the member invited was invited again at a new address (the links sent to the old one no longer work; their answers start again)',
      ]);
      expect(db.prepare(`SELECT to_address FROM email_outbox ORDER BY id`).all())
        .toEqual([{ to_address: 'sam.carter@exmaple.org' }, { to_address: 'sam.carter@example.org' }]);
    } finally {
      db.close();
    }
  });

  it('invite emails a person listed in both teams once, and says so', () => {
    const env = { DATABASE_PATH: path.join(dir, 'app.db') };
    const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), 'utf8'));
    // Sam plays for the Lions and is listed by Mill Lane United too, the address typed in capitals there.
    fixture.organizations[0].teams[2].members = [{ id: 'rs-united-1', name: 'Sam Carter', email: 'SAM.CARTER@EXAMPLE.ORG' }];
    const file = path.join(dir, 'import.json');
    fs.writeFileSync(file, JSON.stringify(fixture));
    expect(command('import.ts', [file], env).status).toBe(0);
    const db = new Database(env.DATABASE_PATH);
    try {
      db.prepare(`UPDATE matches SET kickoff_at = '2099-01-01T10:00:00Z' WHERE id = 'rs-m3'`).run();
      const r = command('invite.ts', ['--match', 'rs-m3'], env);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual([
        'match rs-m3: 1 invited (emails queued), 0 already invited, 0 without an email address',
        '1 member listed again under the same name and address (in both teams, or twice in one): invited once',
      ]);
      expect(db.prepare(`SELECT to_address FROM email_outbox`).all()).toEqual([{ to_address: 'sam.carter@example.org' }]);
      expect(db.prepare(`SELECT count(*) AS n FROM rsvp_invitations`).get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it('npm start on a port in use stops with one line naming the port and PORT, no stack trace, having done nothing', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const database = path.join(dir, 'in-use', 'app.db');
      const r = command('start.ts', [], { DATABASE_PATH: database, ARTIFACTS_DIR: path.join(dir, 'in-use', 'a'), PORT: String(port), HOST: '127.0.0.1' });
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`port ${port} is already in use on 127.0.0.1: stop what uses it, or set PORT to a free port`);
      // It stopped before its jobs: no demo loaded, no render, no retention, no followers' updates sent.
      expect(r.stdout).toBe('');
      expect(fs.existsSync(database)).toBe(false);
    } finally {
      blocker.close();
    }
  });

  // A review started the server with a mistyped DATABASE_PATH: the demo went into the new, empty database, and its
  // render and publish replaced every real read, in the folder and in the bucket.
  it('npm start and regenerate refuse, in one line, an ARTIFACTS_DIR another database rendered, and change nothing', async () => {
    const artifacts = path.join(dir, 'artifacts');
    const real = { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: artifacts };
    expect(command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')], real).status).toBe(0);
    expect(command('regenerate.ts', [], real).status).toBe(0);
    const before = calendar();
    const manifest = fs.readFileSync(path.join(artifacts, '.manifest.json'), 'utf8');
    const typo = path.join(dir, 'ap.db');
    const refusal = `ARTIFACTS_DIR (${artifacts}) holds the reads rendered from another database than DATABASE_PATH (${typo}); ` +
      'rendering this one there would remove them (and, once published, from the bucket): check DATABASE_PATH, ' +
      'or give this database an ARTIFACTS_DIR of its own (an empty folder)';
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const started = command('start.ts', [], { DATABASE_PATH: typo, ARTIFACTS_DIR: artifacts, PORT: String(port), HOST: '127.0.0.1' });
    expect(started.status).toBe(1);
    expect(started.stderr.trim()).toBe(refusal);
    expect(started.stdout).not.toContain('demo');
    expect(fs.existsSync(typo)).toBe(false); // nothing made: the mistyped database is not created, let alone migrated
    // Another database, one that exists (made by an import): refused by the render itself too.
    expect(command('migrate.ts', [], { DATABASE_PATH: typo }).status).toBe(0);
    const regenerated = command('regenerate.ts', [], { DATABASE_PATH: typo, ARTIFACTS_DIR: artifacts });
    expect(regenerated.status).toBe(1);
    expect(regenerated.stderr.trim()).toBe(refusal);
    const startedOnIt = command('start.ts', [], { DATABASE_PATH: typo, ARTIFACTS_DIR: artifacts, PORT: String(port), HOST: '127.0.0.1' });
    expect([startedOnIt.status, startedOnIt.stderr.trim()]).toEqual([1, refusal]);
    expect(calendar()).toBe(before);
    expect(fs.readFileSync(path.join(artifacts, '.manifest.json'), 'utf8')).toBe(manifest);
    // Its own, empty folder renders.
    expect(command('regenerate.ts', [], { DATABASE_PATH: typo, ARTIFACTS_DIR: path.join(dir, 'other') }).status).toBe(0);
  });

  it('npm start with a HOST that does not resolve stops with one line naming HOST, no stack trace', () => {
    const r = command('start.ts', [], { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: path.join(dir, 'a'), PORT: '4799', HOST: 'competitions-host.invalid' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('HOST competitions-host.invalid is not a name this machine can resolve: set HOST to one of its addresses (0.0.0.0: all of them)');
  });

  it('stop with one line naming the variable when .env holds a bad value', () => {
    fs.writeFileSync(path.join(dir, '.env'), 'PORT=eighty\n');
    const r = command('migrate.ts', []);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual(['Invalid configuration:', '  PORT (got "eighty"): must be a port number, 1 to 65535']);
  });

  // An operator's review: on a full disk `npm run import` and `npm run invite` printed a stack trace. A damaged file
  // takes the same path as a full disk (SQLite's code, then the server's line for it) and needs no full disk to test.
  it('say a database failure the operator fixes in the one line the server logs for it, no stack trace', () => {
    const db = path.join(dir, 'damaged.db');
    fs.writeFileSync(db, Buffer.alloc(8192, 7));
    const r = command('invite.ts', ['--match', 'rs-m3'], { DATABASE_PATH: db });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`SQLITE_NOTADB file is not a database (DATABASE_PATH ${db}: it is damaged: stop the server and restore the last backup)`);
  });

  it('name the setting in one line, no stack trace, when a path setting names something unusable', () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const migrated = command('migrate.ts', [], { DATABASE_PATH: path.join(file, 'app.db') });
    expect(migrated.status).toBe(1);
    expect(migrated.stderr.trim()).toBe(`DATABASE_PATH (${path.join(file, 'app.db')}): EEXIST: file already exists, mkdir '${file}' (${file} is a file, not a folder: name a folder)`);
    const folder = command('migrate.ts', [], { DATABASE_PATH: dir });
    expect(folder.status).toBe(1);
    expect(folder.stderr.trim()).toBe(`DATABASE_PATH (${dir}, a folder: name the database file, such as ${path.join(dir, 'app.db')}): unable to open database file`);
    expect(command('migrate.ts', [], { DATABASE_PATH: path.join(dir, 'app.db') }).status).toBe(0);
    const regenerated = command('regenerate.ts', [], { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: file });
    expect(regenerated.status).toBe(1);
    expect(regenerated.stderr.trim()).toBe(`ARTIFACTS_DIR (${file}): EEXIST: file already exists, mkdir '${file}' (${file} is a file, not a folder: name a folder)`);
    // The server's mail folder is made at start: a file there stops it, rather than failing every email for a day.
    const started = command('start.ts', [], { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: path.join(dir, 'a'), MAIL_DIR: file, PORT: '4799', HOST: '127.0.0.1' });
    expect(started.status).toBe(1);
    expect(started.stderr.trim()).toBe(`MAIL_DIR (${file}): EEXIST: file already exists, mkdir '${file}' (${file} is a file, not a folder: name a folder)`);
  });

  // Where mkdir answers ENOENT under a parent that exists (/proc), Node's recursive mkdir retried forever: npm run
  // regenerate never returned and npm start never served, spinning in the kernel (src/folders.ts).
  it.skipIf(!fs.existsSync('/proc/self'))('refuse at once, in one line naming the setting, a folder under /proc', () => {
    const db = path.join(dir, 'app.db');
    expect(command('migrate.ts', [], { DATABASE_PATH: db }).status).toBe(0);
    const line = (setting: string, value: string) => `${setting} (${value}): ENOENT: no such file or directory, mkdir '/proc/x' (/proc takes no new folder)`;
    const timed = (script: string, env: Record<string, string>) => {
      const started = Date.now();
      const r = command(script, [], env);
      return { status: r.status, stderr: r.stderr.trim(), seconds: (Date.now() - started) / 1000 };
    };
    for (const [script, env, expected] of [
      ['regenerate.ts', { DATABASE_PATH: db, ARTIFACTS_DIR: '/proc/x' }, line('ARTIFACTS_DIR', '/proc/x')],
      ['regenerate.ts', { DATABASE_PATH: db, ARTIFACTS_DIR: '/proc/x/artifacts' }, line('ARTIFACTS_DIR', '/proc/x/artifacts')],
      ['start.ts', { DATABASE_PATH: db, ARTIFACTS_DIR: '/proc/x', PORT: '4799', HOST: '127.0.0.1' }, line('ARTIFACTS_DIR', '/proc/x')],
      ['start.ts', { DATABASE_PATH: db, ARTIFACTS_DIR: path.join(dir, 'a'), MAIL_DIR: '/proc/x', PORT: '4799', HOST: '127.0.0.1' }, line('MAIL_DIR', '/proc/x')],
      ['migrate.ts', { DATABASE_PATH: '/proc/x/app.db' }, line('DATABASE_PATH', '/proc/x/app.db')],
    ] as const) {
      const r = timed(script, env);
      expect({ status: r.status, stderr: r.stderr }, `${script} ${JSON.stringify(env)} (${r.seconds} s)`).toEqual({ status: 1, stderr: expected });
    }
    // ARTIFACTS_DIR=/proc itself exists, but nothing can be written in it.
    const proc = timed('regenerate.ts', { DATABASE_PATH: db, ARTIFACTS_DIR: '/proc' });
    expect(proc.status).toBe(1);
    expect(proc.stderr).toMatch(/^ARTIFACTS_DIR \(\/proc\): cannot write in this folder: ENOENT: no such file or directory, mkdtemp '\/proc\/\.writable-check-\w+'$/);
  });

  it.each([
    ['retention.ts', 'npm run retention'],
    ['migrate.ts', 'npm run migrate'],
    ['regenerate.ts', 'npm run regenerate'],
    ['start.ts', 'npm start (settings come from the environment and .env: PORT=4321 npm start)'],
  ])('%s refuses an argument it does not take, before it opens the database', (script, usage) => {
    const db = path.join(dir, 'app.db');
    const r = command(script, ['--dry-run'], { DATABASE_PATH: db, ARTIFACTS_DIR: path.join(dir, 'a'), PORT: '4799', HOST: '127.0.0.1' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([`Unexpected argument '--dry-run': this command takes none`, `usage: ${usage}`]);
    expect(fs.existsSync(db)).toBe(false);
  });

  // A review: `npm run import -- --help` was read as a file named "--help", after a database had been made for it.
  it.each([[['--help']], [['-h']], [['--dry-run']], [['small.json', '--dry-run']], [['--', '--help', 'x']]])(
    'import refuses %j with its usage, before it opens the database',
    (args) => {
      const db = path.join(dir, 'data', 'app.db');
      const r = command('import.ts', args, { DATABASE_PATH: db });
      expect(r.status).toBe(1);
      const option = args.find((a) => a.startsWith('-') && a !== '--');
      const first = args[0] === '--' ? 'usage: npm run import -- FILE.json [--check]' : `Unknown option '${option}'`;
      expect(r.stderr.trim().split('\n')[0]).toBe(first);
      expect(r.stderr.trim().split('\n').at(-1)).toBe('usage: npm run import -- FILE.json [--check]');
      expect(fs.existsSync(path.dirname(db))).toBe(false);
    },
  );

  // An organizer's review: a large file printed 3,600 notes; problems were capped at 200 already.
  // A first-time organizer's review: the demo npm start loaded stayed public beside the league imported, unsaid.
  it('import says when the demo\'s organizations are public beside the ones it imports', () => {
    const env = { DATABASE_PATH: path.join(dir, 'demo-beside.db'), INIT_CWD: dir };
    const demo = command('import.ts', [path.join(ROOT, 'data/demo.json')], env);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).not.toContain("the demo's organizations");
    const ours = command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')], env);
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toContain("note: this database also holds the demo's organizations (riverside-sfl, northgate-ssa, amman-yfa: data/demo.json, which npm start loads into an empty database)");
    expect(ours.stdout).toContain('start on a new DATABASE_PATH with LOAD_DEMO=no');
  });

  it('import prints the first 200 notes, then how many more', () => {
    const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), 'utf8'));
    const start = Date.parse('2099-01-01T10:00:00Z');
    for (let i = 0; i < 205; i++) {
      fixture.organizations[0].leagues[0].events[0].matches.push({
        id: `late-${i}`, round: 9, home: 'rs-lions', away: 'rs-united', kickoff: new Date(start + i * 86_400_000).toISOString(), status: 'completed', score: { home: 1, away: 0 },
      });
    }
    fs.writeFileSync(path.join(dir, 'late.json'), JSON.stringify(fixture));
    const r = command('import.ts', ['late.json', '--check'], { DATABASE_PATH: path.join(dir, 'notes.db'), INIT_CWD: dir });
    expect(r.status, r.stderr).toBe(0);
    const notes = r.stdout.trim().split('\n').filter((line) => line.startsWith('note: '));
    expect(notes).toHaveLength(201);
    // 205 results before their kickoff, and the season's ends_at before the last of them.
    expect(notes.at(-1)).toBe('note: … and 6 more');
  });

  it('import --check says what an import would change, the removed matches named, and writes nothing', () => {
    const db = path.join(dir, 'app.db');
    const env = { DATABASE_PATH: db, INIT_CWD: dir };
    const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'all.json'), JSON.stringify(fixture));
    // No database yet: checked against an empty one, and none is made.
    const first = command('import.ts', ['all.json', '--check'], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^all\.json: valid; nothing written \(--check\)\. Importing it would load 1 organization, .* \(\d+ records written, 0 removed\)$/),
      // An organizer's review: counts alone did not say what would change. The competitions it publishes, its results.
      'competition "rs-winter-2026" (Winter 2026) would be public: its reads and calendar would be published at the next render (the server renders every REGENERATE_EVERY_S, a minute by default)',
      'result of match "rs-c1" (Riverside Lions v Harbour Rovers): none → 1-1 (4-3 on penalties)',
      'result of match "rs-c2" (Riverside Lions v Mill Lane United): none → walkover: Mill Lane United',
      'result of match "rs-m1" (Riverside Lions v Harbour Rovers): none → 2-1',
      'result of match "rs-m2" (Harbour Rovers v Mill Lane United): none → 0-0',
      `DATABASE_PATH (${db}) holds no database yet: checked against an empty one, which the import would create`,
    ]);
    expect(fs.existsSync(db)).toBe(false);
    expect(command('import.ts', ['all.json'], env).status).toBe(0);
    const sqlite = new Database(db);
    try {
      sqlite.prepare(`INSERT INTO rsvp_invitations (id, match_id, member_id, email) VALUES ('inv1', 'rs-m3', 'rs-lions-1', 'sam.carter@example.org')`).run();
      fixture.organizations[0].leagues[0].events[0].matches.splice(0, 1); // rs-m1, 2-1
      fixture.organizations[0].leagues[0].events[0].matches.splice(1, 1); // rs-m3, one invitation
      fs.writeFileSync(path.join(dir, 'fewer.json'), JSON.stringify(fixture));
      const dump = () => ['matches', 'rsvp_invitations'].map((table) => sqlite.prepare(`SELECT * FROM ${table} ORDER BY id`).all());
      const before = dump();
      const checked = command('import.ts', ['fewer.json', '--check'], env);
      expect(checked.status, checked.stderr).toBe(0);
      const removed = [
        'match "rs-m1" (Riverside Lions v Harbour Rovers, Sunday 6 September 2026, 10:00 UTC) is no longer in the file: it would be removed with its result (2-1)',
        'match "rs-m3" (Mill Lane United v Riverside Lions, Sunday 13 December 2026, 10:00 UTC) is no longer in the file: it would be removed with its 1 RSVP invitation, and the invited members would not be told (to tell them, keep it in the file with "status": "cancelled")',
      ];
      expect(checked.stdout.trim().split('\n')).toEqual([
        'fewer.json: valid; nothing written (--check). Importing it would load 1 organization, 1 league, 2 competitions, 3 matches, 3 teams, 1 member, 1 division (0 records written, 2 removed)',
        ...removed,
      ]);
      expect(dump()).toEqual(before);
      const imported = command('import.ts', ['fewer.json'], env);
      expect(imported.stdout.trim().split('\n')).toEqual([
        'fewer.json: imported 1 organization, 1 league, 2 competitions, 3 matches, 3 teams, 1 member, 1 division (0 records written, 2 removed)',
        ...removed.map((line) => line.replace('it would be removed', 'removed').replace('would not be told', 'are not told')),
      ]);
      // A result before its kickoff (an award, or a kickoff not corrected) is taken, and pointed out after the summary.
      const left = fixture.organizations[0].leagues[0].events[0].matches[0];
      Object.assign(left, { kickoff: '2099-01-03T10:00:00Z', status: 'completed', score: { home: 3, away: 0 } });
      fs.writeFileSync(path.join(dir, 'awarded.json'), JSON.stringify(fixture));
      const awarded = command('import.ts', ['awarded.json'], env);
      expect(awarded.status, awarded.stderr).toBe(0);
      expect(awarded.stdout.trim().split('\n').at(-1)).toMatch(
        new RegExp(`^note: competition "rs-winter-2026", match "${left.id}": completed before its kickoff \\(2099-01-03T10:00:00Z; now .+\\)\\. Its result counts in the table`),
      );
    } finally {
      sqlite.close();
    }
  });

  it('import reads and checks its file before it makes a database: a missing or invalid file leaves none behind', () => {
    const db = path.join(dir, 'data', 'app.db');
    const env = { DATABASE_PATH: db, INIT_CWD: dir };
    const missing = command('import.ts', ['nothing.json'], env);
    expect([missing.status, missing.stderr.trim().split('\n')]).toEqual([1, ['nothing.json: 1 problem, nothing imported', `  (file): cannot read ${path.join(dir, 'nothing.json')}: no such file`]]);
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"organizations": [}');
    const broken = command('import.ts', ['broken.json'], env);
    expect([broken.status, broken.stderr.trim().split('\n')[0]]).toEqual([1, 'broken.json: 1 problem, nothing imported']);
    fs.writeFileSync(path.join(dir, 'invalid.json'), '{"organizations": []}');
    const invalid = command('import.ts', ['invalid.json'], env);
    expect([invalid.status, invalid.stderr.trim().split('\n')[0]]).toEqual([1, 'invalid.json: 1 problem, nothing imported']);
    expect(fs.existsSync(path.dirname(db))).toBe(false);
  });

  it.each([['not a host'], ['http://[::1'], ['smtp://mail.example']])('stop with one line naming POSTMARK_API_HOST=%j, before the server starts', (value) => {
    fs.writeFileSync(path.join(dir, '.env'), `MAIL_TRANSPORT=postmark\nPOSTMARK_SERVER_TOKEN=t\nPUBLIC_BASE_URL=https://competitions.example\nPOSTMARK_API_HOST=${value}\n`);
    const r = command('start.ts', [], { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: path.join(dir, 'a'), PORT: '4799', HOST: '127.0.0.1' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'Invalid configuration:',
      `  POSTMARK_API_HOST (got ${JSON.stringify(value)}): must be an http(s) URL (http://127.0.0.1:9999) or a host name (api.postmarkapp.com)`,
    ]);
  });

  it.each([
    ['regenerate.ts', []],
    ['retention.ts', []],
    ['updates.ts', ['--now']],
    ['registrations.ts', ['--org', 'riverside']],
    ['invite.ts', ['--match', 'rs-m1']],
    ['rsvp.ts', ['--match', 'rs-m1']],
    ['person.ts', ['--email', 'sam.carter@example.org']],
  ])('%s on a DATABASE_PATH with no database refuses in one line, creating nothing, removing no artifact', (script, args) => {
    const db = path.join(dir, 'app.db');
    expect(command('import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')], { DATABASE_PATH: db }).status).toBe(0);
    expect(launch('regenerate', { DATABASE_PATH: db, ARTIFACTS_DIR: path.join(dir, 'artifacts') }).status).toBe(0);
    const before = calendar();
    const typo = path.join(dir, 'data', 'ap.db');
    const r = command(script, args, { DATABASE_PATH: typo, ARTIFACTS_DIR: path.join(dir, 'artifacts') });
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `DATABASE_PATH (${typo}): no database there; check DATABASE_PATH and the folder the command runs in (npm start, npm run migrate and npm run import create it)`,
    );
    expect(fs.existsSync(path.dirname(typo))).toBe(false);
    expect(calendar()).toBe(before);
  });

  it('import reads a relative file from the folder npm was called in (INIT_CWD), not the project folder', () => {
    const sub = path.join(dir, 'imports');
    fs.mkdirSync(sub);
    fs.copyFileSync(path.join(ROOT, 'test/fixtures/import-small.json'), path.join(sub, 'small.json'));
    const env = { DATABASE_PATH: path.join(dir, 'app.db') };
    const called = command('import.ts', ['small.json'], { ...env, INIT_CWD: sub });
    expect(called.stderr).toBe('');
    expect(called.stdout).toMatch(/^small\.json: imported 1 organization,/);
    const missing = command('import.ts', ['nothing.json'], { ...env, INIT_CWD: sub });
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split('\n')).toEqual(['nothing.json: 1 problem, nothing imported', `  (file): cannot read ${path.join(sub, 'nothing.json')}: no such file`]);
  });

  it('stop with one line naming MAIL_FROM when it is not an address, before the server starts or mail is queued', () => {
    fs.writeFileSync(path.join(dir, '.env'), 'MAIL_FROM=Competitions\n');
    for (const script of ['migrate.ts', 'start.ts']) {
      const r = command(script, [], { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: path.join(dir, 'a'), PORT: '4799', HOST: '127.0.0.1' });
      expect(r.status, script).toBe(1);
      expect(r.stderr.trim().split('\n'), script).toEqual([
        'Invalid configuration:',
        '  MAIL_FROM (got "Competitions"): must be one address: Name <local@domain> or local@domain',
      ]);
    }
  });
});
