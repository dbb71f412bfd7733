// npm run migrate: brings DATABASE_PATH to the latest schema.
import { config } from '../src/config.js';
import { openDb } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { noArguments, runCli } from './cli.js';

await runCli(async () => {
  noArguments('npm run migrate');
  // Not withDatabase: this one reports what it migrated.
  const { db } = openDb(config().databasePath);
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `migrated: ${applied.join(', ')}` : 'schema is up to date');
  } finally {
    await db.destroy();
  }
});
