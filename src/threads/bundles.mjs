// The bundles the build writes beside Astro's (scripts/build-if-needed.ts): dist/workers/NAME.mjs for the worker
// threads, dist/scripts/NAME.mjs for the commands cron starts (scripts/launch.mjs). A bundle is the same code in one
// file, run by plain node: no tsx, no transpiling. It runs instead of its TypeScript only when it is at least as new
// as every source file: an older one would run other code than the rest of the process. Plain JavaScript, because
// the launcher reads it before anything can load TypeScript.
import fs from 'node:fs';
import path from 'node:path';

/** The project's folder, found upward from this file: it runs from src/threads/ and from inside a bundle in dist/. */
function findRoot(from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'src'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project folder above ${from}`);
  }
}

export const ROOT = findRoot(import.meta.dirname);
export const WORKER_BUNDLE_DIR = path.join(ROOT, 'dist/workers');
export const SCRIPT_BUNDLE_DIR = path.join(ROOT, 'dist/scripts');
/** What the bundles are built from. */
const SOURCE_DIRS = ['src', 'scripts'].map((dir) => path.join(ROOT, dir));

/** The bundle the build writes in `dir` for the entry point `source` (a .ts file): NAME.mjs. */
export function bundleFile(dir, source) {
  return path.join(dir, `${path.basename(source, '.ts')}.mjs`);
}

/** Test files change no bundle's code. */
const isTestFile = (name) => name.endsWith('.test.ts');

/** The newest modification under a folder (its files' and folders': a deletion moves a folder's). */
function newestMtime(dir, skip = () => false) {
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full, skip) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** The newest modification of the sources (`dirs`, tests aside). */
export function newestSourceMtime(dirs = SOURCE_DIRS) {
  return Math.max(...dirs.map((dir) => newestMtime(dir, isTestFile)));
}

/** Whether the bundle file exists and is at least as new as every source in `dirs`. */
export function freshBundle(bundle, dirs = SOURCE_DIRS) {
  try {
    return fs.statSync(bundle).mtimeMs >= newestSourceMtime(dirs);
  } catch {
    return false;
  }
}
