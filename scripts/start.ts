// npm start: build what is missing, migrate, load the demo data into an empty database, serve on PORT.
import path from 'node:path';
import { sql } from 'kysely';
import { config } from '../src/config.js';
import { openDb } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { importFile } from '../src/import/run.js';
import { makePendingDue } from '../src/mail/outbox.js';
import { createMailTransport } from '../src/mail/transports/index.js';
import { startMailWorker } from '../src/mail/worker.js';
import { formatResult, regenerate, regenerateOptions } from '../src/publish/regenerate.js';
import { startRegenerationLoop } from '../src/publish/schedule.js';
import { artifactHandler } from '../src/server/artifacts.js';
import { startServer } from '../src/server/main.js';
import { buildIfNeeded } from './build-if-needed.js';
import { CliError, runCli } from './cli.js';

const DEMO_FILE = path.resolve(import.meta.dirname, '../data/demo.json');

await runCli(async () => {
  const cfg = config();
  buildIfNeeded();

  const { db, sqlite } = openDb(cfg.databasePath);
  await migrateToLatest(db);
  const { count } = (await sql<{ count: number }>`SELECT count(*) AS count FROM organizations`.execute(db)).rows[0]!;
  if (count === 0) {
    const outcome = importFile(sqlite, DEMO_FILE);
    if (!outcome.ok) throw new CliError(`demo data: ${outcome.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    console.log(`empty database: loaded the demo data (${outcome.counts.events} events, ${outcome.counts.matches} matches)`);
  }
  // Serve nothing stale or missing: render once before listening, then every REGENERATE_EVERY_S.
  console.log(formatResult(await regenerate(db, regenerateOptions(cfg))));
  const loop = startRegenerationLoop(cfg.regenerateEveryS);
  // The outbox worker delivers what the endpoints queued (and anything left from before a restart).
  const waiting = await makePendingDue(db, new Date());
  if (waiting > 0) console.log(`mail: ${waiting} queued emails from before this start will be sent now`);
  const mail = startMailWorker(db, createMailTransport(cfg), {
    from: cfg.mailFrom,
    backoffBaseMs: cfg.mailRetryBaseS * 1000,
    backoffMaxMs: cfg.mailRetryMaxS * 1000,
    // A claim must outlive a batch sent at the worst case: 10 messages, 2 at a time, each up to the timeout.
    leaseMs: Math.max(60_000, cfg.mailSendTimeoutS * 1000 * 6),
  });

  const running = await startServer(cfg, [artifactHandler(cfg.artifactsDir)]);
  console.log(`serving on ${running.url}  (database ${cfg.databasePath}, artifacts ${cfg.artifactsDir})`);

  const stop = (signal: string) => {
    console.log(`${signal}: shutting down`);
    loop.stop();
    void running
      .close()
      .then(() => loop.idle())
      .then(() => mail.stop())
      .then(() => db.destroy())
      .then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
});
