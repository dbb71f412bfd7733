// One server per database. The mail worker, the jobs and the rate limiters live in the server process, and start-up
// assumes it is the only one of its database: it makes every pending email due at once (src/mail/outbox.ts,
// makePendingDue), voiding the lease of an email another server is still sending (a review's second `npm start` on
// one DATABASE_PATH sent an email twice), and two releases side by side rewrite each other's renders every minute.
// So `npm start` holds this lock while it runs, and a second one refuses to start. The commands (import, regenerate,
// updates, invite…) do not take it: they are made to run beside the server.
import path from 'node:path';
import { ConfigError } from '../config.js';
import { makeFolder } from '../folders.js';
import { takeLockFile } from '../lock-file.js';

/**
 * Next to the database, not in ARTIFACTS_DIR: the concern is the database (its outbox, its jobs), and two servers
 * given one DATABASE_PATH and two artifacts folders would each hold a lock of their own folder and both run.
 */
export const serverLockFile = (databasePath: string) => `${databasePath}.server.lock`;

/** Another server holds the database: the one line the second `npm start` exits with (a ConfigError: no stack). */
export class ServerLockHeldError extends ConfigError {
  constructor(databasePath: string, holder: number, startedAt: string | undefined) {
    const who = holder ? `pid ${holder}${startedAt ? `, started ${startedAt}` : ''}` : `its process unknown (see ${serverLockFile(databasePath)})`;
    super(
      `DATABASE_PATH (${databasePath}) is already served by another server (${who}): one server per database; ` +
        'stop that one first (the npm run commands work beside it)',
    );
  }
}

/**
 * Takes the server's lock of `databasePath` for as long as this process runs (released at its exit; a server killed
 * holds it no longer: the next start takes it over), or throws ServerLockHeldError. An in-memory database is the
 * process's own: nothing to lock.
 */
export function holdServerLock(databasePath: string): void {
  if (databasePath === ':memory:') return;
  makeFolder(path.dirname(databasePath), { name: 'DATABASE_PATH', value: databasePath });
  let taken;
  try {
    taken = takeLockFile(serverLockFile(databasePath));
  } catch (error) {
    // A folder the server cannot write in (SQLite could not make its -wal there either): one line naming the setting.
    throw new ConfigError(`DATABASE_PATH (${databasePath}): cannot write the server's lock beside it: ${(error as Error).message}`);
  }
  if ('holder' in taken) throw new ServerLockHeldError(databasePath, taken.holder, taken.startedAt);
  process.once('exit', taken.release);
}
