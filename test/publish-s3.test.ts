// Publishing the reads to a bucket (issue 14), against a real S3 implementation: Ceph's RADOS Gateway, started
// here (test/support/ceph-rgw.ts). What a CDN in front of the bucket would fetch is read anonymously through a
// public-read bucket policy: the bytes, Content-Type, Cache-Control, ETag and 304.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CreateBucketCommand, PutBucketPolicyCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplication } from '../src/app/application.js';
import { loadConfig } from '../src/config.js';
import { READ_CACHE_CONTROL } from '../src/http/headers.js';
import { PUBLISH_JOB } from '../src/jobs/publish.js';
import { REGENERATE_JOB, regenerateAndPublish } from '../src/jobs/regenerate.js';
import { FOLDER_RECORD_KEY } from '../src/publish/folder-record.js';
import { MANIFEST, regenerate, type RegenerateOptions } from '../src/publish/regenerate.js';
import { retiredFeed } from '../src/publish/retired-feeds.js';
import { s3ObjectStore, type S3Settings } from '../src/publish/s3/object-store.js';
import { formatPublish, publishArtifacts, PUBLISHED_STATE } from '../src/publish/s3/publish.js';
import { gatewayUnavailable, startGateway, type Gateway } from './support/ceph-rgw.js';
import { createDataset } from './support/dataset.js';
import { demoDb, tempDir, type TestDb } from './support/db.js';
import { startService, type RunningService } from './support/server.js';

const unavailable = gatewayUnavailable();
if (unavailable) console.warn(`publish-s3.test: skipped: ${unavailable}`);

let gw: Gateway;
let t: TestDb;
let options: RegenerateOptions;
let settings: S3Settings;
const BUCKET = 'competitions-reads';
/** A port nothing listens on: below 1024 the kernel never hands it to a test's server (discard, RFC 863, unused here). */
const CLOSED_PORT = 9;

