// Loading Astro's built handler: each page's module is imported once, not once per request.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../test/support/db.js';
import { loadAstroHandler } from './astro-handler.js';

let dir: string | undefined;
afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

interface Entry {
  handler: unknown;
  calls: { page: number };
  pageMap: Map<string, () => Promise<unknown>>;
}

/**
 * An entry.mjs of the shape of dist/server/entry.mjs (the handler, and the page loaders Astro's app calls per
 * request) with one page, whose loader is `loader` (it counts its calls in `calls.page`), loaded as the server does.
 */
async function loadEntry(loader: string): Promise<{ handler: unknown; mod: Entry; load: () => Promise<unknown> }> {
  dir = tempDir('competitions-astro-entry-');
  const entry = path.join(dir, 'entry.mjs');
  fs.writeFileSync(
    entry,
    `export const calls = { page: 0 };
export const pageMap = new Map([['src/pages/api/v0/register.ts', ${loader}]]);
export const handler = () => {};`,
  );
  const handler = await loadAstroHandler(entry);
  const mod = (await import(pathToFileURL(entry).href)) as Entry;
  return { handler, mod, load: () => mod.pageMap.get('src/pages/api/v0/register.ts')!() };
}

it("keeps each page loader's first promise for every later call", async () => {
  const { handler, mod, load } = await loadEntry('() => { calls.page++; return Promise.resolve({ page: () => ({}) }); }');
  expect(handler).toBe(mod.handler);
  const first = load();
  expect(load()).toBe(first);
  expect(await load()).toBe(await first);
  expect(mod.calls.page).toBe(1);
});

it('tries a page loader again after it failed, and keeps the promise of the first load that succeeds', async () => {
  // The first call fails, as an import of a page file does while dist/ is being replaced.
  const { mod, load } = await loadEntry("() => (++calls.page === 1 ? Promise.reject(new Error('not there yet')) : Promise.resolve({ page: () => ({}) }))");
  await expect(load()).rejects.toThrow('not there yet');
  const second = load();
  await expect(second).resolves.toBeDefined();
  expect(load()).toBe(second);
  expect(mod.calls.page).toBe(2);
});
