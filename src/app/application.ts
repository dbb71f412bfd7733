// The composition root: the application is built here once per process, from one configuration: the
// database, the mail worker, the rate limiters and the scheduler of the background jobs. The node server hands
// it to Astro with every request (`locals.app`), so endpoints and pages use these very objects; the CLIs open
// the same database the same way (src/db/database.ts).
import type { Config } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { MIGRATIONS } from '../db/migrate.js';
import { GroupCommit } from '../db/group-commit.js';
import { artifactsUnreachableByOthers, makeArtifactsFolder } from '../folders.js';
import type { SyncDb } from '../db/sync.js';
import { RateLimiter } from '../http/rate-limit.js';
import { PUBLISH_JOB, publishJob } from '../jobs/publish.js';
import { regenerationJob } from '../jobs/regenerate.js';
import { retentionJob } from '../jobs/retention.js';
import { updatesJob } from '../jobs/updates.js';
import { createScheduler, type Scheduler } from '../jobs/scheduler.js';
import { makePendingDue } from '../mail/outbox.js';
import type { MailTransport } from '../mail/transport.js';
import { createMailTransport } from '../mail/transports/index.js';
import { startMailWorker, type MailWorker } from '../mail/worker.js';
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
  const database = await openDatabase(config.databasePath);
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
    const waiting = makePendingDue(store, now());
    if (waiting > 0) log(`mail: ${waiting} queued emails from before this start will be sent now`);
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
    // A transaction that queued an email wakes the worker once it has committed: the email leaves at once.
    const worker = mail;
    store.on('email-queued', () => worker.kick());
  }

  // Render and publish are two jobs: the render runs on its period whatever the store does, and a render that
  // changed a file asks for a publish (at once, or right after the publish in progress).
  const { publishS3 } = config;
  const jobs: Scheduler = createScheduler([
    regenerationJob(config, publishS3 ? () => jobs.kick(PUBLISH_JOB) : undefined),
    ...(publishS3 ? [publishJob({ ...config, publishS3 })] : []),
    retentionJob(store, now),
    updatesJob(config, now),
  ], log);

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
