
// Renders every public read from one consistent snapshot of the database into the artifacts directory.
// Events whose revision did not move since the last run are skipped without reading their matches,
// so a quiet minute costs one small query. Files are written only when their bytes change.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { sql } from 'kysely';
import { ownValue, pushInto } from '../collections.js';
import { ConfigError, type Config } from '../config.js';
import type { Db } from '../db/connect.js';
import { calendarFeed } from '../competitions/calendar-feed.js';
import { compareEvents } from '../competitions/encoders.js';
import { listEventHeads, loadEvents, streamMatchesByEvent, TeamLookup } from '../competitions/queries.js';
import { compareCodeUnits } from '../competitions/tiebreakers.js';
import { buildOpenApiDocument } from '../api/openapi/document.js';
import { groupByOrganization, putTeamCalendar, type ManifestEvent, type RenderSettings } from './render-organization.js';
import { waitForFolderLock } from './folder-lock.js';
import { headsFingerprint, renderOrganizations } from './render-threads.js';
import { markFailed, markRunning, stoppedRuns } from './run-marker.js';
import { ArtifactStore, writeFileAtomic } from './store.js';
import { artifactPaths, CALENDAR_DIR, EVENTS_DIR, EVENTS_LIST_PATH, OPENAPI_PATH, TEAMS_DIR, teamCalendarPath } from './routes.js';
import { installationDigest, type FolderRecord } from './folder-record.js';
import { folderToken, newFolderId, raiseRestoredCalendars, recordFolderToken, renderTokenOf, wentBack } from './restored-calendars.js';
import { retiredFeed, retiredIds } from './retired-feeds.js';
import { TeamCalendars, teamsByMatch } from './team-calendars.js';

export type { ManifestEvent } from './render-organization.js';

/** Bump when the renderers change output for the same data: every event is then rendered again. */
// 2: team calendars (a manifest of version 1 knows no teams: everything is rendered once more).
// 3: undecided slots numbered among ties, tables under all_meetings_played and away_wins, Arabic-Indic group numbers and
// names without direction marks in order.
// 4: every rule field of the standings and bracket present (null when unused); calendars: NAME, an empty one's
// VTIMEZONE, Arabic lines right to left with their names isolated, "Round of 16 (5)".
// 5: the ids and names the other endpoints need: a standings row's team_id; a bracket slot's team_name, kickoff_at,
// score and penalties; an event's org_id and timezone (the event list is built from the entries this renders).
// 6: a bracket slot's team_name is the team's name, as club_name and champion_name (it was the calendars' localized one);
// an Arabic feed's name starts with U+200F, as its other lines.
// 7: each event's entry records the highest SEQUENCE it rendered (a restored database is raised past it); Arabic feeds'
// names isolated, their walkovers and penalties worded anew.
// 8: the JSON reads' Arabic names beside their names (event_name_ar, league_name_ar, champion_name_ar, club_name_ar,
// team_name_ar); a bracket slot's round_name, walkover and after_extra_time.
// 9: an event's organization's language.
export const RENDER_VERSION = 9;
/** What the last run rendered, and the content hash of each file: the publisher reads it too. */
export const MANIFEST = '.manifest.json';

export interface Manifest {
  renderVersion: number;
  /** The id of the database that rendered the folder (its installation row): another one must not render over it. */
  installation?: string;
  /** Inputs outside the database that change the events' output (the UIDs' domain, the refresh interval). */
  settings: string;
  /** The folder's own id, and its token: written with each manifest that changes, and into the database (restored-calendars.ts). */
  folder?: string;
  renderToken?: string;
  listHash?: string;
  /** Content hash of the OpenAPI document: rewritten only when the code or the base URL changes it. */
  openapiHash?: string;
  events: Record<string, ManifestEvent>;
  /** Content hash of each team calendar. */
  teams?: Record<string, string>;
  /** Content hash of each retired feed (retired-feeds.ts), by competition and by team. */
  retired?: { calendars: Record<string, string>; teams: Record<string, string> };
}

