// npm run regenerate: the regeneration job once (src/jobs/regenerate.ts: the render the server's loop runs), then,
// with a bucket, one publish of it (the server's publish job's function, src/jobs/publish.ts, in this process), one
// line printed; exits non-zero on failure, the previous artifacts staying in place. A publish to the
// bucket that failed (or left objects for the next run) is a failure too: the line goes to stderr, the exit is 1,
// so that cron's mail or a monitor sees it. Cron: see README.
import { makeArtifactsFolder } from '../src/folders.js';
import { regenerateAndPublish } from '../src/jobs/regenerate.js';
import { CliError, noArguments, runCli, withDatabase } from './cli.js';

await runCli(() => {
  noArguments('npm run regenerate');
  return withDatabase(async (_database, config) => {
    // A folder that cannot be made or written in: one line naming ARTIFACTS_DIR, at once (src/folders.ts).
    makeArtifactsFolder(config.artifactsDir);
    const run = await regenerateAndPublish(config);
    if (run.publishFailed) throw new CliError(run.line);
    console.log(run.line);
  });
});
