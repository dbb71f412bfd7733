// A lock file held by one process at a time, for the locks of the artifacts folder (src/publish/folder-lock.ts: the
// render's and the publish's) and the server's lock of its database (src/server/server-lock.ts). One implementation,
// so that every lock takes over a stopped holder's the same way: the lock records its process and that process's
// start time, so a lock left by a process that is gone (killed midway, a crash, a reboot), or by a pid since used
// again, is taken over; one left by this very process is too (a scheduler never overlaps a job with itself, and a
// server takes its lock once: it is a run of ours that stopped without releasing it, or an earlier container whose
// server had the same pid).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { processState } from './publish/run-marker.js';

interface LockMark {
  pid: number;
  processStart: string | null;
  /** When the process started, wall-clock (ISO): for the operator told who holds the lock, not for the check. */
  startedAt?: string;
}

/** The lock, or the pid of the live process holding it (0: unknown) and, when it said, when that process started. */
export type Taken = { release: () => void } | { holder: number; startedAt?: string };

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

/** Who holds a lock, as its mark says. */
function holderOf(mark: Partial<LockMark> | 'unreadable' | null): { holder: number; startedAt?: string } {
  if (mark === null || mark === 'unreadable' || typeof mark.pid !== 'number') return { holder: 0 };
  return typeof mark.startedAt === 'string' ? { holder: mark.pid, startedAt: mark.startedAt } : { holder: mark.pid };
}

/** This process's mark. */
function ownMark(): LockMark {
  const own = processState(process.pid);
  const startedAt = new Date(Date.now() - process.uptime() * 1000).toISOString();
  return { pid: process.pid, processStart: own.kind === 'running' ? own.start : null, startedAt };
}

/** Takes the lock `file` (its folder must exist): a release function, or who holds it. */
export function takeLockFile(file: string): Taken {
  const mark = ownMark();
  const unique = `${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  // A few rounds: each one that loses a race to another process starts again from what the lock holds now.
  for (let round = 0; round < 5; round++) {
    // Written aside, then linked into place (fails if the lock exists): never seen half written.
    const temp = `${file}.${unique}.tmp`;
    try {
      // Inside the try: on a full disk the file is created and the write fails, and each run of the render's loop left
      // an empty one behind (an operator's review found one a minute while the disk was full).
      fs.writeFileSync(temp, JSON.stringify(mark));
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
    if (holderAlive(held)) return holderOf(held);
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
      return holderOf(moved);
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