export interface RegenerateOptions {
  artifactsDir: string;
  /** The server named by the API document. */
  publicBaseUrl: string;
  /** The domain of every calendar UID: fixed for the life of the database (uid-domain.ts). */
  uidDomain: string;
  refreshMinutes: number;
  /** The database's file: render workers open their own connections to it (render-threads.ts). */
  databasePath?: string;
  /** Render threads: 1 (the default) renders on the calling thread; more start that many workers, given databasePath. */
  threads?: number;
  /** How long to wait for another process's render of this folder (default RENDER_LOCK_WAIT_MS; tests shorten it). */
  lockWaitMs?: number;
  /** Aborted: stop waiting for that render (the server stopping); a render under way finishes. */
  signal?: AbortSignal;
  /**
   * The folder's record kept in the bucket (folder-record.ts), read by the first render into a folder with no manifest;
   * null when the bucket has none, why when it could not be read. Given when a bucket is configured (jobs/regenerate.ts).
   */
  folderRecord?: () => Promise<FolderRecord | null | string>;
}

export function regenerateOptions(config: Config, uidDomain: string): RegenerateOptions {
  return {
    artifactsDir: config.artifactsDir,
    databasePath: config.databasePath,
    threads: config.regenerateThreads,
    publicBaseUrl: config.publicBaseUrl,
    uidDomain,
    // Every process that renders (the server, a cron job, a command) must say the same, or each rewrites every feed.
    refreshMinutes: config.calendarRefreshMinutes,
  };
}

export interface RegenerateResult {
  events: number;
  rendered: number;
  written: number;
  unchanged: number;
  removed: number;
  ms: number;
  /** Organizations each render worker rendered, or why it rendered none (absent: the run rendered on its own thread). */
  workers?: Array<number | string>;
  /** Competitions found behind what the folder last rendered (a database restored): their calendars raised. */
  restored?: number;
  /** The folder had no manifest, and its record in the bucket was found (true), or could not be read (why). */
  recordFromBucket?: true | string;
}

