// The retention job: what the service keeps only for a while is deleted once its time is over (the database's
// freed pages are zeroed by secure_delete; the regeneration's checkpoint folds the WAL). Runs in the server every
// hour, and once at start-up.
import type { SyncDb } from '../db/sync.js';
import { expireIdempotencyKeys } from '../db/idempotency.js';
import type { Job } from './scheduler.js';

/** Expired links are kept this long, so that a late click says "expired" rather than "not valid". */
export const EXPIRED_LINK_KEPT_MS = 30 * 24 * 3600_000;

export function runRetention(store: SyncDb, now: Date): string {
  const started = performance.now();
  const keys = store.transaction(() => expireIdempotencyKeys(store, now));
  const links = store.run(
    store.q.deleteFrom('link_tokens').where('expires_at', '<', new Date(now.getTime() - EXPIRED_LINK_KEPT_MS).toISOString()),
  );
  return `retention: ${keys} idempotency keys and ${links} expired links forgotten, ${Math.round(performance.now() - started)} ms`;
}

export const RETENTION_JOB = 'retention';

export function retentionJob(store: SyncDb, now: () => Date): Job {
  return { name: RETENTION_JOB, everyS: 3600, run: async () => runRetention(store, now()) };
}
