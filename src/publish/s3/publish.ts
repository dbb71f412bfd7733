// Publishing the rendered reads to a bucket a CDN serves: every read URL an object whose key is the URL's path,
// holding exactly the bytes the node server serves uncompressed, with its Content-Type and Cache-Control.
// - Only what changed: the regeneration's manifest gives each file's content hash; the publisher records what it
//   has put (a state file beside the artifacts) and puts a file only when its hash differs. A quiet run sends nothing.
// - Order: objects no longer rendered (an event made private or removed) are deleted first, whatever the puts do
//   after: a put that keeps failing never keeps a private event's objects public. Then the event list, as soon as
//   every object of every event it names is in the bucket (at once when it names no new event, so that it stops
//   naming the one made private; otherwise once their details are put), then the details. A list put never names
//   an object missing from the bucket; the list a run replaces may name the deleted ones until then.
// - What it reads: the manifest of the last render that completed, and of each file only the bytes that manifest
//   gives the hash of. A render running meanwhile (the server's own, or cron's) may have replaced a file since: that
//   object is left to the next publish (superseded, not a failure), never put with bytes of a render unfinished.
// - The CDN's answer for an id the bucket does not hold: the bucket says 403 or 404 in its own shape, so the CDN
//   maps both to NOT_FOUND_KEY, the API's 404 problem, which is published here with the reads (README).
// - Faults: a failed put is not recorded, so the next run tries it again; nothing here touches the local files.
import fs from 'node:fs';
import path from 'node:path';
import { READ_CACHE_CONTROL } from '../../http/headers.js';
import { problemBody } from '../../http/problem.js';
import { FOLDER_RECORD_KEY, folderRecordOf, installationDigest } from '../folder-record.js';
import { MANIFEST, type Manifest } from '../regenerate.js';
import { artifactPaths, CONTENT_TYPES, EVENTS_LIST_PATH, matchArtifactRoute, OPENAPI_PATH, teamCalendarPath, urlKeyOf } from '../routes.js';
import { takeFolderLock } from '../folder-lock.js';
import { contentHash, writeFileAtomic } from '../store.js';
import type { ObjectStore } from './object-store.js';

/** Beside the artifacts: the key → content hash of every object put, for one destination. */
export const PUBLISHED_STATE = '.published-s3.json';

interface PublishedState {
  destination: string;
  /** key → content hash put, or PENDING. */
  objects: Record<string, string>;
  /** The render token of the folder record last put (FOLDER_RECORD_KEY). */
  folderRecord?: string;
}

/** A key a run set out to put and may have: the object may be in the bucket, with bytes not known. */
const PENDING = '';

export interface PublishResult {
  put: number;
  unchanged: number;
  deleted: number;
  failed: number;
  /** Objects to put that were not tried: the store had failed already. */
  untried: number;
  /** Objects whose file a render replaced or removed since the manifest this run read: left to the next publish. */
  superseded: number;
  /** The first failure, in words. */
  problem: string | null;
  /** Why nothing was done this run, when another publish was running. */
  skipped?: string;
  /** Something the operator should know that did not stop the run. */
  notice?: string;
  ms: number;
}

const LIST_KEY = 'api/v0/events';
const PARALLEL = 8;
/**
 * Puts between two saves of the record during a run: a first publish killed midway (a deploy, cron's run killed)
 * then resumes from its last save instead of putting every object again (39,461 for the bench's dataset, a
 * minute). A save of that record is 2.8 MB: about 40 of them in such a publish.
 */
const SAVE_EVERY_PUTS = 1000;

/** The object the CDN answers with, status 404, when the bucket has no object for a read URL. */
export const NOT_FOUND_KEY = 'errors/not-found.json';
/** Its headers: the node server's problem type, and cached briefly (an id may be published a minute later). */
export const NOT_FOUND_CONTENT_TYPE = 'application/problem+json';
export const NOT_FOUND_CACHE_CONTROL = 'public, max-age=10';
const NOT_FOUND_BODY = Buffer.from(JSON.stringify(problemBody(404, 'No public event or team has this id.')));

