// npm run retention: the retention job once (src/jobs/retention.ts: the same function the server runs every hour),
// then a WAL checkpoint so that what it deleted is gone from app.db-wal too; one line printed.
import { checkpointWal } from '../src/db/checkpoint.js';
import { runRetention } from '../src/jobs/retention.js';
import { noArguments, runCli, withDatabase } from './cli.js';

await runCli(() => {
  noArguments('npm run retention');
  return withDatabase(({ store, sqlite }) => {
    const line = runRetention(store, new Date());
    console.log(checkpointWal(sqlite) ? line : `${line} (WAL checkpoint deferred: the database was busy)`);
  });
});
