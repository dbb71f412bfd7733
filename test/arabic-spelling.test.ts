// One spelling of the Arabic the product says. A native Arabic review read the accusative tanween written both ways,
// on the alif ("مرحباً", "لاحقاً") and on the letter before it ("مرحبًا", "لاحقًا"), from one page to the next: every
// text is written the second way, the one most of them used.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.(ts|astro|md)$/.test(e.name) ? [rel] : [];
  });
}

it('writes the accusative tanween on the letter before the alif (ًا), never on the alif (اً)', () => {
  const found = [...sources('src'), 'README.md']
    .flatMap((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').flatMap((line, i) => {
      return [...line.matchAll(/[\u0621-\u064A\u064B-\u0652]*\u0627\u064B/g)].map((m) => `${file}:${i + 1}: ${m[0]}`);
    }));
  expect(found).toEqual([]);
});
