// npm run regenerate: renders every public read into ARTIFACTS_DIR once and prints one line.
// Exits non-zero on failure; the previous artifacts stay in place. Cron: see README.
import { config } from '../src/config.js';
import { openDb } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { formatResult, regenerate, regenerateOptions } from '../src/publish/regenerate.js';
import { runCli } from './cli.js';

await runCli(async () => {
  const cfg = config();
  const { db, sqlite } = openDb(cfg.databasePath);
  try {
    await migrateToLatest(db);
    const result = await regenerate(db, regenerateOptions(cfg));
    console.log(formatResult(result));
    // Once a minute, fold the write-ahead log into the database and empty it, so that old page versions
    // (e.g. email bodies from before their links were redacted) do not linger in app.db-wal. Runs here,
    // outside the server, because it waits for readers to finish.
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    await db.destroy();
  }
});