beforeAll(async () => {
  if (unavailable) {
    // The tests that need no gateway still sign their requests: without the gateway's keys, a pair that no store
    // knows (their stores never answer). Without any, the SDK stops at "no credentials" before it tries.
    process.env.AWS_ACCESS_KEY_ID = 'AKIDPUBLISHTEST';
    process.env.AWS_SECRET_ACCESS_KEY = 'not-a-secret';
    return;
  }
  gw = await startGateway();
  process.env.AWS_ACCESS_KEY_ID = gw.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = gw.secretAccessKey;
  const admin = new S3Client({ region: 'us-east-1', endpoint: gw.endpoint, forcePathStyle: true, credentials: { accessKeyId: gw.accessKeyId, secretAccessKey: gw.secretAccessKey } });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  await admin.send(new PutBucketPolicyCommand({
    Bucket: BUCKET,
    Policy: JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: '*', Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${BUCKET}/*`] }],
    }),
  }));
  t = await demoDb();
  options = { artifactsDir: path.join(t.dir, 'artifacts'), publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5 };
  settings = { bucket: BUCKET, endpoint: gw.endpoint, region: 'us-east-1', prefix: 'site/', forcePathStyle: true };
  await regenerate(t.db, options);
}, 300_000); // room for startGateway's retries (a start takes about 12 s; a failed one is tried again, up to 3 times)

afterAll(async () => {
  await t?.close();
  await gw?.stop();
});

/** What a CDN would get: an anonymous GET of the object. */
const cdnGet = (key: string, headers: Record<string, string> = {}) => fetch(`${gw.endpoint}/${BUCKET}/site/${key}`, { headers });
const identity = (file: string) => fs.readFileSync(path.join(options.artifactsDir, file));

describe.skipIf(unavailable !== null)('publishing to Ceph RGW', () => {
  it('puts every read URL as an object: the identity bytes, Content-Type, Cache-Control; ETag and 304 for a CDN', async () => {
    const r = await publishArtifacts(options.artifactsDir, s3ObjectStore(settings));
    expect(r.failed, r.problem ?? '').toBe(0);
    expect(r.put).toBeGreaterThan(50);
    for (const [key, file, type] of [
      ['api/v0/events', 'api/v0/events.json', 'application/json; charset=utf-8'],
      ['api/v0/events/rsl-prem-2026-27/standings', 'api/v0/events/rsl-prem-2026-27/standings.json', 'application/json; charset=utf-8'],
      ['api/v0/events/rsl-cup-2026/bracket', 'api/v0/events/rsl-cup-2026/bracket.json', 'application/json; charset=utf-8'],
      ['api/v0/calendar/rsl-prem-2026-27', 'api/v0/calendar/rsl-prem-2026-27.ics', 'text/calendar; charset=utf-8'],
      // The node server serves the same feed with `.ics` added (calendar apps and people add it): so must the CDN.
      ['api/v0/calendar/rsl-prem-2026-27.ics', 'api/v0/calendar/rsl-prem-2026-27.ics', 'text/calendar; charset=utf-8'],
      ['api/v0/teams/rsl-rovers/calendar', 'api/v0/teams/rsl-rovers.calendar.ics', 'text/calendar; charset=utf-8'],
      ['api/v0/teams/rsl-rovers/calendar.ics', 'api/v0/teams/rsl-rovers.calendar.ics', 'text/calendar; charset=utf-8'],
      ['api/v0/openapi.json', 'api/v0/openapi.json', 'application/json; charset=utf-8'],
    ] as const) {
      const res = await cdnGet(key);
      expect(res.status, key).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(identity(file)), key).toBe(true);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toBe(READ_CACHE_CONTROL);
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect((await cdnGet(key, { 'If-None-Match': etag })).status).toBe(304);
    }
    expect((await cdnGet('api/v0/calendar/rsl-prem-2026-27')).headers.get('content-disposition')).toBe('inline; filename="rsl-prem-2026-27.ics"');
    expect((await cdnGet('api/v0/calendar/rsl-prem-2026-27.ics')).headers.get('content-disposition')).toBe('inline; filename="rsl-prem-2026-27.ics"');
    expect((await cdnGet('api/v0/teams/rsl-rovers/calendar.ics')).headers.get('content-disposition')).toBe('inline; filename="rsl-rovers.ics"');
    // Nothing private.
    expect((await cdnGet('api/v0/events/nssa-futsal-friendlies-2026/standings')).status).toBe(403);
    // The answer a CDN maps the bucket's 403 and 404 to (README): the API's 404 problem, as the node server words it
    // for an id that names no public event or team.
    const notFound = await cdnGet('errors/not-found.json');
    expect(notFound.status).toBe(200);
    expect(notFound.headers.get('content-type')).toBe('application/problem+json');
    expect(notFound.headers.get('cache-control')).toBe('public, max-age=10');
    expect(await notFound.json()).toEqual({ type: '/docs#problem-not-found', title: 'Not found', status: 404, detail: 'No public event or team has this id.' });
  });

  it('sends nothing when nothing changed, and only what changed after one result', async () => {
    const record = () => fs.statSync(path.join(options.artifactsDir, PUBLISHED_STATE), { bigint: true });
    const before = record();
    const quiet = await publishArtifacts(options.artifactsDir, s3ObjectStore(settings));
    expect([quiet.put, quiet.deleted, quiet.failed]).toEqual([0, 0, 0]);
    // Nor does it rewrite its record (the same file, untouched).
    expect([record().ino, record().mtimeNs]).toEqual([before.ino, before.mtimeNs]);
    t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 3, away_score = 0 WHERE id = 'rsl-prem-r08-1'`).run();
    await regenerate(t.db, options);
    const one = await publishArtifacts(options.artifactsDir, s3ObjectStore(settings));
    // The standings, the calendar and the calendars of the match's two teams, each calendar also under its `.ics` URL.
    expect([one.put, one.deleted, one.failed]).toEqual([7, 0, 0]);
    expect(Buffer.from(await (await cdnGet('api/v0/events/rsl-prem-2026-27/standings')).arrayBuffer()).equals(identity('api/v0/events/rsl-prem-2026-27/standings.json'))).toBe(true);
  });

  it('deletes the objects of an event made private once the list no longer names it', async () => {
    t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
    await regenerate(t.db, options);
    const r = await publishArtifacts(options.artifactsDir, s3ObjectStore(settings));
    expect(r.failed, r.problem ?? '').toBe(0);
    expect(r.deleted).toBeGreaterThanOrEqual(4); // its feed's two objects among them, put again as the empty feed
    const list = (await (await cdnGet('api/v0/events')).json()) as { event_id: string }[];
    expect(list.map((e) => e.event_id)).not.toContain('rsl-cup-2026');
    for (const key of ['api/v0/events/rsl-cup-2026/standings', 'api/v0/events/rsl-cup-2026/bracket']) {
      expect((await cdnGet(key)).status, key).not.toBe(200);
    }
    // Its feed, published before, is the empty one (retired-feeds.ts): subscribed apps clear its matches.
    for (const key of ['api/v0/calendar/rsl-cup-2026', 'api/v0/calendar/rsl-cup-2026.ics']) {
      const res = await cdnGet(key);
      expect([res.status, await res.text()], key).toEqual([200, retiredFeed(options.refreshMinutes).join('')]);
    }
  });

  it('npm run regenerate renders, then publishes when a bucket is configured (the SDK loaded only then)', async () => {
    const artifactsDir = path.join(t.dir, 'job-artifacts');
    const config = loadConfig({
      DATABASE_PATH: t.file, ARTIFACTS_DIR: artifactsDir, PUBLIC_BASE_URL: 'https://fixtures.example',
      PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_ENDPOINT: gw.endpoint, PUBLISH_S3_PREFIX: 'job/', PUBLISH_S3_FORCE_PATH_STYLE: 'true',
    });
    const { line } = await regenerateAndPublish(config);
    expect(line).toMatch(/^regenerated: .*; published to .*: \d+ put \/ 0 unchanged \/ 0 deleted, \d+ ms$/);
    const res = await fetch(`${gw.endpoint}/${BUCKET}/job/api/v0/events`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(artifactsDir, 'api/v0/events.json')))).toBe(true);
  });

  // A new machine: ARTIFACTS_DIR empty, the database restored from a backup. The bucket keeps the folder's record
  // (src/publish/folder-record.ts), which the first render reads: calendars are raised past what was published.
  it('keeps the folder\'s record in the bucket, which the first render of a new machine finds a restored database behind', async () => {
    const env = {
      PUBLIC_BASE_URL: 'https://fixtures.example', PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_ENDPOINT: gw.endpoint, PUBLISH_S3_PREFIX: 'machine/',
      PUBLISH_S3_FORCE_PATH_STYLE: 'true',
    };
    const first = loadConfig({ ...env, DATABASE_PATH: t.file, ARTIFACTS_DIR: path.join(t.dir, 'machine-1') });
    await regenerateAndPublish(first);
    const backup = path.join(t.dir, 'machine-backup.db');
    await t.sqlite.backup(backup);
    t.sqlite.prepare(`UPDATE matches SET kickoff_at = '2026-12-13T15:00:00Z' WHERE id = 'rsl-prem-r07-2'`).run();
    const published = await regenerateAndPublish(first);
    expect(published.publishFailed).toBe(false);
    const manifest = JSON.parse(fs.readFileSync(path.join(t.dir, 'machine-1', MANIFEST), 'utf8')) as { folder: string; renderToken: string };
    // Under a key no read has (this test's bucket lets anyone get every object, as a public bucket would).
    const record = JSON.parse((await s3ObjectStore({ ...settings, prefix: 'machine/' }).get(FOLDER_RECORD_KEY))!) as { folder: string; renderToken: string };
    expect([record.folder, record.renderToken]).toEqual([manifest.folder, manifest.renderToken]);

    const second = loadConfig({ ...env, DATABASE_PATH: backup, ARTIFACTS_DIR: path.join(t.dir, 'machine-2') });
    const { line } = await regenerateAndPublish(second);
    expect(line).toMatch(/competitions behind the last render \(a database restored\?\): their calendars' SEQUENCE raised past it; published to /);
    // An id of its own after that: two folders of one database never share one.
    expect((JSON.parse(fs.readFileSync(path.join(t.dir, 'machine-2', MANIFEST), 'utf8')) as { folder: string }).folder).not.toBe(manifest.folder);
  });

  it('a store that is down changes nothing locally, publishes no list, and the next run sends what is pending', async () => {
    // The same store (one endpoint: a proxy to the gateway), down for one run: it resets every connection.
    const artifactsDir = path.join(t.dir, 'down-artifacts');
    const proxy = await holdingProxy(new URL(gw.endpoint));
    const store = s3ObjectStore({ ...settings, endpoint: proxy.endpoint, prefix: 'down/' }, { timeoutMs: 2_000 });
    const downGet = (key: string) => fetch(`${gw.endpoint}/${BUCKET}/down/${key}`);
    try {
      t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
      await regenerate(t.db, { ...options, artifactsDir });
      expect((await publishArtifacts(artifactsDir, store)).failed).toBe(0);
      t.sqlite.prepare(`UPDATE events SET is_public = 1 WHERE id = 'rsl-cup-2026'`).run();
      await regenerate(t.db, { ...options, artifactsDir });
      const stateOf = () => (JSON.parse(fs.readFileSync(path.join(artifactsDir, PUBLISHED_STATE), 'utf8')) as { objects: Record<string, string> }).objects;
      const before = stateOf();
      proxy.setDown(true);
      const down = await publishArtifacts(artifactsDir, store);
      expect(down.put).toBe(0);
      expect(down.failed).toBeGreaterThan(0);
      expect(down.problem).toMatch(/the event list waits for them/);
      // Nothing recorded as put: what was put before keeps its hash, what this run failed to put is pending ('').
      const after = stateOf();
      for (const [key, hash] of Object.entries(after)) expect([before[key], ''], key).toContain(hash);
      expect(Object.values(after)).toContain('');
      // The published list still does not name the event whose objects are not up.
      const list = (await (await downGet('api/v0/events')).json()) as { event_id: string }[];
      expect(list.map((e) => e.event_id)).not.toContain('rsl-cup-2026');
      proxy.setDown(false);
      const back = await publishArtifacts(artifactsDir, store);
      expect(back.failed, back.problem ?? '').toBe(0);
      expect(back.put).toBeGreaterThanOrEqual(4);
      expect(((await (await downGet('api/v0/events')).json()) as { event_id: string }[]).map((e) => e.event_id)).toContain('rsl-cup-2026');
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('a store that takes requests and never answers costs the requests in flight, not one time limit per object', async () => {
    // A first publish (every object to put) to a gateway that accepts connections and then hangs: each request runs
    // into its time limit. The publish stops starting requests after the first failure, so it ends after about one
    // time limit (two with the SDK's retry), with a handful of requests, and records nothing.
    const artifactsDir = path.join(t.dir, 'hanging-artifacts');
    await regenerate(t.db, { ...options, artifactsDir });
    const hanging = await silentServer();
    try {
      const store = s3ObjectStore({ ...settings, endpoint: hanging.endpoint, prefix: 'hang/' }, { timeoutMs: 1_000 });
      // Published there before (a record exists), and now every object is to be put (a new release of the renderers).
      fs.writeFileSync(path.join(artifactsDir, PUBLISHED_STATE), JSON.stringify({ destination: store.destination, objects: {} }));
      const started = performance.now();
      const r = await publishArtifacts(artifactsDir, store);
      const seconds = (performance.now() - started) / 1000;
      expect(r.put).toBe(0);
      expect(r.failed).toBeGreaterThan(0);
      // 8 at a time, each tried twice: at most 16 requests (of the 60 and more objects to put), about 2 s.
      expect(hanging.requests()).toBeLessThanOrEqual(16);
      expect(r.problem).toMatch(/TimeoutError ETIMEDOUT: no answer from http:\/\/127\.0\.0\.1:\d+ within 1000 ms/);
      expect(seconds).toBeLessThan(5);
      // Nothing recorded as put: every object is pending (maybe in the bucket, bytes unknown), to be put next run.
      const saved = JSON.parse(fs.readFileSync(path.join(artifactsDir, PUBLISHED_STATE), 'utf8')) as { objects: Record<string, string> };
      expect(Object.keys(saved.objects).length).toBeGreaterThanOrEqual(60);
      expect(r.failed + r.untried).toBe(Object.keys(saved.objects).length);
      expect(new Set(Object.values(saved.objects))).toEqual(new Set(['']));
    } finally {
      await hanging.close();
    }
  }, 60_000);
});

describe('what a failed publish says (no gateway needed)', () => {
  it('never the user information of an endpoint URL (a password put there by mistake)', async () => {
    const artifactsDir = path.join(tempDir('competitions-userinfo-'), 'artifacts');
    const demo = await demoDb();
    const hanging = await silentServer();
    try {
      await regenerate(demo.db, { artifactsDir, publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5 });
      const endpoint = hanging.endpoint.replace('http://', 'http://publisher:topsecret@');
      const store = s3ObjectStore({ bucket: BUCKET, endpoint, region: 'us-east-1', prefix: '', forcePathStyle: true }, { timeoutMs: 500 });
      // Published there before: the run puts (and records) rather than lists.
      fs.writeFileSync(path.join(artifactsDir, PUBLISHED_STATE), JSON.stringify({ destination: store.destination, objects: {} }));
      const r = await publishArtifacts(artifactsDir, store);
      expect(r.problem).toMatch(/TimeoutError ETIMEDOUT: no answer from http:\/\/127\.0\.0\.1:\d+ within 500 ms/);
      expect(r.problem).not.toContain('topsecret');
      expect(fs.readFileSync(path.join(artifactsDir, PUBLISHED_STATE), 'utf8')).not.toContain('topsecret');
    } finally {
      await hanging.close();
      await demo.close();
    }
  }, 30_000);
});

describe('an endpoint that wants path-style addressing (no gateway needed)', () => {
  it('says to set PUBLISH_S3_FORCE_PATH_STYLE when the bucket-as-host-name does not resolve', async () => {
    const t2 = await demoDb();
    const artifactsDir = path.join(t2.dir, 'path-style-artifacts');
    try {
      await regenerate(t2.db, { artifactsDir, publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5 });
      // .invalid never resolves (RFC 6761): virtual-host addressing asks for competitions-reads.s3.invalid.
      const base = { bucket: BUCKET, endpoint: 'http://s3.invalid:49999', region: 'us-east-1', prefix: '' };
      const virtual = await publishArtifacts(artifactsDir, s3ObjectStore({ ...base, forcePathStyle: false }, { timeoutMs: 2_000 }));
      expect(virtual.problem).toMatch(/ENOTFOUND competitions-reads\.s3\.invalid\b.*set PUBLISH_S3_FORCE_PATH_STYLE=true/);
      // Path-style already: the host itself does not resolve, and nothing about path style is said.
      const pathStyle = await publishArtifacts(artifactsDir, s3ObjectStore({ ...base, forcePathStyle: true }, { timeoutMs: 2_000 }));
      expect(pathStyle.problem).toMatch(/ENOTFOUND s3\.invalid/);
      // Which setting says where the store is (an operator's review read a bare "connect ECONNREFUSED").
      expect(pathStyle.problem).toMatch(/http:\/\/s3\.invalid:49999 cannot be reached .*: check PUBLISH_S3_ENDPOINT/);
      expect(pathStyle.problem).not.toMatch(/PATH_STYLE/);
    } finally {
      await t2.close();
    }
  }, 30_000);
});

describe.skipIf(unavailable !== null)('moving to another store', () => {
  it('a bucket of the same name and prefix at another endpoint starts over: nothing is taken as already there', async () => {
    const artifactsDir = path.join(t.dir, 'moved-artifacts');
    await regenerate(t.db, { ...options, artifactsDir });
    const here = await publishArtifacts(artifactsDir, s3ObjectStore({ ...settings, prefix: 'moved/' }));
    expect(here.failed, here.problem ?? '').toBe(0);
    // The operator moves to another service (MinIO to R2, say) with the same bucket name: every object must go there.
    // A closed port stands for it here: the publish must try, and fail, rather than report everything unchanged.
    const there = await publishArtifacts(artifactsDir, s3ObjectStore({ ...settings, prefix: 'moved/', endpoint: `http://127.0.0.1:${CLOSED_PORT}` }, { timeoutMs: 2_000 }));
    expect(there.unchanged).toBe(0);
    expect(there.failed).toBeGreaterThan(0);
    expect(there.problem).toMatch(/ECONNREFUSED/);
  }, 60_000);
});

describe.skipIf(unavailable !== null)('npm run regenerate with a bucket the store refuses', () => {
  /** `npm run regenerate` as cron runs it (scripts/launch.mjs), configured by the environment alone. */
  const regenerateCommand = (env: Record<string, string>) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(AWS_|PUBLISH_S3_|DATABASE_PATH|ARTIFACTS_DIR|PUBLIC_BASE_URL|ENV_FILE)/.test(k)));
    return spawnSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/launch.mjs'), 'regenerate'], {
      cwd: t.dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...inherited, ENV_FILE: 'none', DATABASE_PATH: t.file, ARTIFACTS_DIR: path.join(t.dir, 'cli-artifacts'),
        PUBLIC_BASE_URL: 'https://fixtures.example', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_ENDPOINT: gw.endpoint, PUBLISH_S3_FORCE_PATH_STYLE: 'true', PUBLISH_S3_PREFIX: 'cli/',
        AWS_ACCESS_KEY_ID: gw.accessKeyId, AWS_SECRET_ACCESS_KEY: gw.secretAccessKey,
        ...env,
      },
    });
  };

  it.each([
    ['a wrong secret', { AWS_SECRET_ACCESS_KEY: 'not-the-secret' }, /SignatureDoesNotMatch \(HTTP 403\): the secret does not match the access key \(AWS_SECRET_ACCESS_KEY\)/],
    ['an unknown access key', { AWS_ACCESS_KEY_ID: 'AKNOSUCHKEY' }, /InvalidAccessKeyId \(HTTP 403\): the store knows no such access key \(AWS_ACCESS_KEY_ID\)/],
    ['a bucket that does not exist', { PUBLISH_S3_BUCKET: 'no-such-bucket' }, /NoSuchBucket \(HTTP 404\): no bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+/],
    ['a store that is down', { PUBLISH_S3_ENDPOINT: `http://127.0.0.1:${CLOSED_PORT}` }, new RegExp(`cannot be reached \\(.*ECONNREFUSED 127\\.0\\.0\\.1:${CLOSED_PORT}\\b.*\\): check PUBLISH_S3_ENDPOINT`)],
  ])('%s: exit 1, one line on stderr saying what to fix, no stack, no secret', (_what, env, said) => {
    const r = regenerateCommand(env as Record<string, string>);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^regenerated: .*; published to s3:\/\/.*: 0 put \/ \d+ unchanged \/ 0 deleted; \d+ failed/);
    expect(lines[0]).toMatch(said);
    expect(r.stderr).not.toContain(gw.secretAccessKey);
  }, 60_000);

  it('a publish that went through: the line on stdout, exit 0', () => {
    const r = regenerateCommand({});
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/published to s3:\/\/competitions-reads\/cli\/: \d+ put \/ 0 unchanged \/ 0 deleted, \d+ ms\n$/);
  }, 60_000);
});

