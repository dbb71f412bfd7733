// `npm start` on a fresh clone: build Astro's server bundle when it is missing or older than the sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ASTRO_ENTRY } from '../src/server/astro-handler.js';

const ROOT = path.resolve(import.meta.dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

export function buildIfNeeded(): void {
  const built = fs.existsSync(ASTRO_ENTRY) ? fs.statSync(ASTRO_ENTRY).mtimeMs : 0;
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'src')),
    fs.statSync(path.join(ROOT, 'astro.config.mjs')).mtimeMs,
  );
  if (built >= sources) return;
  console.log(built ? 'sources changed since the last build: building…' : 'no build yet: building…');
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/astro/astro.js'), 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status ?? result.signal})`);
}
