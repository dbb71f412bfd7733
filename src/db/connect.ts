// One way to open the database, for the server, the regeneration job, the CLIs and the tests alike.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { makeFolder } from '../folders.js';
import { redactTokens } from '../security/tokens.js';
import type { DB } from './schema.js';

export type Db = Kysely<DB>;

/**
 * How long a command's connection (import, retention, person, regenerate, migrate) waits for another process's write
 * lock before SQLITE_BUSY: better-sqlite3 waits synchronously, which in a command holds up nobody but itself.
 */
export const COMMAND_BUSY_TIMEOUT_MS = 10_000;

/**
 * How long the server's connections wait for it, synchronously: about what another process's commit holds the lock
 * (its fsync). Every millisecond of that wait blocks the server's event loop, every request with it: at 10 s, a review's
 * sqlite3 shell holding the lock for 80 s made a static read take 19.5 s and /healthz up to 30 s. A longer wait
 * happens asynchronously: the group commit retries after a timer (src/db/group-commit.ts), the mail worker and the
 * jobs try again at their next round.
 */
export const SERVER_BUSY_TIMEOUT_MS = 50;

export interface OpenOptions {
  readonly?: boolean;
  /** busy_timeout: COMMAND_BUSY_TIMEOUT_MS unless the caller (the server's composition root) says otherwise. */
  busyTimeoutMs?: number;
}

/**
 * Opens a SQLite file with the pragmas every process needs so that the server, the regeneration job
 * and an import can share it: WAL (readers never block the writer), foreign keys enforced, and a busy
 * timeout so a writer waits for another writer instead of failing with SQLITE_BUSY (options.busyTimeoutMs: the
 * server's connections wait only briefly, see SERVER_BUSY_TIMEOUT_MS).
 */
export function openSqlite(file: string, options: OpenOptions = {}): Database.Database {
  // Its folder, made one level at a time (src/folders.ts: Node's recursive mkdir spins under /proc).
  if (file !== ':memory:') makeFolder(path.dirname(file), { name: 'DATABASE_PATH', value: file });
  if (file !== ':memory:' && !options.readonly) createPrivately(file);
  const sqlite = new Database(file, { readonly: options.readonly ?? false });
  setBusyTimeout(sqlite, options.busyTimeoutMs ?? COMMAND_BUSY_TIMEOUT_MS);
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

/** How long this connection's statements wait for another connection's lock before SQLITE_BUSY. */
export function setBusyTimeout(sqlite: Database.Database, ms: number): void {
  sqlite.pragma(`busy_timeout = ${Math.max(0, Math.round(ms))}`);
}

/** Whether `error` is SQLite's "another connection holds the lock" (SQLITE_BUSY and its extended codes). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * The pause before the next try after SQLITE_BUSY (`tries` made so far): 10 ms, doubling, at most 200 ms. A write is
 * answered at most 200 ms after the lock is released, and each try blocks the event loop for the connection's short
 * busy timeout (at 50 ms, a fifth of the time at most while a lock lasts). The group commit and retryWhileBusy share it.
 */
export function lockRetryPauseMs(tries: number): number {
  return Math.min(200, 10 * 2 ** tries);
}

/**
 * Runs `write` (one statement, or a transaction of its own), again after a timer while it fails with SQLITE_BUSY, for up
 * to `waitMs`: how a write on a connection with the server's short busy timeout waits for another process's lock without
 * blocking the event loop. For the render's few writes: its token of the folder, recorded after the files, failed at
 * once during an import would leave the manifest ahead of the database, which the next render takes for a restore.
 */
export async function retryWhileBusy<T>(write: () => Promise<T>, waitMs = COMMAND_BUSY_TIMEOUT_MS): Promise<T> {
  const deadline = performance.now() + waitMs;
  for (let tries = 0; ; tries++) {
    try {
      return await write();
    } catch (error) {
      const pause = lockRetryPauseMs(tries);
      if (!isBusyError(error) || performance.now() + pause > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
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