describe.skipIf(unavailable !== null)('a publish killed midway', () => {
  it('an event made private before the next run is deleted from the bucket, though the killed run had put it and recorded nothing', async () => {
    // `npm run regenerate` (a real process) publishing through a proxy to the gateway, SIGKILLed when its event list
    // is on the way: every detail is in the bucket, the state file is as the kill left it.
    const artifactsDir = path.join(t.dir, 'killed-artifacts');
    const env = {
      ENV_FILE: 'none', DATABASE_PATH: t.file, ARTIFACTS_DIR: artifactsDir, PUBLIC_BASE_URL: 'https://fixtures.example',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_FORCE_PATH_STYLE: 'true',
      PUBLISH_S3_PREFIX: 'killed/', AWS_ACCESS_KEY_ID: gw.accessKeyId, AWS_SECRET_ACCESS_KEY: gw.secretAccessKey,
    };
    // The same endpoint for both runs (the proxy passes everything through once it has killed): the same destination.
    const proxy = await killingProxy(new URL(gw.endpoint), `PUT /${BUCKET}/killed/api/v0/events?`);
    const killed = await runCommand({ ...env, PUBLISH_S3_ENDPOINT: proxy.endpoint }, proxy.onChild);
    expect(killed.signal, killed.output).toBe('SIGKILL');
    const killedKey = (key: string) => fetch(`${gw.endpoint}/${BUCKET}/killed/${key}`);
    expect((await killedKey('api/v0/calendar/rsl-cup-2026')).status).toBe(200);
    expect((await killedKey('api/v0/events')).status).toBe(403); // never put

    t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
    try {
      const next = await runCommand({ ...env, PUBLISH_S3_ENDPOINT: proxy.endpoint });
      expect(next.code, next.output).toBe(0);
      for (const key of ['api/v0/events/rsl-cup-2026/standings', 'api/v0/events/rsl-cup-2026/bracket']) {
        expect((await killedKey(key)).status, key).toBe(403);
      }
      expect(await (await killedKey('api/v0/calendar/rsl-cup-2026')).text()).toBe(retiredFeed(5).join(''));
      const list = (await (await killedKey('api/v0/events')).json()) as { event_id: string }[];
      expect(list.map((e) => e.event_id)).not.toContain('rsl-cup-2026');
      // Every team calendar in the bucket is the one rendered now (the cup's matches gone), and no other is left.
      const teamFiles = fs.readdirSync(path.join(artifactsDir, 'api/v0/teams')).filter((f) => f.endsWith('.calendar.ics'));
      for (const f of teamFiles) {
        const res = await killedKey(`api/v0/teams/${f.replace(/\.calendar\.ics$/, '')}/calendar`);
        expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(artifactsDir, 'api/v0/teams', f))), f).toBe(true);
        expect(fs.readFileSync(path.join(artifactsDir, 'api/v0/teams', f), 'utf8')).not.toContain('rsl-cup-2026');
      }
    } finally {
      t.sqlite.prepare(`UPDATE events SET is_public = 1 WHERE id = 'rsl-cup-2026'`).run();
      await proxy.close();
    }
  }, 120_000);
});

