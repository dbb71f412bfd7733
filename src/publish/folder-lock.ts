// A lock file in the artifacts folder (`.locks/`), held by one process at a time: the render's (`render.lock`) and
// the publish's (`published-s3.lock`). The server's loop and cron's `npm run regenerate` on one ARTIFACTS_DIR must take
// turns: two renders at once could leave one run's older file under the other's newer manifest (never rewritten,
// since its hash says it is current), and two publishes each write the record of what was put from what they read.
// How a lock is taken, and a stopped holder's taken over, is src/lock-file.ts (the server's lock of its database too).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { takeLockFile, type Taken } from '../lock-file.js';

export type { Taken };

/** Where the locks are, in the folder they guard. */
export const LOCKS_DIR = '.locks';

/** Takes the lock `name` in `dir`: a release function, or who holds it (pid 0: unknown). */
export function takeFolderLock(dir: string, name: string): Taken {
  // In a folder of their own: taking and releasing a lock every minute leaves ARTIFACTS_DIR itself untouched, as a
  // quiet render must (its mtime is how a backup or a test sees that nothing was written there).
  const locks = path.join(dir, LOCKS_DIR);
  fs.mkdirSync(locks, { recursive: true });
  return takeLockFile(path.join(locks, name));
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
