// `npm start` on a fresh clone, and the test suite: build Astro's server bundle when it is missing or older
// than the sources (the node server loads it from dist/).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ASTRO_ENTRY } from '../src/server/astro-handler.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The newest change under a folder: its files, and its folders (whose mtime moves when a file is deleted). */
function newestMtime(dir: string): number {
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

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

export function buildIfNeeded(): void {
  const sources = Math.max(newestMtime(path.join(ROOT, 'src')), mtime(path.join(ROOT, 'astro.config.mjs')));
  const built = mtime(ASTRO_ENTRY);
  if (built >= sources) return;
  console.log(built ? 'sources changed since the last build: building…' : 'no build yet: building…');
  buildAstro();
}