/** An object to put: where its bytes come from, the hash they must have, its headers. */
interface Wanted {
  hash: string;
  /** The rendered file holding it (checked against the hash when read), or its fixed bytes. */
  source: { file: string } | { body: Buffer };
  contentType: string;
  cacheControl: string;
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Every file the manifest says was rendered, with its content hash. */
function renderedFiles(manifest: Manifest): Map<string, string> {
  const files = new Map<string, string>();
  for (const e of Object.values(manifest.events)) for (const [file, hash] of Object.entries(e.files)) files.set(file, hash);
  for (const [teamId, hash] of Object.entries(manifest.teams ?? {})) files.set(teamCalendarPath(teamId), hash);
  for (const [eventId, hash] of Object.entries(manifest.retired?.calendars ?? {})) files.set(artifactPaths(eventId).calendar, hash);
  for (const [teamId, hash] of Object.entries(manifest.retired?.teams ?? {})) files.set(teamCalendarPath(teamId), hash);
  if (manifest.listHash) files.set(EVENTS_LIST_PATH, manifest.listHash);
  if (manifest.openapiHash) files.set(OPENAPI_PATH, manifest.openapiHash);
  return files;
}

/**
 * The objects of a rendered file: its read URL's key, and for a feed the same key with `.ics` too
 * (`/api/v0/calendar/ID.ics` and `/api/v0/teams/ID/calendar.ics` are the same feeds on the node server: calendar apps
 * and people add `.ics`; through a bucket, each is an object of its own). None for a file that is no read.
 */
function objectKeys(file: string): { keys: string[]; contentType: string } | null {
  const url = urlKeyOf(file);
  if (!url) return null;
  return { keys: url.contentType === CONTENT_TYPES.ics ? [url.key, `${url.key}.ics`] : [url.key], contentType: url.contentType };
}

/** The keys of the retired feeds (both addresses of each). */
function retiredFeedKeys(manifest: Manifest): Set<string> {
  const files = [
    ...Object.keys(manifest.retired?.calendars ?? {}).map((id) => artifactPaths(id).calendar),
    ...Object.keys(manifest.retired?.teams ?? {}).map(teamCalendarPath),
  ];
  return new Set(files.flatMap((file) => objectKeys(file)?.keys ?? []));
}

/** A file's bytes, or null when it is gone (a render removed it since the manifest). */
function readIfPresent(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The keys of every event the manifest's event list names: what must be in the bucket before that list. */
function listedKeys(manifest: Manifest, wanted: ReadonlyMap<string, unknown>): Set<string> {
  const keys = new Set<string>();
  for (const e of Object.values(manifest.events)) {
    for (const file of Object.keys(e.files)) {
      for (const key of objectKeys(file)?.keys ?? []) if (wanted.has(key)) keys.add(key);
    }
  }
  return keys;
}

/** A key this publisher puts: a read URL's path (matchArtifactRoute's), or the not-found problem. */
function isReadKey(key: string): boolean {
  if (key === NOT_FOUND_KEY) return true;
  const route = matchArtifactRoute(`/${key}`);
  return route !== null && route.kind !== 'bad-id';
}

/** The Content-Disposition the node server gives a calendar (`ID.ics`), as object metadata. */
function calendarDisposition(key: string): { contentDisposition?: string } {
  const id = /^api\/v0\/calendar\/([^/.]+)(?:\.ics)?$/.exec(key)?.[1] ?? /^api\/v0\/teams\/([^/]+)\/calendar(?:\.ics)?$/.exec(key)?.[1];
  return id ? { contentDisposition: `inline; filename="${id}.ics"` } : {};
}

/** Runs `run` over the items, PARALLEL at a time, starting no new one once `stop()` says so. */
async function inParallel<T>(items: readonly T[], run: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
    while (next < items.length && !stop()) await run(items[next++]!);
  }));
}

