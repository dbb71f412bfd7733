// Regeneration on a real SQLite file: renders, skips what did not change, removes what became private.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCKS_DIR } from '../src/publish/folder-lock.js';
import { retiredFeed } from '../src/publish/retired-feeds.js';
import { regenerate, RENDER_LOCK, type RegenerateOptions } from '../src/publish/regenerate.js';
import { processState } from '../src/publish/run-marker.js';
import { demoDb, type TestDb } from './support/db.js';
import { expectVariantsBesideEach } from './support/variants.js';


let t: TestDb;
let options: RegenerateOptions;
beforeEach(async () => {
  t = await demoDb();
  options = { artifactsDir: path.join(t.dir, 'artifacts'), publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5 };
});
afterEach(async () => t.close());

/** Every file under the artifacts dir with its mtime and inode: what a run touched. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name !== '.manifest.json') {
        const s = fs.statSync(full);
        out.set(path.relative(dir, full), `${s.ino}:${s.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out;
}

const changedFiles = (a: Map<string, string>, b: Map<string, string>) =>
  [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();

/** Teams with a match in a public event: each has a calendar. */
const publicTeams = () =>
  (t.sqlite.prepare(
    `SELECT count(*) AS n FROM (SELECT home_team_id AS id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 AND home_team_id IS NOT NULL
       UNION SELECT away_team_id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 AND away_team_id IS NOT NULL)`,
  ).get() as { n: number }).n;

