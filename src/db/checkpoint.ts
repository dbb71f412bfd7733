// The WAL checkpoint that keeps deleted and redacted data from lingering in app.db-wal.
import type Sqlite from 'better-sqlite3';

/**
 * Folds the write-ahead log into the database and empties it, so that old versions of pages (deleted rows,
 * rewritten data) do not linger in app.db-wal. It never waits: a checkpoint that finds a reader or a writer in
 * the way returns at once and the next run tries again (a busy wait here would hold up the server's requests).
 */
export function checkpointWal(sqlite: Sqlite.Database): boolean {
  // A connection of its own: busy_timeout 0 would make the writer's transactions fail instead of wait.
  sqlite.pragma('busy_timeout = 0');
  const [row] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return row?.busy === 0;
}
