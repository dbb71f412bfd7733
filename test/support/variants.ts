// What a render leaves beside each artifact: its .gz and .br, unless it is too short to gain from them
// (hasVariants), then neither; and no variant without its artifact.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { hasVariants } from '../../src/publish/store.js';

/** `files`: every file of a render, relative to `root` or absolute. Returns its artifacts and the short ones among them. */
export function expectVariantsBesideEach(root: string, files: readonly string[]): { identities: string[]; short: string[] } {
  const all = new Set(files);
  const identities = files.filter((f) => !f.endsWith('.gz') && !f.endsWith('.br') && !path.basename(f).startsWith('.'));
  const short = identities.filter((f) => !hasVariants(fs.statSync(path.resolve(root, f)).size));
  const shortSet = new Set(short);
  for (const f of identities) {
    expect(['.br', '.gz'].filter((v) => all.has(f + v)), f).toEqual(shortSet.has(f) ? [] : ['.br', '.gz']);
  }
  expect(files.filter((f) => !path.basename(f).startsWith('.')).length).toBe(3 * identities.length - 2 * short.length);
  return { identities, short };
}
