// `npm start` on a fresh clone, the test suite and the bench: build when the build is missing or older than the
// sources. The build is Astro's server bundle (the node server loads it from dist/) and the worker threads' bundles
// (dist/workers/: src/threads/module-worker.ts runs them instead of the sources when they are fresh).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { ASTRO_ENTRY } from '../src/server/astro-handler.js';
import { isTestFile, newestMtime, WORKER_BUNDLE_DIR } from '../src/threads/module-worker.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The modules that run in worker threads, each bundled as dist/workers/NAME.mjs. */
const WORKER_ENTRIES = ['src/publish/render-worker.ts'];

const mtime = (file: string) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);

/** Runs `astro build` (it empties dist/ first). */
export function buildAstro(stdio: 'inherit' | ['ignore', 'inherit', 'inherit'] = ['ignore', 'inherit', 'inherit']): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/astro.js'), 'build'], {
    cwd: ROOT,
    stdio,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status ?? result.signal})`);
}

/** Bundles each worker entry point into one ES module (better-sqlite3, a native addon, stays in node_modules). */
export function buildWorkers(): void {
  buildSync({
    entryPoints: WORKER_ENTRIES.map((e) => path.join(ROOT, e)),
    outdir: WORKER_BUNDLE_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // Bundled CommonJS packages call require(): an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}

/** Astro's bundle, then the workers' (Astro's build empties dist/). */
export function build(stdio?: Parameters<typeof buildAstro>[0]): void {
  buildAstro(stdio);
  buildWorkers();
}

export function buildIfNeeded(): void {
  const sources = Math.max(newestMtime(path.join(ROOT, 'src'), isTestFile), mtime(path.join(ROOT, 'astro.config.mjs')));
  const built = Math.min(
    mtime(ASTRO_ENTRY),
    ...WORKER_ENTRIES.map((e) => mtime(path.join(WORKER_BUNDLE_DIR, `${path.basename(e, '.ts')}.mjs`))),
  );
  if (built >= sources) return;
  console.log(built ? 'sources changed since the last build: building…' : 'no build yet: building…');
  build();
}
