// npm run updates [-- --now]: the updates job once (src/jobs/updates.ts, the same function the server runs):
// detects what changed and queues each follow's digest (when its organization's digest hour has passed) and
// alerts; `--now` treats every digest as due now. One line printed; exit 1 on failure. The server's mail worker
// sends what it queued (or the next start of the server does).
import { parseArgs } from 'node:util';
import { runUpdatesJob } from '../src/jobs/updates.js';
import { CliError, runCli, withDatabase } from './cli.js';

await runCli(async () => {
  let force = false;
  try {
    force = parseArgs({ options: { now: { type: 'boolean', default: false } }, strict: true }).values.now ?? false;
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nusage: npm run updates [-- --now]`);
  }
  await withDatabase(async (_database, config) => console.log(await runUpdatesJob(config, new Date(), force)));
});
