// The node entry's request pipeline: our own handlers first (rendered artifacts, Astro's client assets),
// then Astro's handler for the endpoints and pages, then a 404.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { NodeHandler } from './astro-handler.js';

/** A handler answers and returns true, or returns false to let the next one try. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface AppServerOptions {
  handlers: RouteHandler[];
  astro: NodeHandler;
  notFound: (req: IncomingMessage, res: ServerResponse) => void;
  onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => void;
}

export function createAppServer(options: AppServerOptions): http.Server {
  const server = http.createServer(async (req, res) => {
    try {
      for (const handle of options.handlers) {
        if (await handle(req, res)) return;
      }
      await options.astro(req, res, () => options.notFound(req, res));
    } catch (error) {
      options.onError(error, req, res);
    }
  });
  // Slow or idle clients must not pin sockets forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  return server;
}
