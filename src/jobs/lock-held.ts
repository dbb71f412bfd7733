// A job of the server that met another process's write lock (an import, `npm run retention`, a sqlite3 shell left
// inside a transaction) is skipped, not waited for: the server's connections wait only SERVER_BUSY_TIMEOUT_MS for a lock
// (src/db/connect.ts), since better-sqlite3 waits synchronously, the whole server with it. An on-call review found
// `regenerate failed: database is locked` in the log, naming neither the database nor what to do.
import { isBusyError } from '../db/connect.js';
import { operatorCause } from '../http/request-failure.js';
import { JobRunFailed, type Job } from './scheduler.js';

/** A run skipped for another process's write lock: its message is the whole line. */
export class JobSkippedWhileLocked extends JobRunFailed {
  override name = 'JobSkippedWhileLocked';
}

/**
 * `job`, whose run that gets SQLITE_BUSY ends as a failed run whose line says so: the operator's cause, the way a
 * request's is logged (src/http/request-failure.ts), in one line without a stack. It runs again at its next tick; a
 * lock that outlasts several of them shows in /healthz as the job failing.
 */
export function skippedWhileLocked(job: Job, databasePath: string): Job {
  return {
    ...job,
    run: async (stopping) => {
      try {
        return await job.run(stopping);
      } catch (error) {
        if (!isBusyError(error)) throw error;
        throw new JobSkippedWhileLocked(`${job.name} skipped, it runs again at its next tick: ${operatorCause(error, databasePath)}`);
      }
    },
  };
}
