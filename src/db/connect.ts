// One way to open the database, for the server, the regeneration job, the CLIs and the tests alike.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { makeFolder } from '../folders.js';
import { redactTokens } from '../security/tokens.js';
import type { DB } from './schema.js';

export type Db = Kysely<DB>;

export interface OpenOptions {
  readonly?: boolean;
}

/**
 * Opens a SQLite file with the pragmas every process needs so that the server, the regeneration job
 * and an import can share it: WAL (readers never block the writer), foreign keys enforced, and a busy
 * timeout so a writer waits for another writer instead of failing with SQLITE_BUSY.
 */
export function openSqlite(file: string, options: OpenOptions = {}): Database.Database {
  // Its folder, made one level at a time (src/folders.ts: Node's recursive mkdir spins under /proc).
  if (file !== ':memory:') makeFolder(path.dirname(file), { name: 'DATABASE_PATH', value: file });
  if (file !== ':memory:' && !options.readonly) createPrivately(file);
  const sqlite = new Database(file, { readonly: options.readonly ?? false });
  sqlite.pragma('busy_timeout = 10000');
  if (!options.readonly) sqlite.pragma('journal_mode = WAL');
  // FULL: every commit is fsynced before we answer, so an acknowledged write survives a power loss too,
  // not only a killed process (NORMAL would risk the last commits on an OS crash).
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Deleted or rewritten content is overwritten with zeros, not left in free pages: email bodies with
  // secret links are redacted once sent (src/mail/outbox.ts) and must not linger in the file.
  sqlite.pragma('secure_delete = ON');
  sqlite.function('redact_tokens', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? redactTokens(value) : value,
  );
  return sqlite;
}

/**
 * A new database file is made readable by its owner only (0600), before SQLite opens it: it holds registrations
 * (players' dates of birth, guardians' phones) and followers' addresses, and SQLite made it 0644 under the usual umask,
 * readable by every user of the machine (an operator's review). SQLite gives its -wal and -shm files the database
 * file's mode. An existing file's mode is the operator's and is left as it is.
 */
function createPrivately(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

export function openDb(file: string, options: OpenOptions = {}): { db: Db; sqlite: Database.Database } {
  const sqlite = openSqlite(file, options);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, sqlite };
}
