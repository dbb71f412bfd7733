// The bundles the build writes beside Astro's (scripts/build-if-needed.ts): dist/workers/NAME.mjs for the worker
// threads, dist/scripts/NAME.mjs for the commands cron starts (scripts/launch.mjs). A bundle is the same code in one
// file, run by plain node: no tsx, no transpiling. It runs instead of its TypeScript only when the sources are as the
// build found them (sourcesStamp): other ones would run other code than the rest of the process. Plain JavaScript,
// because the launcher reads it before anything can load TypeScript.
import crypto from 'node:crypto';
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

/** Files outside the source folders that change what the build makes: Astro's settings, the packages bundled. */
const BUILD_FILES = ['astro.config.mjs', 'package-lock.json'].map((file) => path.join(ROOT, file));

/** Where the build records the sources' stamp it was made from. */
export const SOURCES_STAMP = path.join(ROOT, 'dist/.sources-stamp');

/**
 * Each file under `dir` (tests aside) as `path size mtime` lines, the path from the project's folder: a copy or move of
 * the whole installation keeps its build (a review of the change found absolute paths made every such build stale).
 */
function listFiles(dir, lines) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (isTestFile(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(full, lines);
    else {
      const stat = fs.statSync(full);
      lines.push(`${path.relative(ROOT, full)}\0${stat.size}\0${stat.mtimeMs}`);
    }
  }
}

/**
 * The sources as they stand: each file's path, size and modification time, hashed (tests aside). Any change moves it:
 * an edit, a file added or removed, and a release unpacked over an older one, whose files keep the release's older
 * times. An operator's review upgraded that way: the old build was newer than every source, so the server served the
 * old pages beside the new migrations. Stat only, as cheap as the newest time was.
 */
export function sourcesStamp(dirs = SOURCE_DIRS, files = BUILD_FILES) {
  const lines = [];
  for (const dir of dirs) listFiles(dir, lines);
  for (const file of files) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    lines.push(`${path.relative(ROOT, file)}\0${stat ? `${stat.size}\0${stat.mtimeMs}` : 'none'}`);
  }
  return crypto.createHash('sha256').update(lines.sort().join('\n')).digest('hex');
}

/** Whether every output exists and the build that made them found the sources as they stand (one sourcesStamp). */
export function freshBuild(outputs, dirs = SOURCE_DIRS, files = BUILD_FILES, stampFile = SOURCES_STAMP) {
  try {
    return outputs.every((output) => fs.statSync(output).isFile()) && fs.readFileSync(stampFile, 'utf8') === sourcesStamp(dirs, files);
  } catch {
    return false;
  }
}

/** freshBuild of one bundle. */
export function freshBundle(bundle, dirs = SOURCE_DIRS, files = BUILD_FILES, stampFile = SOURCES_STAMP) {
  return freshBuild([bundle], dirs, files, stampFile);
}
