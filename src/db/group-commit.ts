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
import type { SyncDb } from './sync.js';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
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

  constructor(private readonly store: SyncDb) {}

  /**
   * Runs `work` (synchronous, using `store`) in the next shared transaction; settles once that transaction has
   * committed (with work's result) or once work's savepoint has rolled back (with its error).
   */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
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
    batch.forEach((pending, index) => this.settle(pending, outcomes[index]!));
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
