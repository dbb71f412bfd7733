// Whether the last regeneration finished. A run that changes a file first leaves a marker, `.rendering.<pid>`, and
// removes it once its manifest is written. A marker whose process is gone is a run that stopped in between (killed,
// out of memory, failed, or the machine went down): the manifest's hashes then no longer describe the files on disk
// (a file that run wrote, for data reverted since, would be taken as current and never rewritten), so the next run
// renders and writes everything again. The marker of a process still running is another run in progress, not a
// stopped one (the server's loop and `npm run regenerate` on the same machine); a job never overlaps itself in one
// process (scheduler.ts), so a marker of this process is a run of it that failed.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './store.js';

const PREFIX = '.rendering.';

function stillRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, under another user
  }
}

/** The markers, in the artifacts directory `root`, of runs that stopped before writing their manifest. */
export function stoppedRuns(root: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  return names.filter((name) => name.startsWith(PREFIX) && !stillRunning(Number(name.slice(PREFIX.length)))).map((name) => path.join(root, name));
}

/** Marks this process's run as unfinished, durably (its directory entry too) before any artifact changes. */
export function markRunning(root: string): string {
  const marker = path.join(root, `${PREFIX}${process.pid}`);
  writeFileAtomic(marker, `${JSON.stringify({ pid: process.pid, started: new Date().toISOString() })}\n`);
  const dir = fs.openSync(root, 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
  return marker;
}
