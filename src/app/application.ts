// The composition root: the application is built here once per process, from one configuration: the
// database, the mail worker, the rate limiters and the scheduler of the background jobs. The node server hands
// it to Astro with every request (`locals.app`), so endpoints and pages use these very objects; the CLIs open
// the same database the same way (src/db/database.ts).
import type { Config } from '../config.js';
import { isBusyError, SERVER_BUSY_TIMEOUT_MS } from '../db/connect.js';
import { openDatabase, type Database } from '../db/database.js';
import { MIGRATIONS } from '../db/migrate.js';
import { GroupCommit } from '../db/group-commit.js';
import { artifactsUnreachableByOthers, makeArtifactsFolder } from '../folders.js';
import type { SyncDb } from '../db/sync.js';
import { RateLimiter } from '../http/rate-limit.js';
import { PUBLISH_JOB, publishJob } from '../jobs/publish.js';
import { regenerationJob } from '../jobs/regenerate.js';
import { sayingDatabaseFailures } from '../jobs/database-failures.js';
import { retentionJob } from '../jobs/retention.js';
import { updatesJob } from '../jobs/updates.js';
import { createScheduler, type Scheduler } from '../jobs/scheduler.js';
import { makePendingDue } from '../mail/outbox.js';
import type { MailTransport } from '../mail/transport.js';
import { createMailTransport } from '../mail/transports/index.js';
import { startMailWorker, type MailWorker } from '../mail/worker.js';
import { operatorCause } from '../http/request-failure.js';
import { consoleLog, type Log } from '../log.js';

export interface RateLimits {
  /** Per client address and write route (the API's POSTs and the pages' form posts that mirror them). */
  writes: RateLimiter;
  /** Per client address on the dynamic reads (the RSVP summary and the pages that show one). */
  reads: RateLimiter;
}

export interface Application {
  readonly config: Config;
  /** The writer connection: every request's transaction, the mail worker, the jobs that write. */
  readonly store: SyncDb;
  /** The API's and the mail worker's writes, committed together (src/db/group-commit.ts): one fsync for those that arrive during the last. */
  readonly commits: GroupCommit;
  readonly database: Database;
  readonly limits: RateLimits;
  /** The mail worker, when this process sends mail (the server does; CLIs and in-process tests may not). */
  readonly mail: MailWorker | null;
  readonly jobs: Scheduler;
  /** The clock of every request and job (tests move it). */
  now(): Date;
  close(): Promise<void>;
}

export interface ApplicationOptions {
  /** Start the mail worker (default true). */
  mail?: boolean;
  /** Replace the configured transport (tests). */
  transport?: MailTransport;
  now?: () => Date;
  log?: Log;
}

export async function createApplication(config: Config, options: ApplicationOptions = {}): Promise<Application> {
  const log = options.log ?? consoleLog;
  const now = options.now ?? (() => new Date());
  // The regeneration (at start, then the job) writes there: a folder that cannot be made or written in stops the
  // start here, in one line naming ARTIFACTS_DIR, before the database is opened.
  makeArtifactsFolder(config.artifactsDir);
  const unreachable = artifactsUnreachableByOthers(config.artifactsDir);
  if (unreachable) log(`warning: ${unreachable}`);
  // Every connection of the server waits for another process's lock only briefly, and synchronously (better-sqlite3):
  // a longer wait is the group commit's, on a timer, or the next round of the mail worker and of the jobs. An on-call
  // review's sqlite3 shell held the lock 80 s, and the 10 s wait the commands keep froze every request, static reads
  // and /healthz among them, 10 s at a time.
  const busyTimeoutMs = SERVER_BUSY_TIMEOUT_MS;
  const database = await openDatabase(config.databasePath, { busyTimeoutMs });
  // An upgrade's start says what it changed in the database (a migration cannot be undone: the operator's record); a
  // new database's, only that it was made.
  const { migrated } = database;
  if (migrated.length === Object.keys(MIGRATIONS).length) log(`database created (schema ${migrated.at(-1)})`);
  else if (migrated.length > 0) log(`database migrated: ${migrated.join(', ')}`);
  const { store } = database;
  const commits = new GroupCommit(store);

  let mail: MailWorker | null = null;
  if (options.mail ?? true) {
    // Whatever was queued before this start (a crash, a restart mid-backoff) is due now.
    try {
      const waiting = makePendingDue(store, now());
      if (waiting > 0) log(`mail: ${waiting} queued emails from before this start will be sent now`);
    } catch (error) {
      // A start during an import: they are sent when their lease or backoff ends, as without a restart.
      if (!isBusyError(error)) throw error;
      log(`mail: queued emails from before this start go when their lease or backoff ends: ${operatorCause(error, config.databasePath)}`, 'error');
    }
    mail = startMailWorker(store, options.transport ?? createMailTransport(config), {
      from: config.mailFrom,
      baseUrl: config.publicBaseUrl,
      backoffBaseMs: config.mailRetryBaseS * 1000,
      backoffMaxMs: config.mailRetryMaxS * 1000,
      // A claim must outlive a batch sent at the worst case: 10 messages, all at once, each up to the timeout; six
      // timeouts leave room for the commits of their outcomes, which wait behind the requests' under load.
      leaseMs: Math.max(60_000, config.mailSendTimeoutS * 1000 * 6),
      now,
      log,
      commit: (work) => commits.run(work),
    });
    // A transaction that queued an email wakes the worker once it has committed: the email leaves at once (unless
    // sending is paused by an outage, worker.ts pauseSending: then within a minute of its end).
    const worker = mail;
    store.on('email-queued', () => worker.kick());
  }

  // Render and publish are two jobs: the render runs on its period whatever the store does, and a render that
  // changed a file asks for a publish (at once, or right after the publish in progress).
  const { publishS3 } = config;
  // The jobs with connections of their own open them with the server's busy timeout too, and a run that meets the lock
  // is skipped until its next tick, and a database the operator must fix is said as such (src/jobs/database-failures.ts).
  const jobs: Scheduler = createScheduler([
    regenerationJob(config, publishS3 ? () => jobs.kick(PUBLISH_JOB) : undefined, { busyTimeoutMs }),
    ...(publishS3 ? [publishJob({ ...config, publishS3 })] : []),
    retentionJob(store, now),
    updatesJob(config, now, { busyTimeoutMs }),
  ].map((job) => sayingDatabaseFailures(job, config.databasePath)), log);

  return {
    config,
    store,
    commits,
    database,
    limits: {
      writes: new RateLimiter('writes', config.rateLimitWritesPerMin, 60),
      reads: new RateLimiter('reads', config.rateLimitReadsPerMin, 60),
    },
    mail,
    jobs,
    now,
    async close() {
      await jobs.stop();
      await mail?.stop();
      await database.close();
    },
  };
}
