// One server per database. The mail worker, the jobs and the rate limiters live in the server process, and start-up
// assumes it is the only one of its database: it makes every pending email due at once (src/mail/outbox.ts,
// makePendingDue), voiding the lease of an email another server is still sending (a review's second `npm start` on
// one DATABASE_PATH sent an email twice), and two releases side by side rewrite each other's renders every minute.
// So `npm start` holds this lock while it runs, and a second one refuses to start. The commands (import, regenerate,
// updates, invite…) do not take it: they are made to run beside the server.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError } from '../config.js';
import { makeFolder } from '../folders.js';
import { takeLockFile } from '../lock-file.js';

/**
 * Next to the database, not in ARTIFACTS_DIR: the concern is the database (its outbox, its jobs), and two servers
 * given one DATABASE_PATH and two artifacts folders would each hold a lock of their own folder and both run.
 */
export const serverLockFile = (databasePath: string) => `${databasePath}.server.lock`;

/**
 * The lock itself: a small SQLite file this process holds an exclusive lock on for as long as it runs (the kernel's
 * lock, which it releases when the process ends, however it ends). A pid alone could not say: a second server in
 * another container numbers its processes from 1 too, saw no live holder by the first one's pid (or its own), took the
 * lock and ran beside it (a review started one with `unshare -fp`). serverLockFile only names the holder for the
 * refusal's line. The file stays: removing it while another process opens it would let two hold two files.
 */
export const serverLockHold = (databasePath: string) => `${databasePath}.server.lock.sqlite`;

/** Kept open, and so locked, until the process ends. */
let held: Database.Database | undefined;

/** The kernel's exclusive lock of the hold file, or false when another process has it. */
function holdExclusively(file: string): boolean {
  const lock = new Database(file, { timeout: 0 });
  try {
    // The journal in memory, set first (once locked, the mode no longer changes): the file holds nothing worth
    // rolling back, and exclusive mode kept a -journal file beside it for good (a new user's `git status` showed it).
    lock.pragma('journal_mode = MEMORY');
    // In exclusive locking mode a connection keeps the lock its first write took, until it closes.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('CREATE TABLE IF NOT EXISTS held (at TEXT); DELETE FROM held; INSERT INTO held VALUES (datetime())');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw error;
  }
  held = lock;
  return true;
}

/** Another server holds the database: the one line the second `npm start` exits with (a ConfigError: no stack). */
export class ServerLockHeldError extends ConfigError {
  /** `lockedAt`: the database file the lock is beside (DATABASE_PATH, or the file a link to it leads to). */
  constructor(databasePath: string, holder: number, startedAt: string | undefined, lockedAt = databasePath) {
    const who = holder ? `pid ${holder}${startedAt ? `, started ${startedAt}` : ''}` : `its process unknown (see ${serverLockFile(lockedAt)})`;
    super(
      `DATABASE_PATH (${databasePath}) is already served by another server (${who}): one server per database; ` +
        'stop that one first (the npm run commands work beside it)',
    );
  }
}

/** The pid and start of the server the pid file names, for the refusal's line (0: not known). */
function holderNamed(databasePath: string): [number, string | undefined] {
  try {
    const named = JSON.parse(fs.readFileSync(serverLockFile(databasePath), 'utf8')) as { pid?: unknown; startedAt?: unknown };
    return [typeof named.pid === 'number' ? named.pid : 0, typeof named.startedAt === 'string' ? named.startedAt : undefined];
  } catch {
    return [0, undefined];
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
  // Beside the database file itself: a DATABASE_PATH that is a link to it held a lock beside the link, and a second
  // server ran on the same file with a mail worker of its own (an operator's review). (A linked folder leads to the
  // same lock file already.)
  const at = fs.existsSync(databasePath) ? fs.realpathSync(databasePath) : databasePath;
  let taken;
  try {
    if (!holdExclusively(serverLockHold(at))) throw new ServerLockHeldError(databasePath, ...holderNamed(at), at);
    // Held: whatever the pid file says is stale (a server killed, or one of another container that is gone).
    fs.rmSync(serverLockFile(at), { force: true });
    taken = takeLockFile(serverLockFile(at));
  } catch (error) {
    if (error instanceof ServerLockHeldError) throw error;
    // A folder the server cannot write in (SQLite could not make its -wal there either): one line naming the setting.
    throw new ConfigError(`DATABASE_PATH (${databasePath}): cannot write the server's lock beside it: ${(error as Error).message}`);
  }
  if ('holder' in taken) throw new ServerLockHeldError(databasePath, taken.holder, taken.startedAt, at);
  process.once('exit', taken.release);
}
