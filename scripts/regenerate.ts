// npm run regenerate: the regeneration job once (src/jobs/regenerate.ts: the same function the server's loop
// runs), one line printed; exits non-zero on failure, the previous artifacts staying in place. Cron: see README.
import { runRegeneration } from '../src/jobs/regenerate.js';
import { noArguments, runCli, withDatabase } from './cli.js';

await runCli(() => {
  noArguments('npm run regenerate');
  return withDatabase(async (_database, config) => console.log(await runRegeneration(config)));
});
