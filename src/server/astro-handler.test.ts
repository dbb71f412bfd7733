// Loading Astro's built handler: each page's module is imported once, not once per request.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../test/support/db.js';
import { loadAstroHandler } from './astro-handler.js';

let dir: string | undefined;
afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

it("keeps each page loader's first promise for every later call", async () => {
  dir = tempDir('competitions-astro-entry-');
  const entry = path.join(dir, 'entry.mjs');
  // The shape of dist/server/entry.mjs: the handler, and the page loaders Astro's app calls per request.
  fs.writeFileSync(
    entry,
    `export const calls = { page: 0 };
export const pageMap = new Map([['src/pages/api/v0/register.ts', () => { calls.page++; return Promise.resolve({ page: () => ({}) }); }]]);
export const handler = () => {};`,
  );
  const handler = await loadAstroHandler(entry);
  const mod = (await import(pathToFileURL(entry).href)) as { handler: unknown; calls: { page: number }; pageMap: Map<string, () => Promise<unknown>> };
  expect(handler).toBe(mod.handler);
  const load = mod.pageMap.get('src/pages/api/v0/register.ts')!;
  const first = load();
  expect(load()).toBe(first);
  expect(await mod.pageMap.get('src/pages/api/v0/register.ts')!()).toBe(await first);
  expect(mod.calls.page).toBe(1);
});

it('tries a page loader again after it failed, and keeps the promise of the first load that succeeds', async () => {
  dir = tempDir('competitions-astro-entry-');
  const entry = path.join(dir, 'entry.mjs');
  // The first call fails, as an import does while dist/ is being replaced.
  fs.writeFileSync(
    entry,
    `export const calls = { page: 0 };
export const pageMap = new Map([['src/pages/api/v0/follow.ts', () => (++calls.page === 1 ? Promise.reject(new Error('not there yet')) : Promise.resolve({ page: () => ({}) }))]]);
export const handler = () => {};`,
  );
  await loadAstroHandler(entry);
  const mod = (await import(pathToFileURL(entry).href)) as { calls: { page: number }; pageMap: Map<string, () => Promise<unknown>> };
  const load = () => mod.pageMap.get('src/pages/api/v0/follow.ts')!();
  await expect(load()).rejects.toThrow('not there yet');
  const second = load();
  await expect(second).resolves.toBeDefined();
  expect(load()).toBe(second);
  expect(mod.calls.page).toBe(2);
});