/** The last run's manifest as written (an empty one when there is none or it cannot be read). */
function readManifest(file: string, settings: string): Manifest {
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    return { ...m, events: m.events ?? {}, teams: m.teams ?? {} };
  } catch {
    return { renderVersion: RENDER_VERSION, settings, events: {}, teams: {} };
  }
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * The manifest with every content hash forgotten ('' is no content's hash) and every file and team kept: after a run
 * that stopped before its manifest, every artifact rendered is written whatever the manifest says it holds, and
 * what the manifest lists is still removed when it goes.
 */
function withoutHashes(m: Manifest): Manifest {
  const none = (hashes: Record<string, string>) => Object.fromEntries(Object.keys(hashes).map((key) => [key, '']));
  const events = Object.fromEntries(Object.entries(m.events).map(([id, e]) => [id, { ...e, files: none(e.files) }]));
  const retired = { calendars: none(m.retired?.calendars ?? {}), teams: none(m.retired?.teams ?? {}) };
  return { renderVersion: m.renderVersion, settings: m.settings, events, teams: none(m.teams ?? {}), retired };
}

/** Event ids that have files on disk, whatever the manifest says. */
function listRenderedEventIds(root: string): Set<string> {
  const ids = new Set<string>();
  const read = (dir: string) => {
    try {
      return fs.readdirSync(path.join(root, dir));
    } catch {
      return [];
    }
  };
  for (const name of read(EVENTS_DIR)) ids.add(name);
  for (const name of read(CALENDAR_DIR)) {
    const id = /^([^.]+)\.ics/.exec(name)?.[1];
    if (id) ids.add(id);
  }
  return ids;
}

/** Team ids that have a calendar on disk. */
function listRenderedTeamIds(root: string): string[] {
  try {
    return fs.readdirSync(path.join(root, TEAMS_DIR)).flatMap((name) => /^([^.]+)\.calendar\.ics$/.exec(name)?.[1] ?? []);
  } catch {
    return [];
  }
}

/** In ARTIFACTS_DIR/.locks while a render runs (folder-lock.ts). */
export const RENDER_LOCK = 'render.lock';
/** How long a render waits for another one (a full render of 2,000 events takes about 10 s). */
export const RENDER_LOCK_WAIT_MS = 5 * 60_000;

/** Another process's render held the folder for all of this one's wait. */
export class RenderLockHeldError extends Error {
  constructor(readonly holder: number, artifactsDir: string, waitedMs: number) {
    const who = holder ? `pid ${holder}` : 'its process unknown';
    super(
      waitedMs >= 60_000
        ? `another render (${who}) has held ${artifactsDir} for ${Math.round(waitedMs / 60_000)} min and more: is it stuck?`
        : `another render (${who}) is rendering ${artifactsDir}`,
    );
  }
}

/**
 * ARTIFACTS_DIR holds the reads another database rendered. Rendering this one there would remove every one of them
 * that this database does not have, and a publish would delete them from the bucket: a review's start with a mistyped
 * DATABASE_PATH loaded the demo into the new, empty database, and its publish deleted every real object.
 */
export class ForeignArtifactsError extends ConfigError {
  constructor(artifactsDir: string, databasePath: string | undefined) {
    super(
      `ARTIFACTS_DIR (${artifactsDir}) holds the reads rendered from another database than ${databasePath === undefined ? 'this one' : `DATABASE_PATH (${databasePath})`}; ` +
        'rendering this one there would remove them (and, once published, from the bucket): check DATABASE_PATH, ' +
        'or give this database an ARTIFACTS_DIR of its own (an empty folder)',
    );
  }
}

/**
 * Refuses (ForeignArtifactsError) when the folder's last render came from another database than `installation`. A
 * folder with no render yet, or one rendered before the manifest named its database, belongs to whichever renders it.
 */
export function checkArtifactsBelong(artifactsDir: string, installation: string, databasePath: string | undefined): void {
  const rendered = renderedBy(artifactsDir);
  if (rendered !== undefined && rendered !== installation) throw new ForeignArtifactsError(artifactsDir, databasePath);
}

/** The installation id the folder's manifest names: undefined with no render yet, or one from before it was named. */
function renderedBy(artifactsDir: string): string | undefined {
  return readManifest(path.join(artifactsDir, MANIFEST), '').installation;
}

/**
 * checkArtifactsBelong before the database is opened, made or migrated (npm start): a DATABASE_PATH with no file
 * there would be a new database, another one. Refused then, the start leaves nothing behind (a review's refused start
 * had made and migrated the mistyped database, and made every waiting email of a real one due at once).
 */
export function checkArtifactsBelongBeforeOpening(artifactsDir: string, databasePath: string): void {
  if (renderedBy(artifactsDir) === undefined) return;
  if (!fs.existsSync(databasePath)) throw new ForeignArtifactsError(artifactsDir, databasePath);
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  let installation: string | undefined;
  try {
    installation = (db.prepare('SELECT id FROM installation').get() as { id: string } | undefined)?.id;
  } catch {
    return; // a database from before migration 0002 has no id yet: the render checks once it has one
  } finally {
    db.close();
  }
  if (installation !== undefined) checkArtifactsBelong(artifactsDir, installation, databasePath);
}

export async function regenerate(db: Db, options: RegenerateOptions): Promise<RegenerateResult> {
  fs.mkdirSync(options.artifactsDir, { recursive: true });
  // One render at a time per folder (the server's loop and cron's `npm run regenerate`): side by side, an older
  // snapshot's file written after a newer one's, under the newer run's manifest, would be taken as current by every
  // later run and never rewritten. The second waits, then renders from a snapshot taken once it holds the lock: it
  // renders what changed since the first one's snapshot (an import just before `npm run regenerate` included).
  const waitMs = options.lockWaitMs ?? RENDER_LOCK_WAIT_MS;
  const lock = await waitForFolderLock(options.artifactsDir, RENDER_LOCK, { timeoutMs: waitMs, signal: options.signal });
  if ('holder' in lock) throw new RenderLockHeldError(lock.holder, options.artifactsDir, waitMs);
  const run: RunMark = { marker: null };
  try {
    return await render(db, options, run);
  } catch (error) {
    // Whatever it wrote, the manifest does not say: every process must take it for a stopped run (run-marker.ts).
    if (run.marker) markFailed(run.marker);
    throw error;
  } finally {
    lock.release();
  }
}

/** The marker of a run, once it changed a file (run-marker.ts). */
interface RunMark {
  marker: string | null;
}

async function render(db: Db, options: RegenerateOptions, run: RunMark): Promise<RegenerateResult> {
  const started = performance.now();
  const root = options.artifactsDir; // made by regenerate(), before its lock
  const manifestFile = path.join(root, MANIFEST);
  const settings = json({ uid: options.uidDomain, refresh: options.refreshMinutes });
  const { id: installation } = await db.selectFrom('installation').select('id').executeTakeFirstOrThrow();
  checkArtifactsBelong(root, installation, options.databasePath);
  // A run that stopped between its first file and its manifest (run-marker.ts): render and write everything again.
  const stopped = stoppedRuns(root);
  const written = readManifest(manifestFile, settings);
  // A folder with no manifest (ARTIFACTS_DIR new or emptied, a new machine): what the bucket keeps of the folder it
  // published, if this database did, stands in for the manifest in the restore check alone (its folder, token and
  // SEQUENCEs); the new folder takes an id of its own below (folder-record.ts).
  const fromBucket = written.folder === undefined ? await recordInBucket(options, installation) : null;
  const identity = fromBucket !== null && typeof fromBucket !== 'string' ? { installation, ...fromBucket } : written;
  // A database restored from a backup: its calendars raised past what was rendered since (restored-calendars.ts).
  const restored = wentBack(identity, { installation, token: await folderToken(db, identity.folder) })
    ? await raiseRestoredCalendars(db, identity.events, new Date())
    : 0;
  const previous = stopped.length === 0 ? written : withoutHashes(written);
  // A manifest from another render version or settings still tells which files exist (to remove them),
  // but none of its revisions can be trusted.
  const trusted = stopped.length === 0 && previous.renderVersion === RENDER_VERSION && previous.settings === settings;
  const store = new ArtifactStore(root);
  store.beforeFirstChange = () => {
    run.marker = markRunning(root);
  };
  const next: Manifest = {
    renderVersion: RENDER_VERSION, installation, settings, folder: written.folder ?? newFolderId(), renderToken: written.renderToken, events: {}, teams: {},
  };
  /** Teams whose calendar must be rendered again: they play in an event rendered, removed or made private. */
  const staleTeams = new Set<string>();
  /** Teams whose calendar an organization rendered whole already wrote. */
  const writtenTeams = new Set<string>();
  let rendered = 0;
  let workers: Array<number | string> = [];
  const renderSettings: RenderSettings = { uidDomain: options.uidDomain, refreshMinutes: options.refreshMinutes, previous };

  /**
   * The calendars of the stale teams not written yet, one organization at a time: its events that those teams play
   * in are read (again, for those rendered above: memory holds one organization's matches), then each team's feed
   * is written.
   */
  async function renderTeamCalendars(trx: Db, stale: ReadonlySet<string>, orgOf: ReadonlyMap<string, string>): Promise<void> {
    const eventsOfTeam = new Map<string, string[]>();
    for (const [eventId, e] of Object.entries(next.events)) {
      for (const t of e.teams ?? []) if (stale.has(t)) pushInto(eventsOfTeam, t, eventId);
    }
    if (eventsOfTeam.size === 0) return;
    const byOrg = new Map<string, { events: Set<string>; teams: string[] }>();
    for (const [teamId, eventIds] of eventsOfTeam) {
      const org = orgOf.get(eventIds[0]!)!;
      const group = byOrg.get(org) ?? { events: new Set<string>(), teams: [] };
      for (const id of eventIds) group.events.add(id);
      group.teams.push(teamId);
      byOrg.set(org, group);
    }
    for (const group of byOrg.values()) {
      const collector = new TeamCalendars();
      const teamLookup = new TeamLookup();
      const ids = [...group.events].sort();
      const facts = new Map((await loadEvents(trx, ids)).map((e) => [e.id, e]));
      for await (const { eventId, matches } of streamMatchesByEvent(trx, ids)) {
        const event = facts.get(eventId);
        if (!event) continue;
        const teams = await teamLookup.of(trx, matches);
        const feed = calendarFeed(event, matches, teams, renderSettings);
        collector.add(event, teamsByMatch(event, matches, teams), teams, feed);
      }
      for (const teamId of group.teams.sort()) next.teams![teamId] = putTeamCalendar(store, collector, teamId, eventsOfTeam.get(teamId)!, renderSettings);
    }
  }

  // One read transaction: every artifact of this run comes from the same snapshot (WAL isolation; a render worker
  // renders only from a snapshot that shows the same events at the same revisions).
  await db.transaction().execute(async (trx) => {
    await sql`SELECT 1`.execute(trx);
    const allHeads = await listEventHeads(trx);
    const heads = new Map(allHeads.filter((h) => h.is_public).map((h) => [h.id, h]));
    const stale: string[] = [];
    for (const head of heads.values()) {
      const before = ownValue(previous.events, head.id);
      if (trusted && before && before.revision === head.revision) next.events[head.id] = before;
      else stale.push(head.id);
    }

    // The unit of work is an organization (render-organization.ts); one whose public events are all rendered in
    // this run gets its teams' calendars from them at once.
    const orgOf = new Map(
      (await trx.selectFrom('events as e').innerJoin('leagues as l', 'l.id', 'e.league_id').select(['e.id', 'l.org_id']).execute())
        .map((r) => [r.id, r.org_id]),
    );
    const staleIds = new Set(stale);
    const partlyFresh = new Set([...heads.keys()].filter((id) => !staleIds.has(id)).map((id) => orgOf.get(id)));
    stale.sort((a, b) => compareCodeUnits(orgOf.get(a) ?? '', orgOf.get(b) ?? '') || compareCodeUnits(a, b));
    const works = groupByOrganization(
      stale,
      (id) => orgOf.get(id) ?? '',
      (id) => heads.get(id)!.revision,
      (org) => !partlyFresh.has(org),
    );

    const outcome = await renderOrganizations(trx, works, store, renderSettings, {
      databasePath: options.databasePath,
      threads: options.threads ?? 1,
      heads: headsFingerprint(allHeads),
    });
    workers = outcome.workers;
    for (const key of ['written', 'unchanged', 'removed'] as const) store.stats[key] += outcome.workerStats[key];
    for (const r of outcome.results) {
      Object.assign(next.events, r.events);
      rendered += Object.keys(r.events).length;
      for (const t of r.staleTeams) staleTeams.add(t);
      for (const [t, hash] of Object.entries(r.teams)) {
        next.teams![t] = hash;
        writtenTeams.add(t);
      }
    }

    // Teams of events that are gone (private or removed) lose those matches too.
    for (const [eventId, before] of Object.entries(previous.events)) {
      if (!heads.has(eventId)) for (const t of before.teams ?? []) staleTeams.add(t);
    }
    await renderTeamCalendars(trx, new Set([...staleTeams].filter((t) => !writtenTeams.has(t))), orgOf);
  });

  for (const [teamId, hash] of Object.entries(previous.teams ?? {})) {
    if (!staleTeams.has(teamId) && trusted) next.teams![teamId] = hash;
  }

  const list = Object.values(next.events)
    .map((e) => e.entry)
    .sort(compareEvents);
  next.listHash = store.put(EVENTS_LIST_PATH, json(list), previous.listHash);
  next.openapiHash = store.put(OPENAPI_PATH, json(buildOpenApiDocument({ serverUrl: options.publicBaseUrl })), previous.openapiHash);

  // The feeds published before whose competition or team is no longer public: an empty calendar in their place.
  const retiring = retiredIds(previous, next);
  const emptyFeed = retiredFeed(options.refreshMinutes);
  const retired: NonNullable<Manifest['retired']> = { calendars: {}, teams: {} };
  for (const id of retiring.calendars) retired.calendars[id] = store.put(artifactPaths(id).calendar, emptyFeed, ownValue(previous.retired?.calendars, id));
  for (const id of retiring.teams) retired.teams[id] = store.put(teamCalendarPath(id), emptyFeed, ownValue(previous.retired?.teams, id));
  next.retired = retired;
  const kept = new Set([...retiring.calendars.map((id) => artifactPaths(id).calendar), ...retiring.teams.map(teamCalendarPath)]);

  // Events that became private or were removed: their other artifacts go. The directories are swept too,
  // so nothing private survives a lost or stale manifest.
  for (const [eventId, before] of Object.entries(previous.events)) {
    if (ownValue(next.events, eventId)) continue;
    for (const rel of Object.keys(before.files)) if (!kept.has(rel)) store.remove(rel);
  }
  for (const eventId of listRenderedEventIds(root)) {
    if (ownValue(next.events, eventId)) continue;
    for (const rel of Object.values(artifactPaths(eventId))) if (!kept.has(rel)) store.remove(rel);
  }
  // A team with no public match left has no calendar of its matches (whatever the manifest remembers).
  for (const teamId of listRenderedTeamIds(root)) {
    if (!ownValue(next.teams, teamId) && !kept.has(teamCalendarPath(teamId))) store.remove(teamCalendarPath(teamId));
  }

  store.flush();
  // Keys in order: the manifest's bytes do not depend on which thread finished first.
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => compareCodeUnits(a, b)));
  next.events = sorted(next.events);
  next.teams = sorted(next.teams ?? {});
  if (Object.keys(retired.calendars).length + Object.keys(retired.teams).length === 0) delete next.retired;
  // A manifest that changes gets a new token, the database with it: a quiet run writes neither.
  if (json(next) !== json(written) || restored > 0) {
    next.renderToken = renderTokenOf(next);
    writeFileAtomic(manifestFile, json(next));
    await recordFolderToken(db, next.folder!, next.renderToken);
  }
  // The manifest describes the files again: this run's marker goes, and those of the runs that stopped before it.
  for (const file of [...stopped, ...(run.marker ? [run.marker] : [])]) fs.rmSync(file, { force: true });
  return {
    events: Object.keys(next.events).length,
    rendered,
    ...store.stats,
    ms: Math.round(performance.now() - started),
    ...(workers.length > 0 ? { workers } : {}),
    ...(restored > 0 ? { restored } : {}),
    ...(fromBucket === null ? {} : { recordFromBucket: typeof fromBucket === 'string' ? fromBucket : true }),
  };
}

