// What every CLI shares: the one configuration (src/config.ts, the same one the server reads), the one way to
// open the database (src/db/database.ts: opened and migrated), and the exit behaviour: a known failure prints
// one clear line (no stack trace) and exits 1.
import { config, ConfigError, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';

export class CliError extends Error {
  override name = 'CliError';
}

export async function runCli(main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  }
}

/** Runs `use` with the configured database, opened and migrated, and closes it after. */
export async function withDatabase<T>(use: (database: Database, config: Config) => Promise<T> | T): Promise<T> {
  const cfg = config();
  const database = await openDatabase(cfg.databasePath);
  try {
    return await use(database, cfg);
  } finally {
    await database.close();
  }
}
