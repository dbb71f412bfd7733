// `npm start` on a fresh clone, and the test suite: build what is missing or older than the sources:
// Astro's server bundle, then the regeneration job as one plain JavaScript file (dist/regenerate.mjs), which
// starts in a third of the time tsx needs to compile it, so a quiet minute costs almost nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { ASTRO_ENTRY } from '../src/server/astro-handler.js';

const ROOT = path.resolve(import.meta.dirname, '..');
export const REGENERATE_BUNDLE = path.join(ROOT, 'dist/regenerate.mjs');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

const mtime = (file: string) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);

export function buildRegenerateBundle(): void {
  buildSync({
    entryPoints: [path.join(ROOT, 'scripts/regenerate.ts')],
    outfile: REGENERATE_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    // CommonJS dependencies bundled into an ES module still call require().
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}

export function buildIfNeeded(): void {
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'src')),
    mtime(path.join(ROOT, 'astro.config.mjs')),
    mtime(path.join(ROOT, 'scripts/regenerate.ts')),
    mtime(path.join(ROOT, 'scripts/cli.ts')),
  );
  const built = mtime(ASTRO_ENTRY);
  if (built < sources) {
    console.log(built ? 'sources changed since the last build: building…' : 'no build yet: building…');
    const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/astro.js'), 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status ?? result.signal})`);
  }
  // astro build empties dist/: the bundle is made after it.
  if (mtime(REGENERATE_BUNDLE) < sources || !fs.existsSync(REGENERATE_BUNDLE)) buildRegenerateBundle();
}