describe('regenerate', () => {
  it('renders every public event with gzip and brotli variants, nothing private', async () => {
    const r = await regenerate(t.db, options);
    // 7 events × (standings, bracket, calendar) + the event list + the OpenAPI document + a calendar per team.
    const teams = publicTeams();
    expect(teams).toBeGreaterThan(20);
    expect(r).toMatchObject({ events: 7, rendered: 7, written: 23 + teams, unchanged: 0, removed: 0 });
    const files = [...snapshot(options.artifactsDir).keys()];
    expect(files).toContain('api/v0/events.json');
    expect(files).toContain('api/v0/events.json.gz');
    expect(files).toContain('api/v0/events.json.br');
    expect(files).toContain('api/v0/calendar/rsl-prem-2026-27.ics');
    expect(files).toContain('api/v0/openapi.json');
    expect(files).toContain('api/v0/openapi.json.gz');
    expect(files).toContain('api/v0/openapi.json.br');
    expect(files.filter((f) => f.includes('nssa-futsal-friendlies-2026'))).toEqual([]);
    expect(files).toContain('api/v0/teams/rsl-rovers.calendar.ics');
    // Every artifact has its variants, but the "[]" of a league's bracket and of a cup's standings (too short).
    const { identities, short } = expectVariantsBesideEach(options.artifactsDir, files);
    expect(identities.length).toBe(23 + teams);
    expect(short.map((f) => fs.readFileSync(path.join(options.artifactsDir, f), 'utf8'))).toEqual(short.map(() => '[]'));
    expect(short.length).toBe(6);
  });

  it('writes no file when nothing changed', async () => {
    await regenerate(t.db, options);
    const before = snapshot(options.artifactsDir);
    const r = await regenerate(t.db, options);
    expect(r).toMatchObject({ rendered: 0, written: 0, removed: 0 });
    expect(changedFiles(before, snapshot(options.artifactsDir))).toEqual([]);
  });

  it('after one result changes, rewrites only the files whose content changed', async () => {
    await regenerate(t.db, options);
    const before = snapshot(options.artifactsDir);
    // A scheduled league fixture gets a result: the table, the calendar and the calendars of its two teams
    // change; the bracket ([]), the list, the OpenAPI document and the other teams' calendars do not.
    t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 1, away_score = 0 WHERE id = 'rsl-prem-r08-1'`).run();
    const { home_team_id: home, away_team_id: away } = t.sqlite.prepare(`SELECT home_team_id, away_team_id FROM matches WHERE id = 'rsl-prem-r08-1'`).get() as Record<string, string>;
    const r = await regenerate(t.db, options);
    expect(r).toMatchObject({ rendered: 1, written: 4, removed: 0 });
    const teamFiles = [home, away].flatMap((id) => ['', '.br', '.gz'].map((v) => `api/v0/teams/${id}.calendar.ics${v}`));
    expect(changedFiles(before, snapshot(options.artifactsDir))).toEqual([
      'api/v0/calendar/rsl-prem-2026-27.ics',
      'api/v0/calendar/rsl-prem-2026-27.ics.br',
      'api/v0/calendar/rsl-prem-2026-27.ics.gz',
      'api/v0/events/rsl-prem-2026-27/standings.json',
      'api/v0/events/rsl-prem-2026-27/standings.json.br',
      'api/v0/events/rsl-prem-2026-27/standings.json.gz',
      ...teamFiles.sort(),
    ]);
  });

  it("renders a team's calendar to the same bytes whether its organization is rendered whole or in part", async () => {
    // The first run renders every organization whole: team calendars from the VEVENTs of the events just rendered.
    await regenerate(t.db, options);
    const before = snapshot(options.artifactsDir);
    // One event of an organization again, its data unchanged: its teams' calendars are rendered again the other way,
    // reading the organization's events back, and must come out the same (nothing written).
    t.sqlite.prepare(`UPDATE events SET revision = revision + 1 WHERE id = 'rsl-prem-2026-27'`).run();
    const r = await regenerate(t.db, options);
    expect(r).toMatchObject({ rendered: 1, written: 0, removed: 0 });
    expect(r.unchanged).toBeGreaterThan(3 + 5);
    expect(changedFiles(before, snapshot(options.artifactsDir))).toEqual([]);
  });

  // Each list entry carries its organization's time zone (migration 0017): a change of zone re-renders its events.
  it("puts an organization's new time zone in the event list", async () => {
    await regenerate(t.db, options);
    t.sqlite.prepare(`UPDATE organizations SET timezone = 'Europe/Dublin' WHERE id = 'riverside-sfl'`).run();
    const r = await regenerate(t.db, options);
    expect(r).toMatchObject({ rendered: 3, removed: 0 });
    const list = JSON.parse(fs.readFileSync(path.join(options.artifactsDir, 'api/v0/events.json'), 'utf8')) as Array<{ org_id: string; timezone: string }>;
    expect(list.filter((e) => e.org_id === 'riverside-sfl').map((e) => e.timezone)).toEqual(['Europe/Dublin', 'Europe/Dublin', 'Europe/Dublin']);
    expect(list.filter((e) => e.org_id !== 'riverside-sfl').map((e) => e.timezone)).not.toContain('Europe/Dublin');
  });

  it('removes the artifacts of an event that became private, and the list entry', async () => {
    await regenerate(t.db, options);
    t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
    const r = await regenerate(t.db, options);
    expect(r.removed).toBe(2); // its standings and bracket
    const files = [...snapshot(options.artifactsDir).keys()];
    // Its calendar is the empty feed (retired-feeds.ts), which names nothing of it.
    expect(files.filter((f) => f.includes('rsl-cup-2026') && f.endsWith('.ics'))).toEqual(['api/v0/calendar/rsl-cup-2026.ics']);
    expect(files.filter((f) => f.includes('rsl-cup-2026') && !/\.ics(\.gz|\.br)?$/.test(f))).toEqual([]);
    expectRetired('api/v0/calendar/rsl-cup-2026.ics');
    const list = JSON.parse(fs.readFileSync(path.join(options.artifactsDir, 'api/v0/events.json'), 'utf8'));
    expect(list.map((e: { event_id: string }) => e.event_id)).not.toContain('rsl-cup-2026');
  });

  // A calendar user's review: a 404 is "try again later" to calendar apps, which kept a competition taken down for
  // good. A feed published once answers an empty calendar instead; public again, its matches come back.
  it("leaves an empty calendar in place of a feed no longer public, and only of one published before", async () => {
    await regenerate(t.db, options);
    const feed = 'api/v0/calendar/rsl-cup-2026.ics';
    const published = fs.readFileSync(path.join(options.artifactsDir, feed), 'utf8');
    const teams = (published.match(/^UID:.*$/gm) ?? []).length;
    expect(teams).toBeGreaterThan(0);
    // Its teams that play nowhere else: their feeds go empty too.
    const cupOnly = (t.sqlite.prepare(
      `SELECT t.id FROM teams t WHERE EXISTS (SELECT 1 FROM matches m WHERE m.event_id = 'rsl-cup-2026' AND t.id IN (m.home_team_id, m.away_team_id))
       AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.event_id <> 'rsl-cup-2026' AND t.id IN (m.home_team_id, m.away_team_id))`,
    ).all() as { id: string }[]).map((r) => r.id);
    t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
    await regenerate(t.db, options);
    expectRetired(feed);
    for (const id of cupOnly) expectRetired(`api/v0/teams/${id}.calendar.ics`);
    // A quiet run writes nothing: the empty feeds are kept as they are.
    expect(await regenerate(t.db, options)).toMatchObject({ written: 0, removed: 0 });
    // Deleted while private: still the empty feed. An event private from the start never had a feed.
    t.sqlite.prepare(`UPDATE events SET is_public = 1 WHERE id = 'rsl-cup-2026'`).run();
    await regenerate(t.db, options);
    expect(fs.readFileSync(path.join(options.artifactsDir, feed), 'utf8')).toBe(published);
    t.sqlite.prepare(`DELETE FROM events WHERE id = 'rsl-cup-2026'`).run();
    await regenerate(t.db, options);
    expectRetired(feed);
    const never = t.sqlite.prepare(`SELECT id FROM events WHERE is_public = 0`).all() as { id: string }[];
    expect(never.length).toBeGreaterThan(0);
    for (const { id } of never) expect(fs.existsSync(path.join(options.artifactsDir, `api/v0/calendar/${id}.ics`)), id).toBe(false);
  });

  /** The file is the empty feed of a retired id: a valid calendar with no event, naming nothing. */
  function expectRetired(rel: string) {
    const text = fs.readFileSync(path.join(options.artifactsDir, rel), 'utf8');
    expect(text, rel).toBe(retiredFeed(options.refreshMinutes).join(''));
    expect(text).not.toContain('BEGIN:VEVENT');
  }

  it('renders, then retires, an event and a team whose ids are names of Object.prototype', async () => {
    // The manifest's records are plain objects keyed by id: `constructor` and `toString` must not be read as
    // Object.prototype's (a run failed on such an event; a private one's files and a team's calendar stayed).
    t.sqlite.pragma('foreign_keys = OFF');
    for (const [sql, from, to] of [
      ['UPDATE events SET id = ? WHERE id = ?', 'amm-u12-autumn-2026', 'constructor'],
      ['UPDATE matches SET event_id = ? WHERE event_id = ?', 'amm-u12-autumn-2026', 'constructor'],
      ['UPDATE teams SET id = ? WHERE id = ?', 'amm-u12-aia', 'toString'],
      ['UPDATE team_members SET team_id = ? WHERE team_id = ?', 'amm-u12-aia', 'toString'],
      ['UPDATE matches SET home_team_id = ? WHERE home_team_id = ?', 'amm-u12-aia', 'toString'],
      ['UPDATE matches SET away_team_id = ? WHERE away_team_id = ?', 'amm-u12-aia', 'toString'],
    ] as const) t.sqlite.prepare(sql).run(to, from);
    t.sqlite.pragma('foreign_keys = ON');
    const rendered = ['api/v0/events/constructor/standings.json', 'api/v0/calendar/constructor.ics', 'api/v0/teams/toString.calendar.ics'];
    await regenerate(t.db, options);
    for (const f of rendered) expect(fs.existsSync(path.join(options.artifactsDir, f)), f).toBe(true);
    // Unchanged, it writes nothing; made private, the event's files go, and its calendar and its only team's are the
    // empty feed.
    expect(await regenerate(t.db, options)).toMatchObject({ written: 0 });
    t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'constructor'`).run();
    const r = await regenerate(t.db, options);
    expect(r.removed).toBeGreaterThanOrEqual(2);
    const files = [...snapshot(options.artifactsDir).keys()];
    const left = files.filter((f) => (f.includes('constructor') || f.includes('toString')) && f.endsWith('.ics'));
    expect(left).toEqual(['api/v0/calendar/constructor.ics', 'api/v0/teams/toString.calendar.ics']);
    expect(files.filter((f) => (f.includes('constructor') || f.includes('toString')) && !/\.ics(\.gz|\.br)?$/.test(f))).toEqual([]);
    for (const f of left) expectRetired(f);
  });

  it('sweeps files of events it no longer knows even without a manifest', async () => {
    await regenerate(t.db, options);
    fs.rmSync(path.join(options.artifactsDir, '.manifest.json'));
    t.sqlite.prepare(`DELETE FROM events WHERE id = 'rsl-cup-2026'`).run();
    await regenerate(t.db, options);
    expect([...snapshot(options.artifactsDir).keys()].filter((f) => f.includes('rsl-cup-2026'))).toEqual([]);
  });

  it('renders the same bytes for the same data', async () => {
    await regenerate(t.db, options);
    const read = () =>
      ['api/v0/events.json', 'api/v0/calendar/amm-u14-winter-cup-2026.ics', 'api/v0/events/nssa-futsal-champs-2026/bracket.json'].map(
        (f) => fs.readFileSync(path.join(options.artifactsDir, f)),
      );
    const first = read();
    fs.rmSync(options.artifactsDir, { recursive: true });
    await regenerate(t.db, options);
    expect(read()).toEqual(first);
  });
});

