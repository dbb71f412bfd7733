// The regeneration on render workers (src/publish/render-threads.ts) writes the bytes a single thread writes, and
// a worker that cannot help (it fails, or its snapshot shows other events) leaves the work to the calling thread.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventHeads } from '../src/competitions/queries.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { retiredFeed } from '../src/publish/retired-feeds.js';
import { regenerate, type Manifest, type RegenerateOptions } from '../src/publish/regenerate.js';
import { groupByOrganization, type OrganizationWork } from '../src/publish/render-organization.js';
import { headsFingerprint, renderOrganizations, THREADED_MIN_EVENTS } from '../src/publish/render-threads.js';
import { teamCalendarPath } from '../src/publish/routes.js';
import { ArtifactStore } from '../src/publish/store.js';
import { diffSnapshots, snapshot } from '../bench/artifacts.js';
import { createDataset } from './support/dataset.js';
import { tempDir } from './support/db.js';

let dir: string;
let database: Database;
const file = () => path.join(dir, 'app.db');
const options = (artifactsDir: string, threads: number): RegenerateOptions => ({
  artifactsDir,
  publicBaseUrl: 'https://threads.example',
  uidDomain: 'threads.example',
  refreshMinutes: 5,
  databasePath: file(),
  threads,
});

/**
 * Paths whose bytes differ between two renders, or that only one has; the manifest by its content, each folder's own
 * id and render token aside (src/publish/restored-calendars.ts).
 */
function differences(a: string, b: string): string[] {
  const diff = diffSnapshots(snapshot(a), snapshot(b));
  const manifest = (root: string) => {
    const { folder: _folder, renderToken: _token, ...rest } = JSON.parse(fs.readFileSync(path.join(root, '.manifest.json'), 'utf8')) as Manifest;
    return JSON.stringify(rest);
  };
  const differ = [...diff.added, ...diff.removed, ...diff.contentChanged].filter((f) => f !== '.manifest.json');
  if (manifest(a) !== manifest(b)) differ.push('.manifest.json');
  return differ.sort();
}