/** In ARTIFACTS_DIR/.locks while a publish runs (folder-lock.ts): a second one (cron beside the server) skips. */
export const PUBLISH_LOCK = 'published-s3.lock';

export async function publishArtifacts(artifactsDir: string, store: ObjectStore): Promise<PublishResult> {
  const result: PublishResult = { put: 0, unchanged: 0, deleted: 0, failed: 0, untried: 0, superseded: 0, problem: null, ms: 0 };
  if (!fs.existsSync(path.join(artifactsDir, MANIFEST))) return { ...result, problem: 'nothing rendered yet' };
  // Two publishes at once (cron's `npm run regenerate` beside the server's loop) each write the record of what was
  // put from what they read before: the last one to write drops what the other put, and an object the record does
  // not name is never deleted (an event made private then stays in the bucket). One at a time; the other says so and
  // leaves the work to the next run.
  const lock = takeFolderLock(artifactsDir, PUBLISH_LOCK);
  if ('holder' in lock) return { ...result, skipped: `another publish is running (${lock.holder ? `pid ${lock.holder}` : 'its process unknown'}); the next run sends what changed` };
  try {
    return await publishLocked(artifactsDir, store, result);
  } finally {
    lock.release();
  }
}

/** Which database published a bucket's reads: a digest of its installation id (the object may be public), under a key no read has. */
export const PUBLISHED_BY_KEY = '.competitions/published-by';

/**
 * Checks, then records, that the bucket's reads are `installation`'s: 'refused' (the result says why) when another
 * database published them. A bucket without the record (a first publish, or one from before it) takes this one's. A key
 * that may not read objects is let through unchecked, as one that may not list is.
 */
async function claimBucket(
  store: ObjectStore,
  installation: string | undefined,
  fail: (what: string, error: unknown) => void,
): Promise<'ok' | 'refused'> {
  if (installation === undefined) return 'ok'; // a render from before the manifest named its database
  const mine = installationDigest(installation);
  let found: string | null;
  try {
    found = await store.get(PUBLISHED_BY_KEY);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'AccessDenied') return 'ok';
    fail(`read ${PUBLISHED_BY_KEY}`, error);
    return 'refused';
  }
  if (found !== null && found.trim() !== mine) {
    fail(
      `the bucket holds the reads another database published (${PUBLISHED_BY_KEY} names another)`,
      'nothing put or deleted; check DATABASE_PATH, or publish this database elsewhere (PUBLISH_S3_BUCKET, PUBLISH_S3_PREFIX)',
    );
    return 'refused';
  }
  if (found === null) {
    try {
      await store.put({ key: PUBLISHED_BY_KEY, body: Buffer.from(`${mine}\n`), contentType: 'text/plain; charset=utf-8', cacheControl: 'no-store' });
    } catch (error) {
      fail(`put ${PUBLISHED_BY_KEY}`, error);
      return 'refused';
    }
  }
  return 'ok';
}

