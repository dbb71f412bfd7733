// What GET /healthz checks, and how it judges: cheap reads only (one statfs, the first entry of an index, the
// scheduler's memory), never a render, so that a monitor may poll it every few seconds. Ages and sizes only: no
// address, no error text (a failure's words are in the log, which the operator reads; this answer is public).
import fs from 'node:fs';
import path from 'node:path';
import type { Application } from '../app/application.js';
import { oldestPendingEmail, registrationNoticesRefused } from '../mail/outbox.js';
import type { SendingState } from '../mail/worker.js';

/** A job is stale when it has not succeeded for this many of its periods (counted from the start before its first). */
export const JOB_PERIODS = 3;
/** The oldest email still pending may have waited this long, or twice MAIL_RETRY_MAX_S if longer: one outage's retries. */
export const MAIL_PENDING_LIMIT_S = 1800;
/**
 * Every send has failed (the provider unreachable, answering 5xx or 429) for this long: an outage, not a blip that
 * the retries ride out. A refused setup (the token, the sender, the account) fails the check at once: no retry mends it.
 */
export const MAIL_FAILING_LIMIT_S = 600;
/** Free space under DATABASE_PATH below min(64 MiB, 5% of its file system): SQLite's next writes fail with SQLITE_FULL. */
const DISK_FLOOR_BYTES = 64 * 1024 * 1024;
const DISK_FLOOR_SHARE = 0.05;

export type Check = { ok: boolean } & Record<string, number | string | boolean | null>;

export interface HealthReport {
  ok: boolean;
  /** The names of the checks that failed, in the order of `checks`. */
  failing: string[];
  checks: Record<string, Check>;
}

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

function databaseAndMail(app: Application): { database: Check; mail: Check | null } {
  try {
    const oldest = oldestPendingEmail(app.store);
    const limitS = Math.max(MAIL_PENDING_LIMIT_S, 2 * app.config.mailRetryMaxS);
    // Queued on the application's clock (the one rows are stamped with).
    const ageS = oldest === null ? null : seconds(app.now().getTime() - Date.parse(oldest));
    const refused = () => registrationNoticesRefused(app.store, new Date(app.now().getTime() - 24 * 3600_000));
    return { database: { ok: true }, mail: app.mail ? mailCheck(app.mail.sending(), ageS, limitS, refused()) : null };
  } catch (error) {
    // The SQLite code only (SQLITE_CORRUPT, SQLITE_IOERR…): its message may name paths.
    const code = (error as { code?: unknown } | null)?.code;
    return { database: { ok: false, error: typeof code === 'string' ? code : 'unreadable' }, mail: null };
  }
}

/**
 * The backlog's age, and whether the provider takes our emails (src/mail/worker.ts SendingState). With how many notices
 * to organizations' registration_emails the provider refused for their address in the last 24 hours: said, never
 * failing the check (an email refused for itself is no failure of sending, and the node still serves), for a monitor to
 * alert on; the log's `failed permanently` line names the organization.
 */
export function mailCheck(sending: SendingState, oldestPendingAgeS: number | null, limitS: number, registrationNoticesRefused1d: number): Check {
  // Only while an email waits: the one that failed may have been cancelled or given up since, and with nothing to send
  // nothing fails (a review's quiet instance stayed 503 for hours after one failed send).
  const waiting = oldestPendingAgeS !== null;
  const failingForS = sending.failingSinceMs === null || !waiting ? null : seconds(performance.now() - sending.failingSinceMs);
  const backlogOk = oldestPendingAgeS === null || oldestPendingAgeS <= limitS;
  const sendingOk = !(waiting && sending.setupRefused) && (failingForS === null || failingForS <= MAIL_FAILING_LIMIT_S);
  return {
    ok: backlogOk && sendingOk,
    oldest_pending_age_s: oldestPendingAgeS,
    limit_s: limitS,
    sending_failing_for_s: failingForS,
    setup_refused: waiting && sending.setupRefused,
    registration_notices_refused_1d: registrationNoticesRefused1d,
  };
}

function disk(databasePath: string): Check {
  try {
    const fsStat = fs.statfsSync(path.dirname(path.resolve(databasePath)));
    const free = fsStat.bavail * fsStat.bsize;
    const floor = Math.min(DISK_FLOOR_BYTES, DISK_FLOOR_SHARE * fsStat.blocks * fsStat.bsize);
    return { ok: free >= floor, free_mb: Math.floor(free / 2 ** 20), floor_mb: Math.round((floor / 2 ** 20) * 10) / 10 };
  } catch (error) {
    return { ok: false, error: (error as NodeJS.ErrnoException).code ?? 'statfs failed' };
  }
}

export function healthReport(app: Application): HealthReport {
  const { database, mail } = databaseAndMail(app);
  const checks: Record<string, Check> = { database, disk: disk(app.config.databasePath) };
  if (mail) checks.mail = mail;
  // The monotonic clock, as the scheduler records its instants.
  const nowMs = performance.now();
  for (const [name, outcome] of app.jobs.outcomes()) {
    const limitS = JOB_PERIODS * outcome.everyS;
    const sinceSuccessS = seconds(nowMs - (outcome.lastSuccessAt ?? outcome.since));
    checks[name] = {
      ok: sinceSuccessS <= limitS,
      since_success_s: sinceSuccessS,
      failing_for_s: outcome.failingSince === null ? null : seconds(nowMs - outcome.failingSince),
      limit_s: limitS,
    };
  }
  const failing = Object.entries(checks).filter(([, check]) => !check.ok).map(([name]) => name);
  return { ok: failing.length === 0, failing, checks };
}
