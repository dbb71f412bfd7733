// Group commit: writes queued together share one transaction, each in its own savepoint, and none settles before
// the COMMIT that holds it. On a real SQLite file with the real migrations; a second connection plays the reader
// that must never see a write before its writer is told it committed.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../../test/support/db.js';
import { SERVER_BUSY_TIMEOUT_MS, setBusyTimeout } from './connect.js';
import { GroupCommit } from './group-commit.js';
import { SyncDb } from './sync.js';

let t: TestDb;
let store: SyncDb;
let commits: GroupCommit;
let reader: Database.Database;
beforeEach(async () => {
  t = await migratedDb();
  store = new SyncDb(t.sqlite);
  commits = new GroupCommit(store);
  reader = new Database(t.file, { readonly: true });
});
afterEach(async () => {
  reader.close();
  await t.close();
});

const add = (id: string) => () => store.sqlite.prepare(`INSERT INTO organizations (id, name) VALUES (?, ?)`).run(id, id.toUpperCase()).changes;
/** The organizations another connection can see: only what has been committed. */
const committed = () => (reader.prepare(`SELECT id FROM organizations ORDER BY id`).all() as { id: string }[]).map((r) => r.id);

describe('group commit', () => {
  it('commits the writes queued together in one transaction, and settles each once it is committed', async () => {
    const seenByReader: string[][] = [];
    const first = commits.run(add('org-a'));
    const second = commits.run(() => {
      // Inside the shared transaction: the first write is not committed yet, so another connection cannot see it.
      seenByReader.push(committed());
      return add('org-b')();
    });
    expect(committed()).toEqual([]);
    const settled = await Promise.all([first.then((v) => [v, committed()]), second.then((v) => [v, committed()])]);
    expect(seenByReader).toEqual([[]]);
    // Each promise settled after the COMMIT: both rows were visible to another connection at that moment.
    expect(settled).toEqual([[1, ['org-a', 'org-b']], [1, ['org-a', 'org-b']]]);
  });

  it('rolls back a write that throws alone: the others commit, the one that threw gets its error', async () => {
    const results = await Promise.allSettled([
      commits.run(add('org-a')),
      commits.run(() => {
        add('org-x')();
        throw new Error('refused');
      }),
      commits.run(add('org-c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(committed()).toEqual(['org-a', 'org-c']);
  });

  it('runs the others again in the next commit when one write ends the whole transaction', async () => {
    store.transaction(() => add('org-b')());
    const results = await Promise.allSettled([
      commits.run(add('org-a')),
      // OR ROLLBACK: SQLite itself rolls back the whole transaction, the first write's row with it.
      commits.run(() => store.sqlite.prepare(`INSERT OR ROLLBACK INTO organizations (id, name) VALUES ('org-b', 'again')`).run()),
      commits.run(add('org-c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE constraint failed/);
    expect(committed()).toEqual(['org-a', 'org-b', 'org-c']);
  });

  it('answers every write of the batch with the error when the COMMIT itself fails, and stores none of them', async () => {
    const results = await Promise.allSettled([
      commits.run(add('org-a')),
      commits.run(() => {
        // A deferred foreign key is checked at COMMIT: the COMMIT fails, as a full disk would make it fail.
        store.sqlite.pragma('defer_foreign_keys = ON');
        store.sqlite.prepare(`INSERT INTO leagues (id, org_id, name) VALUES ('lg-z', 'org-none', 'Z')`).run();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY constraint failed/);
    expect(committed()).toEqual([]);
    expect(store.sqlite.inTransaction).toBe(false);
    await commits.run(add('org-d'));
    expect(committed()).toEqual(['org-d']);
  });

  it('drops the signals of a write that rolled back, and keeps those of the writes that committed', async () => {
    let heard = 0;
    store.on('email-queued', () => heard++);
    const failing = commits.run(() => {
      store.signal('email-queued');
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(heard).toBe(0);
    await Promise.allSettled([
      commits.run(() => store.signal('email-queued')),
      commits.run(() => {
        store.signal('email-queued');
        throw new Error('refused');
      }),
    ]);
    expect(heard).toBe(1);
  });

  it('delivers commit signals once the shared transaction has committed', async () => {
    let heard = 0;
    store.on('email-queued', () => heard++);
    const write = commits.run(() => store.transaction(() => store.signal('email-queued')));
    expect(heard).toBe(0);
    await write;
    expect(heard).toBe(1);
  });

  // An on-call review: a sqlite3 shell holding the write lock froze the whole server, each BEGIN IMMEDIATE waiting out
  // the 10 s busy timeout synchronously. The server's connection waits briefly; the group commit waits the rest on a timer.
  describe('while another process holds the write lock', () => {
    let other: Database.Database;
    beforeEach(() => {
      setBusyTimeout(store.sqlite, SERVER_BUSY_TIMEOUT_MS);
      other = new Database(t.file);
      other.exec('BEGIN IMMEDIATE');
    });
    afterEach(() => {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    });

    /** The longest the event loop went without running a 10 ms timer while `during` was pending. */
    async function longestStall(during: Promise<unknown>): Promise<number> {
      let last = performance.now();
      let longest = 0;
      const tick = setInterval(() => {
        const at = performance.now();
        longest = Math.max(longest, at - last);
        last = at;
      }, 10);
      try {
        await during.catch(() => undefined);
      } finally {
        clearInterval(tick);
      }
      return longest;
    }

    it('commits the writes once the lock is released, the event loop free meanwhile', async () => {
      setTimeout(() => other.exec('COMMIT'), 600);
      const started = performance.now();
      const first = commits.run(add('org-a'));
      // One that arrives while the first waits joins it.
      const second = new Promise((resolve) => setTimeout(resolve, 100)).then(() => commits.run(add('org-b')));
      const stall = await longestStall(Promise.all([first, second]));
      expect(await first).toBe(1);
      expect(await second).toBe(1);
      expect(committed()).toEqual(['org-a', 'org-b']);
      expect(performance.now() - started).toBeGreaterThanOrEqual(590);
      expect(stall).toBeLessThan(SERVER_BUSY_TIMEOUT_MS + 100);
    });

    it('fails a write with SQLITE_BUSY once it has waited lockWaitMs, and commits the next once the lock is gone', async () => {
      const patient = new GroupCommit(store, { lockWaitMs: 400 });
      const started = performance.now();
      const write = patient.run(add('org-a'));
      const stall = await longestStall(write);
      await expect(write).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      expect(performance.now() - started).toBeGreaterThanOrEqual(400);
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(stall).toBeLessThan(SERVER_BUSY_TIMEOUT_MS + 100);
      other.exec('ROLLBACK');
      expect(await patient.run(add('org-b'))).toBe(1);
      expect(committed()).toEqual(['org-b']);
    });

    // The diff review: a SIGTERM while a registration waited for a lock outlived the stop's 5 s limit, and the client got
    // a reset, not its 503. Stopping answers the waiting writes at once, and any later one that meets the lock.
    it('answers the writes waiting for the lock at once with SQLITE_BUSY when told to stop waiting', async () => {
      const waiting = commits.run(add('org-a'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      commits.stopWaiting();
      await expect(waiting).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      await expect(commits.run(add('org-b'))).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      expect(performance.now() - started).toBeLessThan(500);
      other.exec('ROLLBACK');
      // Once the lock is gone, a write still commits (a request in flight when the stop began).
      expect(await commits.run(add('org-c'))).toBe(1);
      expect(committed()).toEqual(['org-c']);
    });
  });
});