/**
 * The folder's record in the bucket when this database published it; null when there is none (or none of this
 * database's); why, when it could not be read (the store down, the key may not, a shape this release does not read):
 * the render goes on without it, since serving never waits for the store, and its line says so.
 */
async function recordInBucket(options: RegenerateOptions, installation: string): Promise<Omit<FolderRecord, 'installation'> | null | string> {
  if (!options.folderRecord) return null;
  const record = await options.folderRecord();
  if (typeof record === 'string') return record;
  if (record === null || record.installation !== installationDigest(installation)) return null;
  const { installation: _digest, ...rest } = record;
  return rest;
}

export function formatResult(r: RegenerateResult): string {
  return (
    `regenerated: ${r.events} events (${r.rendered} rendered), files written ${r.written} / ` +
    `unchanged ${r.unchanged} / removed ${r.removed}, ${r.ms} ms` +
    (r.workers ? ` (render workers: ${r.workers.map((w) => (typeof w === 'number' ? `${w} organizations` : w)).join(', ')})` : '') +
    (r.restored ? `; ${r.restored} competitions behind the last render (a database restored?): their calendars' SEQUENCE raised past it` : '') +
    (typeof r.recordFromBucket === 'string'
      ? `; the folder's record in the bucket could not be read (${r.recordFromBucket}): a database restored from a backup is not looked for`
      : '')
  );
}
