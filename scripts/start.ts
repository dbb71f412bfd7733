// npm start: build what is missing, build the application (src/app/application.ts: database, mail worker, rate
// limiters, jobs), load the demo data into an empty database, render the reads once, then serve on PORT.
import path from 'node:path';
import { createApplication } from '../src/app/application.js';
import { config } from '../src/config.js';
import { importFile } from '../src/import/run.js';
import { REGENERATE_JOB } from '../src/jobs/regenerate.js';
import { startServer } from '../src/server/main.js';
import { buildIfNeeded } from './build-if-needed.js';
import { CliError, runCli } from './cli.js';

const DEMO_FILE = path.resolve(import.meta.dirname, '../data/demo.json');

await runCli(async () => {
  const cfg = config();
  buildIfNeeded();
  const app = await createApplication(cfg);

  const { count } = app.store.first(app.store.q.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('count')))!;
  if (count === 0) {
    const outcome = importFile(app.database.sqlite, DEMO_FILE);
    if (!outcome.ok) throw new CliError(`demo data: ${outcome.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    console.log(`empty database: loaded the demo data (${outcome.counts.events} events, ${outcome.counts.matches} matches)`);
  }
  // Serve nothing stale or missing: render once before listening, then on the jobs' schedule.
  console.log(await app.jobs.runNow(REGENERATE_JOB));
  app.jobs.start();

  const running = await startServer(app);
  console.log(`serving on ${running.url}  (database ${cfg.databasePath}, artifacts ${cfg.artifactsDir})`);

  const stop = (signal: string) => {
    console.log(`${signal}: shutting down`);
    void running
      .close()
      .then(() => app.close())
      .then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
});
