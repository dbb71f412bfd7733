// Loads Astro's built request handler (adapter in 'middleware' mode) from dist/.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';

export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
  locals?: App.Locals,
) => Promise<void> | void;

export const DIST_DIR = path.resolve(import.meta.dirname, '../../dist');
export const ASTRO_ENTRY = path.join(DIST_DIR, 'server', 'entry.mjs');

export async function loadAstroHandler(entry = ASTRO_ENTRY): Promise<NodeHandler> {
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first`);
  const mod = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler; pageMap?: Map<string, () => Promise<unknown>> };
  // Astro calls a page's loader, a dynamic import(), on every request it routes. Under tsx's module hooks (npm
  // start, the tests, the bench) each import() is a round trip to the hooks thread, resolution included, even for a
  // module loaded long ago. The first import's promise now serves every later request: POST /api/v0/register answered
  // about 10% more requests a second (wrk -c32, alternating, 6 pairs). The map is the one Astro's app holds.
  // A failed load is not kept, so that this cache fails no more than Astro's own import() per request: node tries
  // a module again only when its file was missing (a page read while dist/ is replaced); one that failed to
  // evaluate, or whose dependency was missing, fails until the server restarts either way.
  for (const [component, load] of mod.pageMap ?? []) {
    let loaded: Promise<unknown> | undefined;
    const forgetFailure = (error: unknown) => {
      loaded = undefined;
      throw error;
    };
    mod.pageMap!.set(component, () => (loaded ??= load().catch(forgetFailure)));
  }
  return mod.handler;
}
