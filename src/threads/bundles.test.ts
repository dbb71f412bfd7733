// When a bundle may run instead of its TypeScript (bundles.mjs): only when the sources are as the build found them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/db.js';
import { freshBundle, sourcesStamp } from './bundles.mjs';

const root = tempDir('competitions-bundles-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const T = 1_800_000_000; // seconds: every file's time is set, none left to the clock
type Change = (base: string) => void;
const touch = (rel: string, seconds: number): Change => (base) => fs.utimesSync(path.join(base, rel), seconds, seconds);

/** A project built at T (its stamp written), then changed by `change`. */
function built(name: string, change: Change): Parameters<typeof freshBundle> {
  const base = path.join(root, name);
  for (const rel of ['src/a/x.ts', 'src/a/x.test.ts', 'scripts/x.ts', 'astro.config.mjs', 'package-lock.json', 'dist/x.mjs']) {
    fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    fs.writeFileSync(path.join(base, rel), rel);
    touch(rel, T)(base);
  }
  const dirs = [path.join(base, 'src'), path.join(base, 'scripts')];
  const files = [path.join(base, 'astro.config.mjs'), path.join(base, 'package-lock.json')];
  const stamp = path.join(base, 'dist/.sources-stamp');
  fs.writeFileSync(stamp, sourcesStamp(dirs, files));
  change(base);
  return [path.join(base, 'dist/x.mjs'), dirs, files, stamp];
}

describe('freshBundle', () => {
  it.each<[string, Change, boolean]>([
    ['the sources as built', () => {}, true],
    ['a source under src/ saved since', touch('src/a/x.ts', T + 20), false],
    ['a command under scripts/ saved since', touch('scripts/x.ts', T + 20), false],
    // An operator's review: a release unpacked over an older one keeps its files' older times, and the old build ran.
    ['a source older than the build (a release unpacked over it)', touch('src/a/x.ts', T - 3600), false],
    ['a source added', (base) => fs.writeFileSync(path.join(base, 'src/a/y.ts'), 'y'), false],
    ['a source removed', (base) => fs.rmSync(path.join(base, 'scripts/x.ts')), false],
    ['Astro\'s settings changed', touch('astro.config.mjs', T + 20), false],
    ['the packages changed (npm ci of another lockfile)', (base) => fs.writeFileSync(path.join(base, 'package-lock.json'), '{}'), false],
    ['only a test file changed', touch('src/a/x.test.ts', T + 20), true],
    ['the bundle missing', (base) => fs.rmSync(path.join(base, 'dist/x.mjs')), false],
    ['no stamp (a build before stamps)', (base) => fs.rmSync(path.join(base, 'dist/.sources-stamp')), false],
  ])('%s: %s', (name, change, fresh) => {
    expect(freshBundle(...built(name.replace(/\W+/g, '-'), change))).toBe(fresh);
  });
});
