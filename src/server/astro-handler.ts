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
  const mod = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
  return mod.handler;
}