async function publishLocked(artifactsDir: string, store: ObjectStore, result: PublishResult): Promise<PublishResult> {
  const started = performance.now();
  const manifest = readJson<Manifest>(path.join(artifactsDir, MANIFEST));
  if (!manifest) return { ...result, problem: 'nothing rendered yet', ms: 0 };
  const stateFile = path.join(artifactsDir, PUBLISHED_STATE);
  const saved = readJson<PublishedState>(stateFile);
  const fail = (what: string, error: unknown) => {
    result.failed++;
    result.problem ??= `${what}: ${error instanceof Error ? error.message : String(error)}`;
  };
  // Another bucket, prefix or endpoint, or no record at all (ARTIFACTS_DIR new or emptied, a new machine), starts
  // from what the bucket holds: every read object already there is pending, so that one this run no longer renders
  // (an event made private or removed meanwhile) is deleted, not left public for good. Other keys are not ours.
  let state: PublishedState;
  if (saved?.destination === store.destination) state = saved;
  else {
    // About to take every read object of the bucket for this folder's (and delete what it does not render): first,
    // that the bucket's reads are this database's. A review's mistyped DATABASE_PATH on a new machine rendered the
    // demo into an empty folder, and its first publish deleted every real object.
    const owner = await claimBucket(store, manifest.installation, fail);
    if (owner === 'refused') return { ...result, ms: Math.round(performance.now() - started) };
    state = { destination: store.destination, objects: {} };
    try {
      for (const key of await store.list()) if (isReadKey(key)) state.objects[key] = PENDING;
    } catch (error) {
      // A key allowed to put and delete only (as this README advised before the listing): publish as before, and say
      // what it cannot do. Any other failure (down, no such bucket) stops the run here.
      if ((error as { code?: unknown }).code !== 'AccessDenied') {
        fail('list the bucket', error);
        return { ...result, ms: Math.round(performance.now() - started) };
      }
      result.notice = 'the key may not list the bucket (AccessDenied), so read objects no record names were not looked for; allow it s3:ListBucket';
    }
  }
  // A store that refused or did not answer one request (down, slow, wrong credentials, no such bucket) would refuse
  // the next ones alike: once one fails, no further request starts, so a first publish of 20,000 objects to a store
  // that hangs costs the few requests in flight, not 20,000 time limits, and the publish ends.
  let storeFailed = false;

  const wanted = new Map<string, Wanted>();
  for (const [file, hash] of renderedFiles(manifest)) {
    const objects = objectKeys(file);
    if (!objects) continue;
    const object: Wanted = { hash, source: { file }, contentType: objects.contentType, cacheControl: READ_CACHE_CONTROL };
    for (const key of objects.keys) wanted.set(key, object);
  }
  wanted.set(NOT_FOUND_KEY, {
    hash: contentHash(NOT_FOUND_BODY), source: { body: NOT_FOUND_BODY }, contentType: NOT_FOUND_CONTENT_TYPE, cacheControl: NOT_FOUND_CACHE_CONTROL,
  });
  const putOne = async (key: string) => {
    const { hash, source, contentType, cacheControl } = wanted.get(key)!;
    try {
      const body = 'body' in source ? source.body : readIfPresent(path.join(artifactsDir, source.file));
      // A file a render replaced or removed since the manifest (one running now, or one that stopped before its
      // manifest) is not what the manifest says: the next publish sends what the next manifest says. Each file is
      // replaced whole (renamed into place), so the bytes read are one render's or another's, never a mix.
      if (body === null || contentHash(body) !== hash) {
        result.superseded++;
        return;
      }
      try {
        await store.put({ key, body, contentType, cacheControl, ...calendarDisposition(key) });
      } catch (error) {
        storeFailed = true;
        throw error;
      }
      state.objects[key] = hash;
      result.put++;
      if (result.put % SAVE_EVERY_PUTS === 0) writeFileAtomic(stateFile, JSON.stringify(state), { durable: true });
    } catch (error) {
      fail(`put ${key}`, error);
    }
  };
  const changed = [...wanted.keys()].filter((k) => state.objects[k] !== wanted.get(k)!.hash);
  result.unchanged = wanted.size - changed.length;
  // Recorded before the first request, durably: every object this run may put, as "maybe in the bucket, bytes
  // unknown" (PENDING). A run killed midway, or a put that timed out after the store took it, leaves objects the
  // state would otherwise not know of: an event made private next would then never be deleted from the bucket. A
  // pending key is put again while it is wanted, and deleted once it is not.
  const was = new Map(changed.map((k) => [k, state.objects[k]]));
  if (changed.length > 0) {
    for (const k of changed) state.objects[k] = PENDING;
    writeFileAtomic(stateFile, JSON.stringify(state), { durable: true });
  }
  // Gone objects first (an event made private), whatever the puts below do. A feed retired (retired-feeds.ts) is
  // deleted with them before its empty calendar is put: a put that fails must not leave its matches public.
  const retiredKeys = retiredFeedKeys(manifest);
  const replaced = changed.filter((k) => retiredKeys.has(k) && was.get(k) !== undefined);
  const gone = [...Object.keys(state.objects).filter((k) => !wanted.has(k)), ...replaced];
  for (let i = 0; i < gone.length && !storeFailed; i += 1000) {
    const batch = gone.slice(i, i + 1000);
    try {
      await store.delete(batch);
      for (const k of batch) delete state.objects[k];
      result.deleted += batch.length;
    } catch (error) {
      storeFailed = true;
      fail('delete', error);
    }
  }
  // The folder's record, once per render token, after the deletions (an event made private leaves the bucket whatever
  // this put does) and before any read is put: found in the bucket by the first render on a new machine
  // (folder-record.ts), it must never be behind the feeds there. Its SEQUENCEs are the manifest's, at least what this
  // run puts; put after them, a run that failed or was killed between left the feeds ahead of it, and a restore went
  // unseen (a review). Not put: no read is either (the store failed).
  const record = folderRecordOf(manifest);
  let recordPut = false;
  if (record !== null && state.folderRecord !== record.renderToken && !storeFailed) {
    try {
      await store.put({ key: FOLDER_RECORD_KEY, body: Buffer.from(JSON.stringify(record)), contentType: 'application/json', cacheControl: 'no-store' });
      state.folderRecord = record.renderToken;
      recordPut = true;
    } catch (error) {
      storeFailed = true;
      fail(`put ${FOLDER_RECORD_KEY}`, error);
    }
  }
  // The list as soon as every object of every event it names is in the bucket: the bytes this run put, or any bytes
  // a run put before (a detail being updated is there, in its last version). A pending one may not be.
  const listChanged = changed.includes(LIST_KEY);
  const listNeeds = listChanged ? [...listedKeys(manifest, wanted)] : [];
  const inBucket = (k: string) => state.objects[k] === wanted.get(k)!.hash || (was.get(k) ?? PENDING) !== PENDING;
  let listTried = false;
  const putList = async () => {
    if (listTried || storeFailed || !listNeeds.every(inBucket)) return;
    listTried = true;
    await putOne(LIST_KEY);
  };
  if (listChanged) await putList();
  await inParallel(changed.filter((k) => k !== LIST_KEY), putOne, () => storeFailed);
  if (listChanged) {
    await putList();
    if (!listTried && result.failed > 0) result.problem += '; the event list waits for them';
  }
  result.untried = changed.length - result.put - result.failed - result.superseded;
  // A quiet run leaves the record as it is: rewriting and syncing it (2.8 MB for the bench's 39,461 objects) every
  // minute was most of a quiet run's time and 4 GB a day of writes for nothing.
  if (state !== saved || changed.length > 0 || result.deleted > 0 || recordPut) writeFileAtomic(stateFile, JSON.stringify(state), { durable: true });
  return { ...result, ms: Math.round(performance.now() - started) };
}

export function formatPublish(destination: string, r: PublishResult): string {
  if (r.skipped) return `publish to ${destination} skipped: ${r.skipped}`;
  const untried = r.untried > 0 ? ` (${r.untried} more not tried)` : '';
  const problem = r.problem ? `; ${r.failed} failed${untried}, retried next run (${r.problem})` : '';
  const superseded = r.superseded > 0 ? `; ${r.superseded} replaced by a render since, sent next run` : '';
  const notice = r.notice ? `; ${r.notice}` : '';
  return `published to ${destination}: ${r.put} put / ${r.unchanged} unchanged / ${r.deleted} deleted${problem}${superseded}${notice}, ${r.ms} ms`;
}