beforeAll(async () => {
  dir = tempDir('competitions-threads-');
  // 14 organizations of ten events: enough for the workers to share, small enough to render in seconds.
  await createDataset(file(), { events: 140, matchesPerEvent: 12, seed: 11 });
  database = await openDatabase(file());
}, 60_000);
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('regeneration on render workers', () => {
  it('writes the same bytes as one thread, every organization rendered by a worker', async () => {
    expect(140).toBeGreaterThanOrEqual(THREADED_MIN_EVENTS);
    const one = await regenerate(database.db, options(path.join(dir, 'one'), 1));
    const two = await regenerate(database.db, options(path.join(dir, 'two'), 2));
    expect(one.workers).toBeUndefined();
    expect(two.workers).toHaveLength(2);
    // Each worker is a number of organizations (none failed or declined), and together they rendered all 14.
    expect(two.workers!.every((w) => typeof w === 'number')).toBe(true);
    expect((two.workers as number[]).reduce((a, b) => a + b, 0)).toBe(14);
    expect({ ...two, ms: 0, workers: undefined }).toEqual({ ...one, ms: 0 });
    expect(snapshot(path.join(dir, 'one')).size).toBeGreaterThan(140 * 9);
    expect(differences(path.join(dir, 'one'), path.join(dir, 'two'))).toEqual([]);
  }, 60_000);

  it('renders a small run on its own thread: a worker would cost more than it saves', async () => {
    const artifactsDir = path.join(dir, 'small');
    await regenerate(database.db, options(artifactsDir, 2));
    database.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 3, away_score = 0 WHERE id = (
      SELECT m.id FROM matches m JOIN events e ON e.id = m.event_id
      WHERE e.is_public = 1 AND e.competition_type = 'league' AND m.status = 'scheduled' AND m.home_team_id IS NOT NULL
      ORDER BY m.id LIMIT 1)`).run();
    const r = await regenerate(database.db, options(artifactsDir, 2));
    expect(r.rendered).toBe(1);
    expect(r.workers).toBeUndefined();
  }, 60_000);

  it("renders everything again on workers and rewrites nothing when only the manifest's render version changed", async () => {
    // Each worker compares its organization's bytes with what the last run wrote (previousFor, handed out with each
    // organization): the events' files and the teams' calendars alike are found unchanged.
    const artifactsDir = path.join(dir, 'again');
    const first = await regenerate(database.db, options(artifactsDir, 2));
    const manifestFile = path.join(artifactsDir, '.manifest.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { renderVersion: number };
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, renderVersion: manifest.renderVersion - 1 }));
    const again = await regenerate(database.db, options(artifactsDir, 2));
    expect(again.rendered).toBe(140);
    expect((again.workers as number[]).reduce((a, b) => a + b, 0)).toBe(14);
    expect(again.written).toBe(0);
    expect(again.unchanged).toBe(first.written);
  }, 60_000);

  it('updates the calendars of teams that left an event a worker rendered again, as a fresh render has them', async () => {
    // The run trusts its manifest and the team's organization is not rendered whole, so the calendars are written by
    // the calling thread for the teams the workers name stale: those who play in the event now and those who did in
    // the last run (previousFor hands the worker the event's old teams). A team that left would otherwise keep a
    // calendar with the event's matches, or, having no public match left, keep a calendar at all.
    const teamsOf = (eventId: string) =>
      (database.sqlite
        .prepare(`SELECT home_team_id AS id FROM matches WHERE event_id = ? AND home_team_id IS NOT NULL
          UNION SELECT away_team_id FROM matches WHERE event_id = ? AND away_team_id IS NOT NULL ORDER BY 1`)
        .all(eventId, eventId) as Array<{ id: string }>).map((r) => r.id);
    const eventsOf = (teamId: string) =>
      (database.sqlite
        .prepare(`SELECT DISTINCT m.event_id AS id FROM matches m JOIN events e ON e.id = m.event_id
          WHERE e.is_public = 1 AND (m.home_team_id = ? OR m.away_team_id = ?) ORDER BY 1`)
        .all(teamId, teamId) as Array<{ id: string }>).map((r) => r.id);
    // A team that plays in one public event only (its calendar goes when it leaves), and one of that event's teams
    // that plays elsewhere too (its calendar loses the event's matches).
    const only = (database.sqlite
      .prepare(`SELECT t.id FROM teams t WHERE (SELECT COUNT(DISTINCT m.event_id) FROM matches m JOIN events e ON e.id = m.event_id
          WHERE e.is_public = 1 AND (m.home_team_id = t.id OR m.away_team_id = t.id)) = 1 ORDER BY t.id LIMIT 1`)
      .get() as { id: string } | undefined)?.id;
    expect(only).toBeDefined();
    const event = eventsOf(only!)[0]!;
    const elsewhere = teamsOf(event).find((t) => eventsOf(t).length > 1);
    expect(elsewhere).toBeDefined();
    const untouched = eventsOf(elsewhere!).find((id) => id !== event)!;

    const dirs = { one: path.join(dir, 'leave-one'), two: path.join(dir, 'leave-two'), fresh: path.join(dir, 'leave-fresh') };
    await regenerate(database.db, options(dirs.one, 1));
    await regenerate(database.db, options(dirs.two, 2));
    const calendar = (root: string, teamId: string) => path.join(root, teamCalendarPath(teamId));
    expect(fs.readFileSync(calendar(dirs.two, elsewhere!), 'utf8')).toContain(`.${event}@threads.example`);
    expect(fs.existsSync(calendar(dirs.two, only!))).toBe(true);

    // Both teams leave the event (their matches in it deleted); every other event but one is touched, so the run
    // renders on workers and the teams' organization is not whole.
    database.sqlite
      .prepare('DELETE FROM matches WHERE event_id = ? AND (home_team_id IN (?, ?) OR away_team_id IN (?, ?))')
      .run(event, elsewhere, only, elsewhere, only);
    database.sqlite.prepare('UPDATE events SET is_public = is_public WHERE id <> ?').run(untouched);

    const one = await regenerate(database.db, options(dirs.one, 1));
    const two = await regenerate(database.db, options(dirs.two, 2));
    expect(one.rendered).toBe(139);
    expect(one.workers).toBeUndefined();
    expect((two.workers as number[]).reduce((a, b) => a + b, 0)).toBe(14);
    expect({ ...two, ms: 0, workers: undefined }).toEqual({ ...one, ms: 0 });
    // The team with no public match left: its feed is the empty one (retired-feeds.ts), in the folders that had published it.
    expect(fs.readFileSync(calendar(dirs.two, only!), 'utf8')).toBe(retiredFeed(5).join(''));
    expect(fs.readFileSync(calendar(dirs.two, elsewhere!), 'utf8')).not.toContain(`.${event}@threads.example`);
    await regenerate(database.db, options(dirs.fresh, 1));
    expect(differences(dirs.one, dirs.two)).toEqual([]);
    // A fresh folder published no feed before: it has no empty ones (and its manifest records none).
    const retired = Object.keys((JSON.parse(fs.readFileSync(path.join(dirs.two, '.manifest.json'), 'utf8')) as Manifest).retired!.teams);
    expect(retired).toContain(only!);
    expect(differences(dirs.fresh, dirs.two)).toEqual(['.manifest.json', ...retired.flatMap((id) => ['', '.br', '.gz'].map((v) => teamCalendarPath(id) + v))].sort());
  }, 60_000);

  it("fails the run when a worker's file cannot be written: no manifest claims it", async () => {
    // The calling thread writes the workers' files (render-threads.ts): a directory where a team's calendar's .gz
    // goes makes that write fail, in the worker's organization and again when the calling thread renders it itself.
    const artifactsDir = path.join(dir, 'unwritable');
    const team = database.sqlite
      .prepare(`SELECT m.home_team_id AS id FROM matches m JOIN events e ON e.id = m.event_id
        WHERE e.is_public = 1 AND m.home_team_id IS NOT NULL ORDER BY m.id LIMIT 1`)
      .get() as { id: string };
    fs.mkdirSync(path.join(artifactsDir, `api/v0/teams/${team.id}.calendar.ics.gz`), { recursive: true });
    await expect(regenerate(database.db, options(artifactsDir, 2))).rejects.toThrow(/EISDIR|directory/);
    expect(fs.existsSync(path.join(artifactsDir, '.manifest.json'))).toBe(false);
  }, 60_000);

  describe('a worker that cannot help leaves its organizations to the calling thread', () => {
    /** Every public event's organization as a unit of work, grouped as the regeneration groups them. */
    async function allWork(): Promise<OrganizationWork[]> {
      const rows = await database.db
        .selectFrom('events as e')
        .innerJoin('leagues as l', 'l.id', 'e.league_id')
        .select(['e.id', 'e.revision', 'l.org_id'])
        .where('e.is_public', '=', 1)
        .orderBy('l.org_id')
        .orderBy('e.id')
        .execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return groupByOrganization(rows.map((r) => r.id), (id) => byId.get(id)!.org_id, (id) => byId.get(id)!.revision, () => true);
    }

    const settings = { uidDomain: 'threads.example', refreshMinutes: 5, previous: { events: {} } };

    it.each([
      ['its snapshot shows other events', () => file(), (heads: string) => `${heads}, and a change`, /snapshot differed/],
      ['it cannot open the database', () => path.join(dir, 'missing', 'app.db'), (heads: string) => heads, /^failed: /],
    ])('when %s', async (_case, databasePath, headsSeen, why) => {
      const works = await allWork();
      const root = path.join(dir, `fallback-${works.length}-${Math.random().toString(36).slice(2)}`);
      const store = new ArtifactStore(root);
      const outcome = await database.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        const heads = headsFingerprint(await listEventHeads(trx));
        return renderOrganizations(trx, works, store, settings, { databasePath: databasePath(), threads: 2, heads: headsSeen(heads) });
      });
      expect(outcome.workers).toHaveLength(2);
      for (const w of outcome.workers) expect(String(w)).toMatch(why);
      expect(outcome.workerStats.written).toBe(0);
      // The calling thread rendered every organization, each once.
      expect(outcome.results.map((r) => r.org).sort()).toEqual(works.map((w) => w.org).sort());
      expect(store.stats.written).toBeGreaterThan(140 * 3);
    }, 60_000);
  });
});
