// The updates job: tells followers what changed (src/updates/run.ts). In the server on its own schedule
// (UPDATES_EVERY_S) and once at start-up, which records the baseline on a new installation; and `npm run updates`.
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { formatUpdates, runUpdates } from '../updates/run.js';
import type { Job } from './scheduler.js';

export const UPDATES_JOB = 'updates';

/**
 * One run on a connection of its own (its reads span awaits, which the server's writer must never be inside);
 * `busyTimeoutMs`: that connection's, the server's in the server (src/db/connect.ts SERVER_BUSY_TIMEOUT_MS).
 */
export async function runUpdatesJob(config: Config, now: Date, forceDigests = false, busyTimeoutMs?: number): Promise<string> {
  const database = await openDatabase(config.databasePath, { migrate: false, busyTimeoutMs });
  try {
    const result = await runUpdates(database, {
      now,
      digestHour: config.updatesDigestHour,
      alertDelayMs: config.updatesAlertDelayS * 1000,
      forceDigests,
      publicBaseUrl: config.publicBaseUrl,
    });
    return formatUpdates(result);
  } finally {
    await database.close();
  }
}

export function updatesJob(config: Config, now: () => Date, options: { busyTimeoutMs?: number } = {}): Job {
  return { name: UPDATES_JOB, everyS: config.updatesEveryS, run: () => runUpdatesJob(config, now(), false, options.busyTimeoutMs) };
}
