// A job of the server whose run meets a database failure the operator fixes outside the code says so in the operator's
// one line (src/http/request-failure.ts operatorCause: the SQLite code, DATABASE_PATH, what to do), as a failed request
// does. Another process's write lock (an import, `npm run retention`, a sqlite3 shell left inside a transaction) is
// skipped, not waited for: the server's connections wait only SERVER_BUSY_TIMEOUT_MS for a lock (src/db/connect.ts),
// since better-sqlite3 waits synchronously, the whole server with it. An on-call review found `regenerate failed:
// database is locked` and `regenerate failed: attempt to write a readonly database` in the log, naming neither the
// database nor what to do.
import { isBusyError } from '../db/connect.js';
import { operatorCause } from '../http/request-failure.js';
import { JobRunFailed, type Job } from './scheduler.js';

/** A run skipped for another process's write lock: its message is the whole line. */
export class JobSkippedWhileLocked extends JobRunFailed {
  override name = 'JobSkippedWhileLocked';
}

/**
 * `job`, whose run that fails on the database for a cause the operator fixes ends as a failed run whose line says so,
 * in one line without a stack: skipped, for SQLITE_BUSY (it runs again at its next tick; a lock that outlasts several
 * of them shows in /healthz as the job failing), failed for the rest (a full disk, a file made read-only). Any other
 * failure is the job's own, logged as before.
 */
export function sayingDatabaseFailures(job: Job, databasePath: string): Job {
  return {
    ...job,
    run: async (stopping) => {
      try {
        return await job.run(stopping);
      } catch (error) {
        const cause = operatorCause(error, databasePath);
        if (cause === undefined) throw error;
        if (isBusyError(error)) throw new JobSkippedWhileLocked(`${job.name} skipped, it runs again at its next tick: ${cause}`);
        throw new JobRunFailed(`${job.name} failed: ${cause}`);
      }
    },
  };
}
