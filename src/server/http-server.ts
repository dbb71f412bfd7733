// The node entry's request pipeline: our own handlers first (rendered artifacts, Astro's client assets),
// then Astro's handler for the endpoints and pages, then a 404.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { clientAddress } from '../http/client-address.js';
import type { NodeHandler } from './astro-handler.js';

/** A handler answers and returns true, or returns false to let the next one try. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface AppServerOptions {
  handlers: RouteHandler[];
  astro: NodeHandler;
  /** Believe X-Forwarded-* headers (set by a reverse proxy we run). */
  trustProxy: boolean;
  notFound: (req: IncomingMessage, res: ServerResponse) => void;
  onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => void;
}

const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];

function clientAddressOf(forwarded: string | string[] | undefined, socketAddress: string | undefined, trustProxy: boolean) {
  const value = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
  return clientAddress(new Headers(value ? { 'x-forwarded-for': value } : {}), socketAddress, trustProxy);
}

export function createAppServer(options: AppServerOptions): http.Server {
  const server = http.createServer(async (req, res) => {
    try {
      for (const handle of options.handlers) {
        if (await handle(req, res)) return;
      }
      const socketAddress = req.socket.remoteAddress;
      if (!options.trustProxy) {
        // Astro takes the client address, host and protocol from these headers unconditionally: without a
        // proxy of ours in front they are whatever the client made up.
        for (const name of FORWARDED_HEADERS) delete req.headers[name];
      }
      const clientAddress = clientAddressOf(req.headers['x-forwarded-for'], socketAddress, options.trustProxy);
      await options.astro(req, res, () => options.notFound(req, res), { clientAddress });
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
