// One way to open the database, for the server, the jobs, the CLIs and the tests alike: the file with its
// pragmas (connect.ts), migrated to the latest schema, with both ways of running queries on one connection:
// Kysely's async API (long reads such as a regeneration's snapshot) and SyncDb (the write transactions).
import type Sqlite from 'better-sqlite3';
import { openDb, setBusyTimeout, type Db } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { SyncDb } from './sync.js';

export interface Database {
  readonly file: string;
  readonly sqlite: Sqlite.Database;
  readonly db: Db;
  readonly store: SyncDb;
  /** The migrations this opening applied, in order (none when the schema was already the latest, or not migrated). */
  readonly migrated: readonly string[];
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Bring the schema to the latest migration (default true). */
  migrate?: boolean;
  /**
   * The connection's busy timeout once open (src/db/connect.ts: COMMAND_BUSY_TIMEOUT_MS by default; the server passes
   * SERVER_BUSY_TIMEOUT_MS). The migration waits as a command does whatever this says: the server migrates before it
   * serves anything, and a start that met an import's commit must not fail for it.
   */
  busyTimeoutMs?: number;
}

/** Opens `file` (created when missing) and, unless told otherwise, brings its schema to the latest migration. */
export async function openDatabase(file: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const { db, sqlite } = openDb(file);
  let migrated: string[] = [];
  if (options.migrate ?? true) {
    try {
      migrated = await migrateToLatest(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  if (options.busyTimeoutMs !== undefined) setBusyTimeout(sqlite, options.busyTimeoutMs);
  return { file, sqlite, db, store: new SyncDb(sqlite), migrated, close: () => db.destroy() };
}
