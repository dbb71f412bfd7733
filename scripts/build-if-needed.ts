// `npm start` on a fresh clone, the test suite and the bench: build when the build is missing or was made from other
// sources than these (src/threads/bundles.mjs sourcesStamp). The build is Astro's server bundle (the node server loads it from dist/), the worker threads' bundles
// (dist/workers/: src/threads/module-worker.ts runs them instead of the sources when they are fresh) and the bundled
// commands' (dist/scripts/: scripts/launch.mjs, the same rule, src/threads/bundles.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { ASTRO_ENTRY } from '../src/server/astro-handler.js';
import { bundleFile, freshBuild, ROOT, SCRIPT_BUNDLE_DIR, SOURCES_STAMP, sourcesStamp, WORKER_BUNDLE_DIR } from '../src/threads/bundles.mjs';

/** The modules that run in worker threads, each bundled as dist/workers/NAME.mjs. */
const WORKER_ENTRIES = ['src/publish/render-worker.ts'];
/**
 * The commands run through scripts/launch.mjs, each bundled as dist/scripts/NAME.mjs: those cron runs (regenerate,
 * updates), where tsx's loader thread would be about 37 MB of each run's memory and 0.4 s of its time.
 */
const SCRIPT_ENTRIES = ['scripts/regenerate.ts', 'scripts/updates.ts'];

/** Runs `astro build` (it empties dist/ first). */
export function buildAstro(stdio: 'inherit' | ['ignore', 'inherit', 'inherit'] = ['ignore', 'inherit', 'inherit']): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/astro.js'), 'build'], {
    cwd: ROOT,
    stdio,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status ?? result.signal})`);
}

const BUNDLE_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  // better-sqlite3 is a native addon; the AWS SDK stays in node_modules, loaded only where a bucket is configured.
  external: ['better-sqlite3', '@aws-sdk/*'],
  // Bundled CommonJS packages call require(): an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
};

/** Bundles each worker entry point and each command into one ES module (and, for a command, its lazy chunks). */
export function buildBundles(): void {
  buildSync({ ...BUNDLE_OPTIONS, entryPoints: WORKER_ENTRIES.map((e) => path.join(ROOT, e)), outdir: WORKER_BUNDLE_DIR });
  // Split: a dynamic import() stays one (the S3 publisher and its SDK load only when a bucket is configured).
  buildSync({ ...BUNDLE_OPTIONS, entryPoints: SCRIPT_ENTRIES.map((e) => path.join(ROOT, e)), outdir: SCRIPT_BUNDLE_DIR, splitting: true, chunkNames: 'chunks/[name]-[hash]' });
}

/**
 * Astro's bundle, then ours (Astro's build empties dist/), then the stamp of the sources they were made from: taken
 * before building, so that a source saved during the build makes the next start build again.
 */
export function build(stdio?: Parameters<typeof buildAstro>[0]): void {
  const stamp = sourcesStamp();
  buildAstro(stdio);
  buildBundles();
  fs.writeFileSync(SOURCES_STAMP, stamp);
}

export function buildIfNeeded(): void {
  const outputs = [ASTRO_ENTRY, ...WORKER_ENTRIES.map((e) => bundleFile(WORKER_BUNDLE_DIR, e)), ...SCRIPT_ENTRIES.map((e) => bundleFile(SCRIPT_BUNDLE_DIR, e))];
  if (freshBuild(outputs)) return;
  console.log(fs.existsSync(ASTRO_ENTRY) ? 'sources changed since the last build: building…' : 'no build yet: building…');
  build();
}
