// npm start: take the database's server lock (one server per database), build what is missing, build the
// application (src/app/application.ts: database, mail worker, rate limiters, jobs), load the demo data into an empty
// database, render the reads once, then serve on PORT.
import fs from 'node:fs';
import net from 'node:net';
import { createApplication } from '../src/app/application.js';
import { DEMO_FILE, demoRefusal } from '../src/app/demo-data.js';
import { config } from '../src/config.js';
import { importFile } from '../src/import/run.js';
import { JobSkippedWhileLocked } from '../src/jobs/database-failures.js';
import { PUBLISH_JOB } from '../src/jobs/publish.js';
import { runRegeneration } from '../src/jobs/regenerate.js';
import { checkArtifactsBelongBeforeOpening, RenderLockHeldError } from '../src/publish/regenerate.js';
import { RETENTION_JOB } from '../src/jobs/retention.js';
import { UPDATES_JOB } from '../src/jobs/updates.js';
import { startServer } from '../src/server/main.js';
import { holdServerLock } from '../src/server/server-lock.js';
import { buildIfNeeded } from './build-if-needed.js';
import { CliError, noArguments, runCli } from './cli.js';

/** How long a stop (SIGTERM, SIGINT) waits for requests and email sends in flight. */
const SHUTDOWN_LIMIT_MS = 5_000;

/** Whether a URL's host is this machine (localhost, 127.x, ::1). */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1';
}

/** A failure to listen on HOST:PORT in one line naming the setting to change; anything else as it is. */
function listenError(error: unknown, cfg: { host: string; port: number }): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new CliError(`port ${cfg.port} is already in use on ${cfg.host}: stop what uses it, or set PORT to a free port`);
  if (code === 'EACCES') return new CliError(`port ${cfg.port} needs privileges this process does not have: set PORT to a port above 1023`);
  if (code === 'EADDRNOTAVAIL') return new CliError(`HOST ${cfg.host} is not an address of this machine: set HOST to one of its addresses`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') {
    return new CliError(`HOST ${cfg.host} is not a name this machine can resolve: set HOST to one of its addresses (0.0.0.0: all of them)`);
  }
  return error;
}

/**
 * Listens on HOST:PORT and lets go at once: a start that cannot serve stops here, before it loads the demo data,
 * renders, deletes expired links and sends followers' updates. A server started twice on one port did all of that,
 * then said the port was in use. (Something taking the port in the seconds between is still told at listen.)
 */
async function checkCanListen(cfg: { host: string; port: number }): Promise<void> {
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(cfg.port, cfg.host, () => resolve());
    });
  } catch (error) {
    throw listenError(error, cfg);
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

await runCli(async () => {
  noArguments('npm start (settings come from the environment and .env: PORT=4321 npm start)');
  const cfg = config();
  // First of all: a second server on this database stops here, before it builds, makes the queued emails due (the
  // first server's among them, sent twice) or renders (src/server/server-lock.ts).
  holdServerLock(cfg.databasePath);
  await checkCanListen(cfg);
  buildIfNeeded();
  // Before the database is made or opened, and so before the demo goes into an empty one: a mistyped DATABASE_PATH
  // made a new database, and its render and publish replaced the real reads, in the folder and in the bucket.
  checkArtifactsBelongBeforeOpening(cfg.artifactsDir, cfg.databasePath);
  const app = await createApplication(cfg);
  // A database restored from a backup made under the usual umask is 0644: its -wal and -shm follow, readable by every
  // user of the machine (an operator's review). Said, not changed: the mode is the operator's.
  const { mode } = fs.statSync(cfg.databasePath);
  if ((mode & 0o044) !== 0) {
    console.log(`warning: DATABASE_PATH (${cfg.databasePath}) is readable by other users of this machine (mode ${(mode & 0o777).toString(8)}): it holds players' details and followers' addresses; chmod 600 it`);
  }

  const { count } = app.store.first(app.store.q.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('count')))!;
  const refusal = count === 0 ? demoRefusal(cfg) : null;
  if (count === 0 && refusal === null) {
    const outcome = importFile(app.database.sqlite, DEMO_FILE);
    if (!outcome.ok) throw new CliError(`demo data: ${outcome.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    console.log(`empty database: loaded the demo data (${outcome.counts.events} competitions, ${outcome.counts.matches} matches)`);
  } else if (count === 0) {
    console.log(`empty database: the demo data is not loaded (${refusal}); import your organizations with npm run import -- YOURS.json, and the next render serves them`);
  }
  // Serve nothing stale or missing: render once before listening, then on the jobs' schedule. The render never
  // publishes to the bucket (the publish job does): a store that is slow, down or given a first publish of 40,000
  // objects (a minute and more) would keep the server from serving the reads it already has. It publishes right after.
  // Another process rendering the folder (cron's `npm run regenerate`, a full render after an upgrade) is not waited
  // for: the server serves what the folder holds, which that render completes, and the render job follows.
  try {
    console.log((await runRegeneration(cfg, { lockWaitMs: 2_000 })).line);
  } catch (error) {
    if (!(error instanceof RenderLockHeldError)) throw error;
    console.log(`start-up render skipped: ${error.message}; serving what it renders, the render job follows`);
  }
  // Another process holding the write lock (an import) skips them until their next tick rather than stopping the start.
  for (const job of [RETENTION_JOB, UPDATES_JOB]) {
    console.log(await app.jobs.runNow(job).catch((error: unknown) => {
      if (error instanceof JobSkippedWhileLocked) return error.message;
      throw error;
    }));
  }

  let running;
  try {
    running = await startServer(app);
  } catch (error) {
    await app.close();
    throw listenError(error, cfg);
  }
  app.jobs.start();
  // Where email goes, said at every start: a deployment left on the default file transport sent nothing, and its
  // .eml files (a registration's notice holds the player's details) piled up unseen (a review).
  const mail = cfg.mailTransport === 'postmark' ? 'email through Postmark' : `email written as .eml files to ${cfg.mailDir}, not sent (MAIL_TRANSPORT=postmark sends it)`;
  console.log(`serving on ${running.url}  (database ${cfg.databasePath}, artifacts ${cfg.artifactsDir}, links ${cfg.publicBaseUrl}; ${mail})`);
  // Postmark's emails carry links made from PUBLIC_BASE_URL: one on this machine works for nobody who receives them.
  if (cfg.mailTransport === 'postmark' && isLoopback(cfg.publicBaseUrl)) {
    console.log(`warning: PUBLIC_BASE_URL is ${cfg.publicBaseUrl}: the links in the emails sent through Postmark point at this machine, and work for nobody else`);
  }
  if (cfg.publishS3) app.jobs.kick(PUBLISH_JOB);

  const stop = (signal: string) => {
    console.log(`${signal}: shutting down`);
    // A write waiting for another process's lock is answered now (503 with Retry-After), not after the stop's limit.
    app.commits.stopWaiting();
    void running
      .close()
      .then(() => app.close())
      .then(() => process.exit(0));
    // Requests still unanswered, an email still being sent (it goes again after the restart) or a job still running
    // (a full render, a first publish) after 5 s: said, and not reported as a clean stop.
    setTimeout(() => {
      console.error(`${signal}: not stopped after ${SHUTDOWN_LIMIT_MS / 1000} s (a request, an email send or a job such as a render or a publish still running): exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
});
