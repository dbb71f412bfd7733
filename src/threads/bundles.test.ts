// When a bundle may run instead of its TypeScript (bundles.mjs): only when no source is newer than it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/db.js';
import { freshBundle } from './bundles.mjs';

const root = tempDir('competitions-bundles-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const T = 1_800_000_000; // seconds: every file's time is set, none left to the clock
function tree(name: string, files: Record<string, number>): { bundle: string; dirs: string[] } {
  const base = path.join(root, name);
  for (const rel of Object.keys(files)) {
    const file = path.join(base, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, rel);
  }
  // Folders first, then files: writing a file moves its folder's time.
  for (const dir of ['src', 'src/a', 'scripts']) if (fs.existsSync(path.join(base, dir))) fs.utimesSync(path.join(base, dir), T, T);
  for (const [rel, seconds] of Object.entries(files)) fs.utimesSync(path.join(base, rel), seconds, seconds);
  return { bundle: path.join(base, 'dist/x.mjs'), dirs: [path.join(base, 'src'), path.join(base, 'scripts')] };
}

describe('freshBundle', () => {
  it.each([
    ['newer than every source', { 'src/a/x.ts': T, 'scripts/x.ts': T, 'dist/x.mjs': T + 10 }, true],
    ['as new as the newest source', { 'src/a/x.ts': T + 10, 'scripts/x.ts': T, 'dist/x.mjs': T + 10 }, true],
    ['older than a source under src/', { 'src/a/x.ts': T + 20, 'scripts/x.ts': T, 'dist/x.mjs': T + 10 }, false],
    ['older than a command under scripts/', { 'src/a/x.ts': T, 'scripts/x.ts': T + 20, 'dist/x.mjs': T + 10 }, false],
    ['older only than a test file', { 'src/a/x.ts': T, 'src/a/x.test.ts': T + 20, 'scripts/x.ts': T, 'dist/x.mjs': T + 10 }, true],
    ['missing', { 'src/a/x.ts': T, 'scripts/x.ts': T }, false],
  ])('a bundle %s: %s', (name, files, fresh) => {
    const { bundle, dirs } = tree(name.replace(/\W+/g, '-'), files);
    expect(freshBundle(bundle, dirs)).toBe(fresh);
  });
});
