// A worker thread running one of our modules: from its bundle (dist/workers/, written by the build beside Astro's)
// when that is at least as new as every source file, else from the TypeScript source through tsx. The bundle is the
// same code in one file: a worker starts without tsx and our module graph, about 45 MB less per worker and no
// transpiling. A bundle older than the sources would run other code than the calling thread, so it is never used.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const SOURCE_DIR = path.resolve(import.meta.dirname, '..');
/** Where the build writes each worker entry point as NAME.mjs (scripts/build-if-needed.ts). */
export const WORKER_BUNDLE_DIR = path.resolve(SOURCE_DIR, '../dist/workers');

/** The newest modification under a folder (its files' and folders': a deletion moves a folder's). */
export function newestMtime(dir: string, skip: (name: string) => boolean = () => false): number {
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip(entry.name)) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full, skip) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Test files change no worker's code. */
export const isTestFile = (name: string) => name.endsWith('.test.ts');

/** The module to run for the worker whose source is `source` (a .ts file under src/): its bundle when fresh. */
export function workerModule(source: URL): URL {
  const bundle = path.join(WORKER_BUNDLE_DIR, `${path.basename(source.pathname, '.ts')}.mjs`);
  try {
    if (fs.statSync(bundle).mtimeMs >= newestMtime(SOURCE_DIR, isTestFile)) return pathToFileURL(bundle);
  } catch {
    /* no bundle: the source */
  }
  return source;
}

/**
 * Starts `module` in a worker thread. The worker gets none of the process's --import preloads (Node 20 cannot run a
 * TypeScript preload in a worker); a TypeScript module registers tsx in the worker first, as the process did.
 */
export function startModuleWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const settings = { execArgv: [], ...options };
  if (!module.href.endsWith('.ts')) return new Worker(module, settings);
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(code, { ...settings, eval: true });
}
