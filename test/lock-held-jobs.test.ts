// The server's jobs while another process holds SQLite's write lock: skipped at once, in one line naming the cause and
// the database, instead of each holding the server's event loop for the 10 s busy timeout and then logging
// `regenerate failed: database is locked` (an on-call review). The regeneration only reads: it renders through the lock,
// its WAL checkpoint deferred rather than waited for.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobSkippedWhileLocked } from '../src/jobs/database-failures.js';
import { REGENERATE_JOB } from '../src/jobs/regenerate.js';
import { MANIFEST } from '../src/publish/regenerate.js';
import { RETENTION_JOB } from '../src/jobs/retention.js';
import { UPDATES_JOB } from '../src/jobs/updates.js';
import { inProcessApp, type InProcessApp } from './support/in-process.js';

let running: InProcessApp;
let other: Database.Database;

beforeAll(async () => {
  running = await inProcessApp({ mail: false });
  // The first render records the calendars' UID domain, a write; the later ones only read.
  await running.app.jobs.runNow(REGENERATE_JOB);
  other = new Database(running.app.config.databasePath);
  other.exec('BEGIN IMMEDIATE');
  other.prepare('INSERT INTO organizations SELECT * FROM organizations WHERE 0').run();
}, 60_000);
afterAll(async () => {
  if (other?.inTransaction) other.exec('ROLLBACK');
  other?.close();
  await running?.close();
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a job of the server while another process holds the write lock', () => {
  it.each([RETENTION_JOB, UPDATES_JOB])('%s is skipped at once, its one line naming the cause', { timeout: 30_000 }, async (name) => {
    const started = performance.now();
    const error = await running.app.jobs.runNow(name).then(() => undefined, (e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(JobSkippedWhileLocked);
    const line = (error as Error).message;
    expect(line).toMatch(new RegExp(`^${name} skipped, it runs again at its next tick: SQLITE_BUSY database is locked \\(DATABASE_PATH ${escaped(running.app.config.databasePath)}: another process held it locked`));
    expect(line).not.toContain('\n');
  });

  it('renders through it, its WAL checkpoint deferred rather than waited for', { timeout: 30_000 }, async () => {
    const started = performance.now();
    const line = await running.app.jobs.runNow(REGENERATE_JOB);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(line).toContain('(WAL checkpoint deferred: the database was busy)');
  });

  it("records a render's token once the lock is released, waiting on a timer, not taking the next render for a restore", { timeout: 30_000 }, async () => {
    // A venue changed: this render writes files, then records its token in the database, a write.
    other.exec('ROLLBACK');
    other.exec(`UPDATE matches SET venue = 'Moved for the test' WHERE id = (SELECT m.id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 ORDER BY m.id LIMIT 1)`);
    other.exec('BEGIN IMMEDIATE');
    other.prepare('INSERT INTO organizations SELECT * FROM organizations WHERE 0').run();
    setTimeout(() => other.exec('COMMIT'), 600);
    const line = await running.app.jobs.runNow(REGENERATE_JOB);
    expect(line).not.toMatch(/files written 0 /);
    expect(line).not.toMatch(/behind the last render/);
    const manifest = JSON.parse(fs.readFileSync(path.join(running.app.config.artifactsDir, MANIFEST), 'utf8')) as { folder: string; renderToken: string };
    expect(other.prepare('SELECT token FROM render_folders WHERE folder = ?').get(manifest.folder)).toEqual({ token: manifest.renderToken });
    other.exec('BEGIN IMMEDIATE');
  });

  it('runs again once the lock is released', { timeout: 30_000 }, async () => {
    other.exec('ROLLBACK');
    await expect(running.app.jobs.runNow(RETENTION_JOB)).resolves.toMatch(/^retention: /);
  });
});

// The on-call review's database made read-only under a running server: `regenerate failed: attempt to write a readonly
// database`, naming nothing. Every cause the operator fixes is said as a failed request's line says it.
describe('a job of the server whose database the operator must fix', () => {
  it('fails in the operator\'s one line: the SQLite code, DATABASE_PATH and what to do', async () => {
    const { sayingDatabaseFailures } = await import('../src/jobs/database-failures.js');
    const { JobRunFailed } = await import('../src/jobs/scheduler.js');
    const readonly = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    const job = sayingDatabaseFailures({ name: 'regenerate', everyS: 60, run: async () => { throw readonly; } }, '/srv/app.db');
    const error = await job.run(new AbortController().signal).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(JobRunFailed);
    expect(error).not.toBeInstanceOf(JobSkippedWhileLocked);
    expect((error as Error).message).toBe(
      'regenerate failed: SQLITE_READONLY attempt to write a readonly database (DATABASE_PATH /srv/app.db: it cannot be written: a read-only file, folder or file system, or its files moved or replaced)',
    );
    // Anything else is the job's own failure, as it was.
    const own = new TypeError('x is undefined');
    const ours = sayingDatabaseFailures({ name: 'updates', everyS: 60, run: async () => { throw own; } }, '/srv/app.db');
    expect(await ours.run(new AbortController().signal).then(() => undefined, (e: unknown) => e)).toBe(own);
  });
});
