// Group commit for the public writes: the requests that arrive while one commit waits for the disk share the next
// commit, and with it one fsync. Under load a registration's time is mostly its fsync (synchronous=FULL), and
// better-sqlite3 blocks the event loop for it, so committing one request at a time queues every other request
// behind one fsync each; committed together, the queue behind a slow fsync is one commit long, not one per request.
//
// Durability is unchanged: a write's promise settles only after the COMMIT that holds it has returned, so nothing
// is answered 2xx before it is on disk. Each write runs in its own savepoint inside the shared transaction, so
// one write that throws (a domain error, a bug) is rolled back alone and the others still commit. A write whose
// error ends the whole transaction (SQLite rolls everything back on some errors) gets that error; the writes
// batched with it had nothing committed, so they run again in the next commit rather than being answered.
//
// Another process holding the write lock (an import, `npm run retention`, a sqlite3 shell inside a transaction) is
// waited for here, asynchronously: the server's connection waits only SERVER_BUSY_TIMEOUT_MS in BEGIN IMMEDIATE
// (src/db/connect.ts), and a batch that got SQLITE_BUSY there goes again after a timer, the event loop free meanwhile.
// An on-call review found the 10 s busy_timeout spent synchronously in BEGIN: every request of the server, the static
// reads and /healthz among them, waited behind it, again and again while the lock lasted. A write still waits up to
// lockWaitMs from its arrival, as before, then fails with SQLITE_BUSY (answered 503 with Retry-After: failedRequest).
import { isBusyError, lockRetryPauseMs } from './connect.js';
import type { SyncDb } from './sync.js';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** performance.now() when it was queued: its wait for another process's lock counts from here. */
  arrivedAt: number;
}

export interface GroupCommitOptions {
  /** How long a write waits for another process's write lock, from its arrival, before it fails with SQLITE_BUSY. */
  lockWaitMs?: number;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Thrown out of the shared transaction when the error of one write (`culprit`) has already rolled it back. */
class TransactionLost extends Error {
  constructor(readonly culprit: number) {
    super('the shared transaction was rolled back by one of its writes');
  }
}

export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  /** The timer of the next try after SQLITE_BUSY, while another process holds the lock. */
  private retry: NodeJS.Timeout | undefined;
  private busyTries = 0;
  private readonly lockWaitMs: number;
  /** Set by stopWaiting(): a write that meets the lock is answered at once, with no timer. */
  private stopping = false;

  constructor(private readonly store: SyncDb, options: GroupCommitOptions = {}) {
    this.lockWaitMs = options.lockWaitMs ?? 10_000;
  }

  /**
   * Runs `work` (synchronous, using `store`) in the next shared transaction; settles once that transaction has
   * committed (with work's result) or once work's savepoint has rolled back (with its error).
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject, arrivedAt: performance.now() });
      this.schedule();
    });
  }

  private schedule(): void {
    // While another process holds the lock, the writes that arrive wait for the next try with the others.
    if (this.scheduled || this.retry !== undefined || this.queue.length === 0) return;
    this.scheduled = true;
    // setImmediate, not a microtask: it runs after the poll phase, once every request that reached the socket
    // while the last commit blocked has been read and queued here.
    setImmediate(() => {
      this.scheduled = false;
      this.commit();
    });
  }

  private commit(): void {
    const batch = this.queue;
    this.queue = [];
    const outcomes: Outcome[] = [];
    try {
      this.store.transaction(() => {
        for (const [index, pending] of batch.entries()) {
          outcomes.push(this.savepoint(pending.work));
          if (!this.store.sqlite.inTransaction) throw new TransactionLost(index);
        }
      });
    } catch (error) {
      // BEGIN IMMEDIATE found the lock held by another process: nothing of the batch ran.
      if (outcomes.length === 0 && isBusyError(error) && !this.store.sqlite.inTransaction) {
        this.waitForLock(batch, error);
        return;
      }
      if (error instanceof TransactionLost) {
        // Its own error; or, had it caught that error and returned, this one: nothing of it was committed.
        const lost = outcomes[error.culprit]!;
        batch[error.culprit]!.reject(lost.ok ? error : lost.error);
        // Nothing of the others was committed: they go again, first in the next commit.
        this.queue = [...batch.filter((_, i) => i !== error.culprit), ...this.queue];
        this.schedule();
        return;
      }
      // The COMMIT itself failed (disk full, I/O error): nothing of the batch is on disk, and every write says so.
      for (const pending of batch) pending.reject(error);
      return;
    }
    this.busyTries = 0;
    batch.forEach((pending, index) => this.settle(pending, outcomes[index]!));
  }

  /**
   * The batch goes again after a timer, first, with whatever arrives meanwhile; a write that has waited lockWaitMs
   * since its arrival gets the SQLITE_BUSY error instead.
   */
  private waitForLock(batch: Pending[], error: unknown): void {
    const now = performance.now();
    const waited = (pending: Pending) => this.stopping || now - pending.arrivedAt >= this.lockWaitMs;
    for (const pending of batch) if (waited(pending)) pending.reject(error);
    this.queue = [...batch.filter((pending) => !waited(pending)), ...this.queue];
    if (this.queue.length === 0) {
      this.busyTries = 0;
      return;
    }
    const delay = lockRetryPauseMs(this.busyTries++);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.commit();
    }, delay);
  }

  /**
   * The server is stopping: the writes waiting for another process's lock are tried once more at once, and those that
   * still meet it are answered with its SQLITE_BUSY (503, Retry-After) rather than waited for. The diff review sent a
   * SIGTERM while a registration waited for a lock: the 10 s wait outlived the stop's 5 s limit, the client got a reset
   * rather than its 503, and the server exited 1.
   */
  stopWaiting(): void {
    this.stopping = true;
    if (this.retry === undefined) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.commit();
  }

  private settle(pending: Pending, outcome: Outcome): void {
    if (outcome.ok) pending.resolve(outcome.value);
    else pending.reject(outcome.error);
  }

  /** One write in a savepoint of the shared transaction: rolled back alone if it throws. */
  private savepoint(work: () => unknown): Outcome {
    try {
      // Nested in the shared transaction, store.transaction is a savepoint, and drops the signals of a rollback.
      return { ok: true, value: this.store.transaction(work) };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
