// A lock file in the artifacts folder (`.locks/`), held by one process at a time: the render's (`render.lock`) and
// the publish's (`published-s3.lock`). The server's loop and cron's `npm run regenerate` on one ARTIFACTS_DIR must take
// turns: two renders at once could leave one run's older file under the other's newer manifest (never rewritten,
// since its hash says it is current), and two publishes each write the record of what was put from what they read.
// The lock records its process and that process's start time, so a lock left by a process that is gone (killed
// midway), or by a pid since used again, is taken over; one left by this very process is too (a scheduler never
// overlaps a job with itself, so it is a run of ours that stopped without releasing it).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processState } from './run-marker.js';

interface LockMark {
  pid: number;
  processStart: string | null;
}

/** Where the locks are, in the folder they guard. */
export const LOCKS_DIR = '.locks';

export type Taken = { release: () => void } | { holder: number };

/** The lock's mark: null when the file is gone (released meanwhile), 'unreadable' when it cannot be parsed. */
function readMark(file: string): Partial<LockMark> | 'unreadable' | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return 'unreadable';
  }
  try {
    return JSON.parse(text) as Partial<LockMark>;
  } catch {
    return 'unreadable';
  }
}

/** Whether the mark's process is alive and is the one that marked (not a pid since used again). Ours: stopped. */
function holderAlive(mark: Partial<LockMark>): mark is LockMark {
  if (typeof mark.pid !== 'number' || mark.pid === process.pid) return false;
  const state = processState(mark.pid);
  return state.kind === 'running' ? typeof mark.processStart !== 'string' || mark.processStart === state.start : state.kind === 'unknown';
}

const sameMark = (a: Partial<LockMark> | 'unreadable' | null, b: Partial<LockMark>) =>
  a !== null && a !== 'unreadable' && a.pid === b.pid && a.processStart === b.processStart;

/** Takes the lock `name` in `dir`: a release function, or the pid of the live process holding it (0: unknown). */
export function takeFolderLock(dir: string, name: string): Taken {
  // In a folder of their own: taking and releasing a lock every minute leaves ARTIFACTS_DIR itself untouched, as a
  // quiet render must (its mtime is how a backup or a test sees that nothing was written there).
  const locks = path.join(dir, LOCKS_DIR);
  fs.mkdirSync(locks, { recursive: true });
  const file = path.join(locks, name);
  const own = processState(process.pid);
  const mark: LockMark = { pid: process.pid, processStart: own.kind === 'running' ? own.start : null };
  const unique = `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  // A few rounds: each one that loses a race to another process starts again from what the lock holds now.
  for (let round = 0; round < 5; round++) {
    // Written aside, then linked into place (fails if the lock exists): never seen half written.
    const temp = `${file}.${unique}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(mark));
    try {
      fs.linkSync(temp, file);
      return { release: () => releaseIfOurs(file, mark) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        if (!NO_HARD_LINKS.has(code ?? '')) throw error;
        // A file system without hard links (some network and FUSE mounts): created exclusively, then written. A
        // process reading it in between finds it unreadable, and takes it for held.
        if (createExclusive(file, mark)) return { release: () => releaseIfOurs(file, mark) };
      }
    } finally {
      fs.rmSync(temp, { force: true });
    }
    const held = readMark(file);
    if (held === null) continue; // released meanwhile: link again
    if (held === 'unreadable') return { holder: 0 };
    if (holderAlive(held)) return { holder: held.pid };
    // A stopped run's lock: taken over. Moved aside first (a rename is atomic), then checked: if another process
    // took the lock over and linked its own in the meantime, the file moved is theirs, and goes back.
    const aside = `${file}.${unique}.stale`;
    try {
      fs.renameSync(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = readMark(aside);
    if (!sameMark(moved, held)) {
      try {
        fs.linkSync(aside, file);
      } catch {
        /* the path was taken again meanwhile: that process holds it */
      }
      fs.rmSync(aside, { force: true });
      return { holder: moved !== null && moved !== 'unreadable' && typeof moved.pid === 'number' ? moved.pid : 0 };
    }
    fs.rmSync(aside, { force: true });
  }
  return { holder: 0 };
}

/** What link() answers on a file system that has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Creates the lock file only if there is none (O_EXCL); false when there is one. */
function createExclusive(file: string, mark: LockMark): boolean {
  try {
    fs.writeFileSync(file, JSON.stringify(mark), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Removes the lock only while it is still this process's: never a lock another process has taken over since. */
function releaseIfOurs(file: string, mark: LockMark): void {
  if (sameMark(readMark(file), mark)) fs.rmSync(file, { force: true });
}

/**
 * Waits for the lock, trying every `pollMs`, up to `timeoutMs` or until `signal` aborts: the release function, or,
 * past the time or aborted, the pid of the process that held it all along.
 */
export async function waitForFolderLock(
  dir: string,
  name: string,
  options: { pollMs?: number; timeoutMs: number; signal?: AbortSignal },
): Promise<Taken> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const taken = takeFolderLock(dir, name);
    // Aborted (the server stopping): no more waiting, as past the time.
    if ('release' in taken || Date.now() >= deadline || options.signal?.aborted) return taken;
    await sleep(options.pollMs ?? 100, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