describe('regenerate settings', () => {
  it('keeps calendar UIDs when only the public base URL changes (the UID domain is fixed at install), changing only the API document', async () => {
    await regenerate(t.db, options);
    const calendar = () => fs.readFileSync(path.join(options.artifactsDir, 'api/v0/calendar/rsl-cup-2026.ics'), 'utf8');
    const before = calendar();
    expect(before).toContain('@fixtures.example');
    const r = await regenerate(t.db, { ...options, publicBaseUrl: 'https://other.example' });
    expect(r.rendered).toBe(0);
    expect(calendar()).toBe(before);
    expect(fs.readFileSync(path.join(options.artifactsDir, 'api/v0/openapi.json'), 'utf8')).toContain('https://other.example');
  });

  it('renders every calendar again when the UID domain changes', async () => {
    await regenerate(t.db, options);
    const calendar = () => fs.readFileSync(path.join(options.artifactsDir, 'api/v0/calendar/rsl-cup-2026.ics'), 'utf8');
    const r = await regenerate(t.db, { ...options, uidDomain: 'other.example' });
    expect(r.rendered).toBeGreaterThan(1);
    expect(calendar()).toContain('@other.example');
    expect(calendar()).not.toContain('@fixtures.example');
  });
});

describe('one render at a time per folder', () => {
  const lockFile = () => path.join(options.artifactsDir, LOCKS_DIR, RENDER_LOCK);
  const standings = () => JSON.parse(fs.readFileSync(path.join(options.artifactsDir, 'api/v0/events/rsl-prem-2026-27/standings.json'), 'utf8'));
  /** The lock as another live process holds it: the test's parent (the vitest main process), with its start time. */
  const holdAsAnotherProcess = () =>
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid, processStart: (processState(process.ppid) as { start: string }).start }));

  it("waits while another process renders, then renders from a snapshot taken after: what changed meanwhile is in it", async () => {
    await regenerate(t.db, options);
    const played = () => standings().reduce((n: number, r: { played: number }) => n + r.played, 0);
    const before = played();
    holdAsAnotherProcess();
    let done = false;
    const second = regenerate(t.db, options).then((r) => ((done = true), r));
    await new Promise((r) => setTimeout(r, 400));
    expect(done).toBe(false);
    // A result lands while the other render runs (an import just before `npm run regenerate`)…
    t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 1, away_score = 0 WHERE id = 'rsl-prem-r08-1'`).run();
    fs.rmSync(lockFile());
    // …and the render that waited has it.
    expect(await second).toMatchObject({ rendered: 1 });
    expect(played()).toBe(before + 2);
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over the lock of a process that is gone, or of a pid since used by another process', async () => {
    fs.mkdirSync(path.dirname(lockFile()), { recursive: true });
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: spawnSync(process.execPath, ['-e', '']).pid, processStart: '1' }));
    expect(await regenerate(t.db, options)).toMatchObject({ events: 7, rendered: 7 });
    fs.writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid, processStart: '1' }));
    expect(await regenerate(t.db, options)).toMatchObject({ rendered: 0 });
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('stops waiting when told to (the server stopping), long before its wait is over', async () => {
    fs.mkdirSync(path.dirname(lockFile()), { recursive: true });
    holdAsAnotherProcess();
    const stopping = new AbortController();
    const started = Date.now();
    setTimeout(() => stopping.abort(), 200);
    await expect(regenerate(t.db, { ...options, signal: stopping.signal })).rejects.toThrow(`another render (pid ${process.ppid}) has held`);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(fs.existsSync(lockFile())).toBe(true);
  });

  it('gives up after its wait, naming the process that holds the folder, and leaves its lock alone', async () => {
    fs.mkdirSync(path.dirname(lockFile()), { recursive: true });
    holdAsAnotherProcess();
    await expect(regenerate(t.db, { ...options, lockWaitMs: 300 })).rejects.toThrow(
      `another render (pid ${process.ppid}) is rendering ${options.artifactsDir}`,
    );
    expect(fs.existsSync(lockFile())).toBe(true);
    expect(fs.existsSync(path.join(options.artifactsDir, '.manifest.json'))).toBe(false);
  });
});

describe('a run that stopped before its manifest', () => {
  const read = (rel: string) => fs.readFileSync(path.join(options.artifactsDir, rel));
  const markers = () => fs.readdirSync(options.artifactsDir).filter((name) => name.startsWith('.rendering.'));
  /** A process id no process has: one that just exited. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

  it.each([
    { case: 'was killed', pid: deadPid },
    { case: 'failed in this process', pid: () => process.pid },
  ])('that $case: the next run writes every file again, so data reverted since is not left behind', async ({ pid }) => {
    await regenerate(t.db, options);
    const match = t.sqlite.prepare(`SELECT home_team_id, away_team_id, status, home_score, away_score FROM matches WHERE id = 'rsl-prem-r08-1'`).get() as Record<string, string | null>;
    const files = [
      'api/v0/events/rsl-prem-2026-27/standings.json',
      'api/v0/events/rsl-prem-2026-27/standings.json.br',
      'api/v0/calendar/rsl-prem-2026-27.ics',
      `api/v0/teams/${match.home_team_id}.calendar.ics`,
      `api/v0/teams/${match.away_team_id}.calendar.ics.gz`,
    ];
    const before = files.map(read);
    const manifest = read('.manifest.json');
    // A run renders a result and is stopped after its files, before its manifest: the files say 5-0, the manifest
    // still has the hashes of the files before, and the run's marker stays.
    t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 5, away_score = 0 WHERE id = 'rsl-prem-r08-1'`).run();
    await regenerate(t.db, options);
    expect(read(files[0]!)).not.toEqual(before[0]);
    fs.writeFileSync(path.join(options.artifactsDir, '.manifest.json'), manifest);
    fs.writeFileSync(path.join(options.artifactsDir, `.rendering.${pid()}`), '{}\n');
    // The result is taken back: the files the manifest remembers are right again, but not those on disk.
    t.sqlite.prepare(`UPDATE matches SET status = ?, home_score = ?, away_score = ? WHERE id = 'rsl-prem-r08-1'`).run(match.status, match.home_score, match.away_score);
    const r = await regenerate(t.db, options);
    expect(r).toMatchObject({ events: 7, rendered: 7, unchanged: 0 });
    expect(read(files[0]!)).toEqual(before[0]);
    // Every file as a render from nothing writes it (the calendars moved on: the take-back raised SEQUENCE).
    const fresh = path.join(t.dir, 'fresh');
    await regenerate(t.db, { ...options, artifactsDir: fresh });
    expect(files.map(read)).toEqual(files.map((rel) => fs.readFileSync(path.join(fresh, rel))));
    expect(markers()).toEqual([]);
    expect(await regenerate(t.db, options)).toMatchObject({ rendered: 0, written: 0 });
  });

  it.each([
    { case: 'as it marks', mark: () => ({ pid: process.ppid, processStart: (processState(process.ppid) as { start: string }).start }) },
    { case: 'where its start cannot be known', mark: () => ({}) },
  ])('leaves the marker of a run still going alone ($case), and trusts the manifest', async ({ mark }) => {
    await regenerate(t.db, options);
    const other = `.rendering.${process.ppid}`; // a process that is running
    fs.writeFileSync(path.join(options.artifactsDir, other), `${JSON.stringify(mark())}\n`);
    t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 1, away_score = 0 WHERE id = 'rsl-prem-r08-1'`).run();
    expect(await regenerate(t.db, options)).toMatchObject({ rendered: 1, written: 4 });
    expect(markers()).toEqual([other]);
  });

  it('takes a marker whose pid another process now has for a stopped run', async () => {
    await regenerate(t.db, options);
    // The pid of a running process, but not the process that marked: it started at another time.
    fs.writeFileSync(path.join(options.artifactsDir, `.rendering.${process.ppid}`), `${JSON.stringify({ pid: process.ppid, processStart: '1' })}\n`);
    expect(await regenerate(t.db, options)).toMatchObject({ events: 7, rendered: 7, unchanged: 0 });
    expect(markers()).toEqual([]);
  });

  it('renames the marker of a run that fails after changing files, so that every process takes it for a stopped run', async () => {
    await regenerate(t.db, options);
    t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 1, away_score = 0 WHERE id = 'rsl-prem-r08-1'`).run();
    // The manifest cannot be written: the run fails after its files.
    const manifest = path.join(options.artifactsDir, '.manifest.json');
    const saved = fs.readFileSync(manifest);
    fs.rmSync(manifest);
    fs.mkdirSync(manifest);
    await expect(regenerate(t.db, options)).rejects.toThrow();
    expect(markers()).toEqual([expect.stringMatching(new RegExp(`^\\.rendering\\.${process.pid}\\.[0-9a-f]{12}\\.failed$`))]);
    fs.rmdirSync(manifest);
    fs.writeFileSync(manifest, saved);
    expect(await regenerate(t.db, options)).toMatchObject({ events: 7, rendered: 7, unchanged: 0 });
    expect(markers()).toEqual([]);
  });

  it('marks nothing in a run with nothing to write or remove', async () => {
    await regenerate(t.db, options);
    // A folder a killed run left with only its temporary file, for an event that is gone.
    const left = path.join(options.artifactsDir, 'api/v0/events/gone-event');
    fs.mkdirSync(left);
    const old = new Date(Date.now() - 120_000);
    fs.writeFileSync(path.join(left, '.standings.json.1.0.tmp'), 'half');
    fs.utimesSync(path.join(left, '.standings.json.1.0.tmp'), old, old);
    const dir = options.artifactsDir;
    const before = fs.statSync(dir).mtimeMs;
    expect(await regenerate(t.db, options)).toMatchObject({ rendered: 0, written: 0, removed: 0 });
    expect(fs.existsSync(left)).toBe(false);
    expect(fs.statSync(dir).mtimeMs).toBe(before); // no marker was made there
  });
});
