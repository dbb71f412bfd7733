// The folders the settings name (ARTIFACTS_DIR, MAIL_DIR, DATABASE_PATH's folder), made before anything is written
// there, one level at a time. Not with Node's recursive mkdir: where mkdir answers ENOENT under a parent that exists
// (/proc, /sys, a stale mount, a link to nothing), fs.mkdirSync(dir, { recursive: true }) makes the parent again,
// finds it there and tries the child again, forever, at full CPU in the kernel: ARTIFACTS_DIR=/proc/x made the
// regeneration spin (npm start never served, npm run regenerate never returned). Here each level is tried once, and
// a folder that cannot be made, or not written in, stops the process with one line naming the setting.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';
import { LOCKS_DIR } from './publish/folder-lock.js';

export interface FolderSetting {
  /** The variable, e.g. `ARTIFACTS_DIR`. */
  name: string;
  /** Its value as the configuration resolved it (for DATABASE_PATH the database file, not its folder). */
  value: string;
}

function isFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether this process's umask takes any of `mode`'s bits off what it makes; the umask is read once (only ever read
 * here). Where it does (a service manager's UMask=0077), what must stay readable by others is given its mode exactly:
 * nginx serves the reads as another user, and under UMask=0077 it answered 404 for every competition (an operator's
 * review). Under the usual 022 nothing more is done: no chmod a file (a full render makes 61,000).
 */
let umask: number | undefined;
export const umaskTakes = (mode: number): boolean => (mode & (umask ??= process.umask())) !== 0;

/** Makes `dir` and its missing parents, each readable by others (0755) whatever the umask. */
export function makeReadableFolder(dir: string): void {
  const first = fs.mkdirSync(dir, { recursive: true });
  if (first === undefined || !umaskTakes(0o755)) return;
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    fs.chmodSync(at, 0o755);
    if (at === path.resolve(first) || path.dirname(at) === at) break;
  }
}

/**
 * What a failed mkdir of `level` means in words, after the system's own message: "EEXIST: file already exists" read
 * as nonsense to an operator whose ARTIFACTS_DIR was a file they had made by mistake.
 */
function whyNotMade(code: string | undefined, level: string): string {
  if (code === 'EEXIST') {
    const link = fs.lstatSync(level, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
    return link ? ` (${level} is a link to nothing: remove it or make what it points to)` : ` (${level} is a file, not a folder: name a folder)`;
  }
  // ENOENT though the parent was just found or made: a folder that takes no new folder (/proc, a stale mount).
  if (code === 'ENOENT' && isFolder(path.dirname(level))) return ` (${path.dirname(level)} takes no new folder)`;
  return '';
}

function refuse(setting: FolderSetting, what: string): never {
  throw new ConfigError(`${setting.name} (${setting.value}): ${what}`);
}

/**
 * Makes `folder` and whatever of its parents is missing, each with one mkdir; with `writable`, also checks that a
 * folder can be made in it (and removes that at once), as the regeneration and the file transport will. Throws a
 * ConfigError naming the setting, its value and the system's error; never loops.
 */
export function makeFolder(folder: string, setting: FolderSetting, options: { writable?: boolean; readableByOthers?: boolean } = {}): void {
  const target = path.resolve(folder);
  if (!isFolder(target)) {
    const chain: string[] = [];
    for (let at = target; ; at = path.dirname(at)) {
      chain.unshift(at);
      if (path.dirname(at) === at) break;
    }
    for (const level of chain) {
      try {
        fs.mkdirSync(level);
        // Whatever the umask (a service manager's UMask=0077 made ARTIFACTS_DIR 0700, and nginx answered 404).
        if (options.readableByOthers && umaskTakes(0o755)) fs.chmodSync(level, 0o755);
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        if (e.code === 'EEXIST' && isFolder(level)) continue;
        refuse(setting, `${e.message}${whyNotMade(e.code, level)}`);
      }
    }
  }
  if (options.writable) {
    let probe: string;
    try {
      probe = fs.mkdtempSync(path.join(target, '.writable-check-'));
    } catch (error) {
      refuse(setting, `cannot write in this folder: ${(error as Error).message}`);
    }
    fs.rmdirSync(probe);
  }
}

/**
 * ARTIFACTS_DIR, made and checked before a regeneration writes there (the server at start, npm run regenerate). The
 * write check is made in its locks folder (src/publish/folder-lock.ts), which the render writes in anyway: made in
 * ARTIFACTS_DIR itself it changed that folder's mtime at every cron run, which a quiet render must leave alone.
 */
export function makeArtifactsFolder(artifactsDir: string): void {
  const setting = { name: 'ARTIFACTS_DIR', value: artifactsDir };
  const locks = path.join(artifactsDir, LOCKS_DIR);
  // Until the locks folder exists, the check is made in ARTIFACTS_DIR itself, whose refusal names it.
  makeFolder(artifactsDir, setting, { writable: !isFolder(locks), readableByOthers: true });
  makeFolder(locks, setting, { writable: true });
}

/**
 * A failure to write in a setting's folder while a job runs (not at start, where makeFolder checks), said with what
 * to do: an operator's review read "regenerate failed: ENOSPC: no space left on device, write" with no folder named.
 * Null for any other error.
 */
export function folderWriteError(error: unknown, setting: FolderSetting): ConfigError | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const what = code === 'ENOSPC' || code === 'EDQUOT' ? 'the disk holding it is full: free space there'
    : code === 'EROFS' ? 'its file system is read-only: make it writable'
    : code === 'EACCES' || code === 'EPERM' ? "this process may not write there: give the service's user write access"
    : null;
  return what === null ? null : new ConfigError(`${setting.name} (${setting.value}): ${what} (${(error as Error).message})`);
}

/**
 * A folder above ARTIFACTS_DIR that other users cannot enter, said with what to do; null when there is none. The
 * reads are made readable by others whatever the umask (src/publish/store.ts), but a folder above them is not this
 * service's to change: under a service manager's UMask=0077 the database side made `data/` 0700, and nginx (another
 * user) answered 404 for every read in `data/artifacts` (a review).
 */
export function artifactsUnreachableByOthers(artifactsDir: string): string | null {
  for (let at = path.dirname(path.resolve(artifactsDir)); ; at = path.dirname(at)) {
    let mode: number;
    try {
      mode = fs.statSync(at).mode;
    } catch {
      return null;
    }
    if ((mode & 0o001) === 0) {
      return `ARTIFACTS_DIR (${artifactsDir}): other users cannot enter ${at} (mode ${(mode & 0o777).toString(8)}), so a server such as nginx running as another user cannot serve the reads; chmod o+x ${at} if one does`;
    }
    if (path.dirname(at) === at) return null;
  }
}
