// The folder's record in the bucket (src/publish/folder-record.ts) with the real publisher and render, on a store held
// in memory (the publisher's ObjectStore interface; the same against Ceph's gateway: test/publish-s3.test.ts). What a
// review found: a record put after the feeds, behind them once a put failed; a second folder taking the first's id.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../src/db/connect.js';
import { FOLDER_RECORD_KEY, parseFolderRecord } from '../src/publish/folder-record.js';
import { MANIFEST, regenerate, type RegenerateOptions } from '../src/publish/regenerate.js';
import type { ObjectStore, PutRequest } from '../src/publish/s3/object-store.js';
import { publishArtifacts, PUBLISHED_BY_KEY } from '../src/publish/s3/publish.js';
import { demoDb, type TestDb } from './support/db.js';

let t: TestDb | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A bucket in memory; `failAfter` puts it takes, then it refuses every request. */
function memoryStore() {
  const objects = new Map<string, Buffer>();
  const puts: string[] = [];
  let allowed = Number.POSITIVE_INFINITY;
  const refuse = () => {
    if (allowed <= 0) throw new Error('the store is down');
    allowed--;
  };
  const store: ObjectStore = {
    description: 'memory', destination: 'memory',
    async put(o: PutRequest) {
      refuse();
      puts.push(o.key);
      objects.set(o.key, o.body);
    },
    async delete(keys) {
      refuse();
      for (const k of keys) objects.delete(k);
    },
    async list() {
      return [...objects.keys()];
    },
    async get(key) {
      return objects.get(key)?.toString('utf8') ?? null;
    },
  };
  return { store, objects, puts, failAfter: (n: number) => (allowed = n) };
}

/** The record in a bucket, as jobs/regenerate.ts reads it (its folderRecord option). */
const recordIn = (store: ObjectStore) => () => store.get(FOLDER_RECORD_KEY).then((text) => (text === null ? null : parseFolderRecord(text)));

/** SEQUENCE of the moved match's VEVENT in a published feed. */
const sequenceIn = (feed: Buffer | undefined) => Number(/UID:rsl-prem-r07-2\.[^\r\n]*\r\n(?:[^\r\n]*\r\n)*?SEQUENCE:(\d+)/.exec(feed?.toString('utf8') ?? '')?.[1]);
const FEED = 'api/v0/calendar/rsl-prem-2026-27';
const move = (sqlite: TestDb['sqlite'], kickoff: string) => sqlite.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = 'rsl-prem-r07-2'`).run(kickoff);

async function setUp() {
  const db = await demoDb();
  t = db;
  const options: RegenerateOptions = { artifactsDir: path.join(db.dir, 'old-machine'), publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5 };
  const bucket = memoryStore();
  await regenerate(db.db, options);
  expect((await publishArtifacts(options.artifactsDir, bucket.store)).failed).toBe(0);
  return { db, options, bucket };
}

describe("the folder's record in the bucket", () => {
  it('is put before anything else, so a publish that fails after it leaves it ahead of the feeds, never behind', async () => {
    const { db, options, bucket } = await setUp();
    // After the check that the bucket is this database's (a first publish), before any read.
    expect(bucket.puts.slice(0, 2)).toEqual([PUBLISHED_BY_KEY, FOLDER_RECORD_KEY]);
    const backup = path.join(db.dir, 'backup.db');
    await db.sqlite.backup(backup);
    move(db.sqlite, '2026-12-06T16:00:00Z');
    await regenerate(db.db, options);
    // The record and the moved feeds go, then the store fails: the feeds subscribers see are ahead of the backup.
    bucket.puts.length = 0;
    bucket.failAfter(4);
    const cut = await publishArtifacts(options.artifactsDir, bucket.store);
    expect(cut.failed).toBeGreaterThan(0);
    expect(bucket.puts[0]).toBe(FOLDER_RECORD_KEY);
    const seen = sequenceIn(bucket.objects.get(FEED));
    const record = parseFolderRecord(bucket.objects.get(FOLDER_RECORD_KEY)!.toString('utf8'))!;
    expect(record.events['rsl-prem-2026-27']!.sequence).toBeGreaterThanOrEqual(seen);

    // A new machine, the backup restored: raised past what subscribers saw.
    bucket.failAfter(Number.POSITIVE_INFINITY);
    const restored = openDb(backup);
    try {
      const fresh = { ...options, artifactsDir: path.join(db.dir, 'new-machine'), folderRecord: recordIn(bucket.store) };
      move(restored.sqlite, '2026-12-06T17:00:00Z');
      expect((await regenerate(restored.db, fresh)).restored).toBeGreaterThan(0);
      await publishArtifacts(fresh.artifactsDir, bucket.store);
      expect(sequenceIn(bucket.objects.get(FEED))).toBeGreaterThan(seen);
    } finally {
      await restored.db.destroy();
    }
  });

  it('a record not put: no read is put', async () => {
    const { db, options, bucket } = await setUp();
    move(db.sqlite, '2026-12-06T16:00:00Z');
    await regenerate(db.db, options);
    bucket.puts.length = 0;
    bucket.failAfter(0);
    const refused = await publishArtifacts(options.artifactsDir, bucket.store);
    expect([refused.put, refused.failed]).toEqual([0, 1]);
    expect(refused.problem).toMatch(/^put \.competitions\/render-folder\.json: the store is down/);
  });

  // A review: under the record's id, a second folder of the same database (a release's, a command's) and the first took
  // each other's tokens for a restore, and raised every calendar at every render.
  it('a second folder of the same database gets an id of its own, and neither raises the other', async () => {
    const { db, options, bucket } = await setUp();
    const record = recordIn(bucket.store);
    const second = { ...options, artifactsDir: path.join(db.dir, 'second'), folderRecord: record };
    for (let round = 0; round < 3; round++) {
      move(db.sqlite, `2026-12-0${round + 1}T16:00:00Z`);
      for (const o of [{ ...options, folderRecord: record }, second]) {
        expect((await regenerate(db.db, o)).restored, `round ${round}`).toBeUndefined();
        await publishArtifacts(o.artifactsDir, bucket.store);
      }
    }
    const folderOf = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as { folder: string }).folder;
    expect(folderOf(second.artifactsDir)).not.toBe(folderOf(options.artifactsDir));
  });

  it('a bucket that could not be read: the render goes on, saying why (serving never waits for the store)', async () => {
    const { db, options } = await setUp();
    const down = await regenerate(db.db, { ...options, artifactsDir: path.join(db.dir, 'down'), folderRecord: async () => 'TimeoutError ETIMEDOUT: no answer' });
    expect(down.recordFromBucket).toBe('TimeoutError ETIMEDOUT: no answer');
    expect(down.rendered).toBeGreaterThan(0);
  });
});