describe.skipIf(unavailable !== null)('a new artifacts folder publishing to a bucket that holds reads already', () => {
  it('deletes the objects of an event made private meanwhile, and leaves keys that are not reads alone', async () => {
    // The server moved to a new machine (or ARTIFACTS_DIR was emptied): no record of what the bucket holds. The cup
    // was public on the old one and is private now.
    const oldDir = path.join(t.dir, 'old-machine');
    const newDir = path.join(t.dir, 'new-machine');
    const store = s3ObjectStore({ ...settings, prefix: 'moved-machine/' });
    const admin = new S3Client({ region: 'us-east-1', endpoint: gw.endpoint, forcePathStyle: true, credentials: { accessKeyId: gw.accessKeyId, secretAccessKey: gw.secretAccessKey } });
    const get = (key: string) => fetch(`${gw.endpoint}/${BUCKET}/moved-machine/${key}`);
    try {
      await regenerate(t.db, { ...options, artifactsDir: oldDir });
      expect((await publishArtifacts(oldDir, store)).failed).toBe(0);
      await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'moved-machine/index.html', Body: 'not ours', ContentType: 'text/html' }));
      t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
      await regenerate(t.db, { ...options, artifactsDir: newDir });
      const r = await publishArtifacts(newDir, store);
      expect(r.failed, r.problem ?? '').toBe(0);
      for (const key of ['api/v0/events/rsl-cup-2026/standings', 'api/v0/events/rsl-cup-2026/bracket', 'api/v0/calendar/rsl-cup-2026', 'api/v0/calendar/rsl-cup-2026.ics']) {
        expect((await get(key)).status, key).toBe(403);
      }
      expect((await get('index.html')).status).toBe(200);
      // The record is there now: the next quiet run sends nothing, not even a listing.
      const quiet = await publishArtifacts(newDir, store);
      expect([quiet.put, quiet.deleted, quiet.failed]).toEqual([0, 0, 0]);
    } finally {
      t.sqlite.prepare(`UPDATE events SET is_public = 1 WHERE id = 'rsl-cup-2026'`).run();
    }
  }, 60_000);
});

