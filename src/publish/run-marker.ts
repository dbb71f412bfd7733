// Whether the last regeneration finished. A run that changes a file first leaves a marker,
// `.rendering.<pid>.<random>`, and removes it once its manifest is written; a run that fails renames its marker
// `<marker>.failed`. A marker of a failed run, or of a process that is gone, is a run that stopped in between (killed,
// out of memory, failed, or the machine went down): the manifest's hashes then no longer describe the files on disk
// (a file that run wrote, for data taken back since, would be taken as current and never rewritten), so the next
// run renders and writes everything again. The marker of a process still running is another run in progress (the
// server's loop and `npm run regenerate` on one machine); a job never overlaps itself in one process
// (scheduler.ts), so a marker of this process is a run of it that stopped without renaming its marker. Each name is
// new: a run removes only the markers it found stopped, never one a run beside it made since under the same name.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './store.js';

const PREFIX = '.rendering.';
const FAILED = '.failed';

/** What /proc says of a process (Linux): when it started, in clock ticks since boot, or that it is not running. */
export type ProcessState = { kind: 'running'; start: string } | { kind: 'gone' } | { kind: 'zombie' } | { kind: 'unknown' };

export function processState(pid: number): ProcessState {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    // Not there: gone (or not Linux, where the marker records no start). Unreadable (a /proc mounted hidepid, another
    // user's process): unknown, judged by the process alone.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'gone' } : { kind: 'unknown' };
  }
  // "pid (command) state ppid …": the command may hold spaces and parentheses; field 22 is the start time.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z') return { kind: 'zombie' }; // dead, not yet reaped
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? { kind: 'running', start } : { kind: 'unknown' };
}

/** What a marker records: its process, and when that process started where that can be known. */
interface Mark {
  pid: number;
  processStart: string | null;
}

function stillRunning(file: string, name: string): boolean {
  if (name.endsWith(FAILED)) return false;
  const pid = Number(name.slice(PREFIX.length).split('.')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  let mark: Partial<Mark> = {};
  try {
    mark = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Mark>;
  } catch {
    /* unreadable: judged by the process alone */
  }
  const state = processState(pid);
  if (state.kind === 'gone' || state.kind === 'zombie') return false;
  // A pid used again by another process is not the run that marked.
  if (state.kind === 'running' && typeof mark.processStart === 'string') return state.start === mark.processStart;
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
  return names
    .filter((name) => name.startsWith(PREFIX) && !name.endsWith('.tmp'))
    .map((name) => ({ name, file: path.join(root, name) }))
    .filter(({ file, name }) => !stillRunning(file, name))
    .map(({ file }) => file);
}

/** Marks this process's run as unfinished, durably (the file and its name), before any artifact changes. */
export function markRunning(root: string): string {
  const marker = path.join(root, `${PREFIX}${process.pid}.${crypto.randomBytes(6).toString('hex')}`);
  const state = processState(process.pid);
  const mark: Mark = { pid: process.pid, processStart: state.kind === 'running' ? state.start : null };
  writeFileAtomic(marker, `${JSON.stringify(mark)}\n`);
  return marker;
}

/**
 * Renames the marker of a run that failed, so that every process takes it for a stopped run: this process is still
 * running, and another one (`npm run regenerate` beside the server's loop) would otherwise wait for its end.
 */
export function markFailed(marker: string): void {
  try {
    fs.renameSync(marker, `${marker}${FAILED}`);
  } catch {
    /* gone, or the disk refuses: its pid still marks it stopped for this process */
  }
}
