// A lock file in the artifacts folder (`.locks/`), held by one process at a time: the render's (`render.lock`) and
// the publish's (`published-s3.lock`). The server's loop and cron's `npm run regenerate` on one ARTIFACTS_DIR must take
// turns: two renders at once could leave one run's older file under the other's newer manifest (never rewritten,
// since its hash says it is current), and two publishes each write the record of what was put from what they read.
// The lock records its process and that process's start time, so a lock left by a process that is gone (killed
// midway), or by a pid since used again, is taken over; one left by this very process is too (a scheduler never
// overlaps a job with itself, so it is a run of ours that stopped without releasing it).
import fs from 'node:fs';
import path from 'node:path';
import { processState } from './run-marker.js';

interface LockMark {
  pid: number;
  processStart: string | null;
}

/** Where the locks are, in the folder they guard. */
export const LOCKS_DIR = '.locks';

export type Taken = { release: () => void } | { holder: number };

function readMark(file: string): Partial<LockMark> | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockMark>;
  } catch {
    return null;
  }
}

/** Takes the lock `name` in `dir`: a release function, or the pid of the live process holding it. */
export function takeFolderLock(dir: string, name: string): Taken {
  // In a folder of their own: taking and releasing a lock every minute leaves ARTIFACTS_DIR itself untouched, as a
  // quiet render must (its mtime is how a backup or a test sees that nothing was written there).
  const locks = path.join(dir, LOCKS_DIR);
  fs.mkdirSync(locks, { recursive: true });
  const file = path.join(locks, name);
  const own = processState(process.pid);
  const mark: LockMark = { pid: process.pid, processStart: own.kind === 'running' ? own.start : null };
  for (let attempt = 0; ; attempt++) {
    // Written aside, then linked into place (fails if the lock exists): never seen half written.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(mark));
    try {
      fs.linkSync(temp, file);
      return { release: () => fs.rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
    const held = readMark(file);
    if (held && typeof held.pid === 'number' && held.pid !== process.pid) {
      const state = processState(held.pid);
      const alive = state.kind === 'running' ? typeof held.processStart !== 'string' || held.processStart === state.start : state.kind === 'unknown';
      if (alive) return { holder: held.pid };
    }
    fs.rmSync(file, { force: true }); // a stopped run's: taken over
  }
}

/**
 * Waits for the lock, trying every `pollMs`, up to `timeoutMs`: the release function, or, past the time, the pid of
 * the process that held it all along.
 */
export async function waitForFolderLock(
  dir: string,
  name: string,
  options: { pollMs?: number; timeoutMs: number; onWait?: (holder: number) => void },
): Promise<Taken> {
  const deadline = Date.now() + options.timeoutMs;
  let told = false;
  for (;;) {
    const taken = takeFolderLock(dir, name);
    if ('release' in taken || Date.now() >= deadline) return taken;
    if (!told) options.onWait?.(taken.holder);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}