// A review: a mistyped DATABASE_PATH on a new machine (an empty ARTIFACTS_DIR) loaded the demo into a new database,
// and its first publish took the bucket's reads for its own and deleted every one the demo does not have.
describe.skipIf(unavailable !== null)('another database publishing to a bucket this one published', () => {
  it('is refused before it puts or deletes anything; the same database from a new folder is not', async () => {
    const store = s3ObjectStore({ ...settings, prefix: 'owned/' });
    const get = (key: string) => fetch(`${gw.endpoint}/${BUCKET}/owned/${key}`);
    const mineDir = path.join(t.dir, 'owned-first');
    await regenerate(t.db, { ...options, artifactsDir: mineDir });
    expect((await publishArtifacts(mineDir, store)).failed).toBe(0);
    const other = await demoDb();
    try {
      other.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
      const otherDir = path.join(other.dir, 'artifacts');
      await regenerate(other.db, { ...options, artifactsDir: otherDir });
      const refused = await publishArtifacts(otherDir, store);
      expect([refused.put, refused.deleted, refused.failed]).toEqual([0, 0, 1]);
      expect(refused.problem).toMatch(/^the bucket holds the reads another database published .*check DATABASE_PATH/);
      expect((await get('api/v0/events/rsl-cup-2026/standings')).status).toBe(200);
    } finally {
      await other.close();
    }
    // This database from a new folder (a new machine) publishes as before.
    const movedDir = path.join(t.dir, 'owned-moved');
    await regenerate(t.db, { ...options, artifactsDir: movedDir });
    const moved = await publishArtifacts(movedDir, store);
    expect(moved.failed, moved.problem ?? '').toBe(0);
  }, 60_000);
});

describe.skipIf(unavailable !== null)('a key that may put and delete but not list', () => {
  it('publishes as before, and the line says what the key cannot do', async () => {
    const bucket = 'put-and-delete-only';
    const admin = new S3Client({ region: 'us-east-1', endpoint: gw.endpoint, forcePathStyle: true, credentials: { accessKeyId: gw.accessKeyId, secretAccessKey: gw.secretAccessKey } });
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    await admin.send(new PutBucketPolicyCommand({
      Bucket: bucket,
      Policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Deny', Principal: '*', Action: ['s3:ListBucket'], Resource: [`arn:aws:s3:::${bucket}`] }] }),
    }));
    const artifactsDir = path.join(t.dir, 'no-list-artifacts');
    await regenerate(t.db, { ...options, artifactsDir });
    const r = await publishArtifacts(artifactsDir, s3ObjectStore({ ...settings, bucket, prefix: '' }));
    expect(r.failed, r.problem ?? '').toBe(0);
    expect(r.put).toBeGreaterThan(50);
    expect(formatPublish(`s3://${bucket}/`, r)).toMatch(/; the key may not list the bucket \(AccessDenied\).*allow it s3:ListBucket, \d+ ms$/);
  }, 60_000);
});

describe.skipIf(unavailable !== null)('two publishes at once', () => {
  it('an event one of them put is still deleted once made private: the other does not write it out of the record', async () => {
    // cron's `npm run regenerate` (A) beside another (B): A's event list is held on its way to the store while the cup
    // is made public and B runs; then A goes on, the cup is made private, and a third run must delete its objects.
    const artifactsDir = path.join(t.dir, 'concurrent-artifacts');
    const proxy = await holdingProxy(new URL(gw.endpoint));
    const env = {
      ENV_FILE: 'none', DATABASE_PATH: t.file, ARTIFACTS_DIR: artifactsDir, PUBLIC_BASE_URL: 'https://fixtures.example',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_FORCE_PATH_STYLE: 'true',
      PUBLISH_S3_PREFIX: 'concurrent/', AWS_ACCESS_KEY_ID: gw.accessKeyId, AWS_SECRET_ACCESS_KEY: gw.secretAccessKey,
      PUBLISH_S3_ENDPOINT: proxy.endpoint,
    };
    const visibility = (id: string, isPublic: boolean) => t.sqlite.prepare(`UPDATE events SET is_public = ? WHERE id = ?`).run(isPublic ? 1 : 0, id);
    const objectStatus = async (key: string) => (await fetch(`${gw.endpoint}/${BUCKET}/concurrent/${key}`)).status;
    try {
      visibility('rsl-cup-2026', false);
      expect((await runCommand(env)).code).toBe(0);
      visibility('amm-u12-autumn-2026', false); // A's change: the list changes
      const held = proxy.holdNext(`PUT /${BUCKET}/concurrent/api/v0/events?`);
      const a = runCommand(env);
      await held;
      visibility('rsl-cup-2026', true);
      const b = await runCommand(env);
      expect(b.code, b.output).toBe(0);
      expect(b.output).toMatch(/publish to s3:\/\/competitions-reads\/concurrent\/ skipped: another publish is running \(pid \d+\)/);
      proxy.release();
      const aDone = await a;
      expect(aDone.code, aDone.output).toBe(0);
      visibility('rsl-cup-2026', false);
      const c = await runCommand(env);
      expect(c.code, c.output).toBe(0);
      for (const key of ['api/v0/events/rsl-cup-2026/standings', 'api/v0/events/rsl-cup-2026/bracket']) {
        expect(await objectStatus(key), key).toBe(403);
      }
      // Its feed had been published: the empty calendar is in its place.
      expect(await (await fetch(`${gw.endpoint}/${BUCKET}/concurrent/api/v0/calendar/rsl-cup-2026`)).text()).toBe(retiredFeed(5).join(''));
    } finally {
      proxy.release();
      visibility('rsl-cup-2026', true);
      visibility('amm-u12-autumn-2026', true);
      await proxy.close();
    }
  }, 120_000);
});

describe.skipIf(unavailable !== null)('npm start with a bucket', () => {
  it('serves the reads at once when the store hangs, and publishes after', async () => {
    const hanging = await silentServer();
    let svc: RunningService | undefined;
    try {
      const started = performance.now();
      svc = await startService({
        ENV_FILE: 'none',
        PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_ENDPOINT: hanging.endpoint, PUBLISH_S3_FORCE_PATH_STYLE: 'true', PUBLISH_S3_PREFIX: 'start/',
        AWS_ACCESS_KEY_ID: gw.accessKeyId, AWS_SECRET_ACCESS_KEY: gw.secretAccessKey, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      });
      // The store's time limit is 30 s (twice, with the retry): serving must not wait for it.
      expect((performance.now() - started) / 1000).toBeLessThan(25);
      const res = await fetch(`${svc.url}/api/v0/events`);
      expect(res.status).toBe(200);
      // The publish goes on after listening.
      for (let waited = 0; hanging.requests() === 0 && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      expect(hanging.requests()).toBeGreaterThan(0);
    } finally {
      await svc?.stop();
      await hanging.close();
    }
  }, 120_000);
});

describe.skipIf(unavailable !== null)('a large first publish killed midway', () => {
  it('the next run puts what was not put yet, not every object again', async () => {
    const dir = tempDir('competitions-large-publish-');
    const file = path.join(dir, 'app.db');
    await createDataset(file, { events: 150, matchesPerEvent: 12, seed: 5 });
    const env = {
      ENV_FILE: 'none', DATABASE_PATH: file, ARTIFACTS_DIR: path.join(dir, 'artifacts'), PUBLIC_BASE_URL: 'https://fixtures.example',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_FORCE_PATH_STYLE: 'true',
      PUBLISH_S3_PREFIX: 'large/', AWS_ACCESS_KEY_ID: gw.accessKeyId, AWS_SECRET_ACCESS_KEY: gw.secretAccessKey,
    };
    const proxy = await killingProxy(new URL(gw.endpoint), 'PUT /', 1_200);
    try {
      const killed = await runCommand({ ...env, PUBLISH_S3_ENDPOINT: proxy.endpoint }, proxy.onChild);
      expect(killed.signal, killed.output).toBe('SIGKILL');
      const record = JSON.parse(fs.readFileSync(path.join(env.ARTIFACTS_DIR, PUBLISHED_STATE), 'utf8')) as { objects: Record<string, string> };
      const total = Object.keys(record.objects).length;
      const saved = Object.values(record.objects).filter((h) => h !== '').length;
      expect(total).toBeGreaterThan(1_300); // about 1,400 objects
      expect(saved).toBeGreaterThanOrEqual(1_000); // the record saved after 1,000 puts
      const next = await runCommand({ ...env, PUBLISH_S3_ENDPOINT: proxy.endpoint });
      expect(next.code, next.output).toBe(0);
      const put = Number(/; published to s3:\/\/\S+: (\d+) put \//.exec(next.output)?.[1]);
      expect(put, next.output).toBe(total - saved);
      expect((await fetch(`${gw.endpoint}/${BUCKET}/large/api/v0/events`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  }, 180_000);
});

describe.skipIf(unavailable !== null)('an event made private while one put keeps failing', () => {
  it('its objects are deleted first, before any put, and the list stops naming it, though the put fails', async () => {
    const artifactsDir = path.join(t.dir, 'failing-put-artifacts');
    const proxy = await faultyProxy(new URL(gw.endpoint));
    // The same endpoint for both runs (the proxy): the same destination.
    const store = s3ObjectStore({ ...settings, endpoint: proxy.endpoint, prefix: 'failing-put/' }, { timeoutMs: 2_000 });
    const get = (key: string) => fetch(`${gw.endpoint}/${BUCKET}/failing-put/${key}`);
    const match = t.sqlite.prepare(`SELECT status, home_score, away_score FROM matches WHERE id = 'rsl-prem-r08-2'`).get() as Record<string, unknown>;
    try {
      t.sqlite.prepare(`UPDATE events SET is_public = 1 WHERE id = 'rsl-cup-2026'`).run();
      await regenerate(t.db, { ...options, artifactsDir });
      expect((await publishArtifacts(artifactsDir, store)).failed).toBe(0);
      // The cup made private, and a league result whose standings the store refuses, every time.
      t.sqlite.prepare(`UPDATE events SET is_public = 0 WHERE id = 'rsl-cup-2026'`).run();
      t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 0, away_score = 4 WHERE id = 'rsl-prem-r08-2'`).run();
      await regenerate(t.db, { ...options, artifactsDir });
      const refusedBefore = await (await get('api/v0/events/rsl-prem-2026-27/standings')).text();
      proxy.refuse(`PUT /${BUCKET}/failing-put/api/v0/events/rsl-prem-2026-27/standings?`);
      const r = await publishArtifacts(artifactsDir, store);
      expect(r.failed).toBeGreaterThan(0);
      expect(r.problem).toMatch(/^put api\/v0\/\S+: /);
      // The refused object is as the first publish put it.
      expect((await (await get('api/v0/events/rsl-prem-2026-27/standings')).text())).toBe(refusedBefore);
      expect(r.deleted).toBeGreaterThanOrEqual(4);
      for (const key of ['api/v0/events/rsl-cup-2026/standings', 'api/v0/events/rsl-cup-2026/bracket']) {
        expect((await get(key)).status, key).toBe(403);
      }
      // Its feed: deleted with them, whatever the puts do (the empty calendar put in its place when they go through:
      // here the refused put stopped the run first).
      for (const key of ['api/v0/calendar/rsl-cup-2026', 'api/v0/calendar/rsl-cup-2026.ics']) {
        const res = await get(key);
        if (res.status !== 403) expect(await res.text(), key).toBe(retiredFeed(options.refreshMinutes).join(''));
      }
      const list = (await (await get('api/v0/events')).json()) as { event_id: string }[];
      expect(list.map((e) => e.event_id)).not.toContain('rsl-cup-2026');
      // The order the store saw: the deletion, then the puts (the list among them).
      const changes = proxy.requestLines().filter((line) => !line.startsWith('GET '));
      expect(changes[0], changes.join('\n')).toMatch(new RegExp(`^POST /${BUCKET}/\\?delete`));
      expect(changes.slice(1).every((line) => line.startsWith('PUT ')), changes.join('\n')).toBe(true);
      expect(changes).toContainEqual(expect.stringMatching(/^PUT \S+\/api\/v0\/events\/rsl-prem-2026-27\/standings\?/));
      expect(changes).toContainEqual(expect.stringMatching(/^PUT \S+\/failing-put\/api\/v0\/events\?/));
    } finally {
      t.sqlite.prepare(`UPDATE events SET is_public = 1 WHERE id = 'rsl-cup-2026'`).run();
      t.sqlite.prepare(`UPDATE matches SET status = ?, home_score = ?, away_score = ? WHERE id = 'rsl-prem-r08-2'`).run(match.status, match.home_score, match.away_score);
      await proxy.close();
    }
  }, 60_000);
});

describe.skipIf(unavailable !== null)('a publish while a render replaces files', () => {
  it('puts only bytes of the last render that completed, and leaves the rest to the next publish, not as a failure', async () => {
    const artifactsDir = path.join(t.dir, 'overlap-artifacts');
    const store = s3ObjectStore({ ...settings, prefix: 'overlap/' });
    const manifestFile = path.join(artifactsDir, MANIFEST);
    const standings = 'api/v0/events/rsl-prem-2026-27/standings';
    const object = async (key: string) => Buffer.from(await (await fetch(`${gw.endpoint}/${BUCKET}/overlap/${key}`)).arrayBuffer());
    const file = () => fs.readFileSync(path.join(artifactsDir, `${standings}.json`));
    const match = t.sqlite.prepare(`SELECT status, home_score, away_score FROM matches WHERE id = 'rsl-prem-r08-2'`).get() as Record<string, unknown>;
    const score = (home: number, away: number) =>
      t.sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = ?, away_score = ? WHERE id = 'rsl-prem-r08-2'`).run(home, away);
    try {
      await regenerate(t.db, { ...options, artifactsDir });
      expect((await publishArtifacts(artifactsDir, store)).failed).toBe(0);
      const published = await object(standings);
      score(1, 0);
      await regenerate(t.db, { ...options, artifactsDir });
      const completed = fs.readFileSync(manifestFile);
      // Another render (the server's, or cron's) has replaced the files since, and not yet written its manifest.
      score(2, 0);
      await regenerate(t.db, { ...options, artifactsDir });
      const next = fs.readFileSync(manifestFile);
      fs.writeFileSync(manifestFile, completed);
      const during = await publishArtifacts(artifactsDir, store);
      expect(during.failed, during.problem ?? '').toBe(0);
      // The standings, the calendar and the two teams' calendars, each calendar under its two URLs.
      expect([during.put, during.superseded]).toEqual([0, 7]);
      expect(formatPublish('s3://x/', during)).toMatch(/: 0 put \/ \d+ unchanged \/ 0 deleted; 7 replaced by a render since, sent next run, \d+ ms$/);
      expect((await object(standings)).equals(published)).toBe(true);
      // That render's manifest: the next publish sends its files.
      fs.writeFileSync(manifestFile, next);
      const after = await publishArtifacts(artifactsDir, store);
      expect([after.put, after.superseded, after.failed]).toEqual([7, 0, 0]);
      expect((await object(standings)).equals(file())).toBe(true);
    } finally {
      t.sqlite.prepare(`UPDATE matches SET status = ?, home_score = ?, away_score = ? WHERE id = 'rsl-prem-r08-2'`).run(match.status, match.home_score, match.away_score);
    }
  }, 60_000);
});

describe.skipIf(unavailable !== null)("the server's jobs with a bucket", () => {
  it('a render that changed a file starts a publish at once, not at the publish job\'s next tick', async () => {
    const artifactsDir = path.join(t.dir, 'server-jobs-artifacts');
    const config = loadConfig({
      DATABASE_PATH: t.file, ARTIFACTS_DIR: artifactsDir, MAIL_DIR: path.join(t.dir, 'server-jobs-mail'), PUBLIC_BASE_URL: 'https://fixtures.example',
      REGENERATE_EVERY_S: '3600', PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_ENDPOINT: gw.endpoint, PUBLISH_S3_PREFIX: 'server-jobs/', PUBLISH_S3_FORCE_PATH_STYLE: 'true',
    });
    const logs: string[] = [];
    const app = await createApplication(config, { mail: false, log: (line) => logs.push(line) });
    try {
      app.jobs.start();
      // The render's line is the render's alone: it never waits for the store.
      expect(await app.jobs.runNow(REGENERATE_JOB)).toMatch(/^regenerated: [^;]*$/);
      for (let waited = 0; !logs.some((l) => l.startsWith('published to')) && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      expect(logs).toContainEqual(expect.stringMatching(/^published to s3:\/\/competitions-reads\/server-jobs\/: \d+ put \/ 0 unchanged \/ 0 deleted, \d+ ms$/));
      const res = await fetch(`${gw.endpoint}/${BUCKET}/server-jobs/api/v0/events`);
      expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(artifactsDir, 'api/v0/events.json')))).toBe(true);
      // A render that changed nothing starts none; the job's own period (an hour here) would.
      const published = logs.length;
      expect(await app.jobs.runNow(REGENERATE_JOB)).toMatch(/files written 0 \/ unchanged \d+ \/ removed 0/);
      await new Promise((r) => setTimeout(r, 500));
      expect(logs.length).toBe(published);
      expect(await app.jobs.runNow(PUBLISH_JOB)).toMatch(/: 0 put \/ \d+ unchanged \/ 0 deleted, \d+ ms$/);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('npm start with a store that hangs (no gateway needed)', () => {
  it('renders on its schedule while the publish waits on the store', async () => {
    const hanging = await silentServer();
    let svc: RunningService | undefined;
    let db: Database.Database | undefined;
    try {
      svc = await startService({
        ENV_FILE: 'none', REGENERATE_EVERY_S: '1',
        PUBLISH_S3_BUCKET: BUCKET, PUBLISH_S3_ENDPOINT: hanging.endpoint, PUBLISH_S3_FORCE_PATH_STYLE: 'true', PUBLISH_S3_PREFIX: 'hang/',
        AWS_ACCESS_KEY_ID: 'AKIDPUBLISHTEST', AWS_SECRET_ACCESS_KEY: 'not-a-secret', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      });
      // The publish is under way, and waits on the store (30 s, twice with the retry).
      for (let waited = 0; hanging.requests() === 0 && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      expect(hanging.requests()).toBeGreaterThan(0);
      const standings = async () => (await fetch(`${svc!.url}/api/v0/events/rsl-prem-2026-27/standings`)).text();
      const before = await standings();
      db = new Database(svc.env.DATABASE_PATH!);
      db.pragma('busy_timeout = 10000');
      db.prepare(`UPDATE matches SET status = 'completed', home_score = 5, away_score = 0 WHERE id = 'rsl-prem-r08-2'`).run();
      // The next render (every second) serves it, long before the store's time limit.
      const changed = performance.now();
      let now = before;
      while (now === before && performance.now() - changed < 10_000) {
        await new Promise((r) => setTimeout(r, 200));
        now = await standings();
      }
      expect(now, svc.output()).not.toBe(before);
      expect(hanging.requests()).toBeLessThanOrEqual(16);
    } finally {
      db?.close();
      await svc?.stop();
      await hanging.close();
    }
  }, 120_000);
});

/** `npm run regenerate` (scripts/launch.mjs) with this environment; `started` gets the child. */
function runCommand(env: Record<string, string>, started?: (child: ChildProcess) => void): Promise<{ code: number | null; signal: string | null; output: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(AWS_|PUBLISH_S3_|DATABASE_PATH|ARTIFACTS_DIR|PUBLIC_BASE_URL|ENV_FILE)/.test(k)));
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../scripts/launch.mjs'), 'regenerate'], { cwd: t.dir, env: { ...inherited, ...env } });
  started?.(child);
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, output })));
}

/** A TCP connection pair the proxies below see each chunk of: the client's socket and the gateway's. */
interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

/**
 * A TCP proxy (on a port the kernel picks) to the gateway, the base of the three below: each chunk a client sends
 * goes to `onData`, which forwards it (pair.upstream.write) or not; the gateway's answers go back as they are.
 * `refuse()` true resets a new connection at once.
 */
async function tcpProxy(
  target: URL,
  onData: (chunk: Buffer, pair: Pair) => void,
  refuse: () => boolean = () => false,
): Promise<{ endpoint: string; sockets: Set<net.Socket>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (refuse()) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    const pair = { client, upstream };
    client.on('data', (d: Buffer) => onData(d, pair));
    upstream.pipe(client);
  });
  const port = await listenOnKernelPort(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    sockets,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A proxy to the gateway that SIGKILLs the child it is given as soon as the `nth` request holding `trigger` comes
 * through, before forwarding it; after that it passes everything through.
 */
async function killingProxy(target: URL, trigger: string, nth = 1): Promise<{ endpoint: string; onChild(child: ChildProcess): void; close(): Promise<void> }> {
  let child: ChildProcess | undefined;
  let seen = 0;
  const proxy = await tcpProxy(target, (d, { client, upstream }) => {
    if (child && d.toString('latin1').includes(trigger) && ++seen >= nth) {
      child.kill('SIGKILL');
      child = undefined;
      client.destroy();
      upstream.destroy();
      return;
    }
    upstream.write(d);
  });
  return { endpoint: proxy.endpoint, onChild: (c) => (child = c), close: proxy.close };
}

/** A TCP server on 127.0.0.1 (on a port the kernel picks) that accepts every connection and never answers: a hung gateway. */
async function silentServer(): Promise<{ endpoint: string; requests(): number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let requests = 0;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (d) => (requests += (d.toString('latin1').match(/^(PUT|GET|POST|DELETE|HEAD) /gm) ?? []).length));
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  const port = await listenOnKernelPort(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A proxy to the gateway that can hold the next request starting with a given line, or be down (every connection reset). */
async function holdingProxy(target: URL): Promise<{ endpoint: string; holdNext(trigger: string): Promise<void>; release(): void; setDown(down: boolean): void; close(): Promise<void> }> {
  let trigger: string | undefined;
  let seen: (() => void) | undefined;
  let released: Promise<void> = Promise.resolve();
  let release = () => {};
  let down = false;
  // Chunks go upstream in order, each after the hold (if any) that came before it.
  const queues = new WeakMap<net.Socket, Promise<void>>();
  const proxy = await tcpProxy(
    target,
    (d, { client, upstream }) => {
      let queue = queues.get(client) ?? Promise.resolve();
      if (trigger !== undefined && d.toString('latin1').includes(trigger)) {
        trigger = undefined;
        const wait = released;
        seen?.();
        queue = queue.then(() => wait);
      }
      queues.set(client, queue.then(() => void upstream.write(d)));
    },
    () => down,
  );
  return {
    endpoint: proxy.endpoint,
    holdNext(line) {
      trigger = line;
      released = new Promise((resolve) => (release = resolve));
      return new Promise((resolve) => (seen = resolve));
    },
    release: () => release(),
    setDown(isDown) {
      down = isDown;
      if (isDown) for (const s of proxy.sockets) s.destroy(); // kept-alive connections too
    },
    close: proxy.close,
  };
}

/**
 * A proxy to the gateway that records the request line of every request, and resets the connection of every request
 * starting with the line given to refuse(): an object the store keeps refusing.
 */
async function faultyProxy(target: URL): Promise<{ endpoint: string; refuse(line: string): void; requestLines(): string[]; close(): Promise<void> }> {
  let refused: string | undefined;
  let lines: string[] = [];
  const proxy = await tcpProxy(target, (d, { client, upstream }) => {
    const text = d.toString('latin1');
    // Anywhere in the chunk: on a kept-alive connection a request may follow the previous one's body in one chunk.
    for (const m of text.matchAll(/(PUT|GET|POST|DELETE|HEAD) (\/\S*) HTTP\/1\.1\r\n/g)) lines.push(`${m[1]} ${m[2]}`);
    if (refused !== undefined && text.includes(refused)) {
      client.resetAndDestroy();
      upstream.destroy();
      return;
    }
    upstream.write(d);
  });
  return {
    endpoint: proxy.endpoint,
    refuse(line) {
      refused = line;
      lines = [];
    },
    requestLines: () => lines,
    close: proxy.close,
  };
}

/**
 * Listens on 127.0.0.1 on a port the kernel picks, bound at once (a port found free and bound later can be taken
 * meanwhile, by a service another test starts); the port.
 */
function listenOnKernelPort(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}
