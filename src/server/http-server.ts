// The node entry's request pipeline: our own handlers first (rendered artifacts, Astro's client assets),
// then Astro's handler for the endpoints and pages, then a 404.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { clientAddress } from '../http/client-address.js';
import { PROBLEM_HEADERS, problemBody, sendProblem } from '../http/problem.js';
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

/** Methods the fetch API's Request accepts; Astro's adapter answers anything else with a bare 500. */
const FETCH_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createAppServer(options: AppServerOptions): http.Server {
  const server = http.createServer(async (req, res) => {
    try {
      for (const handle of options.handlers) {
        if (await handle(req, res)) return;
      }
      if (!FETCH_METHODS.has(req.method ?? '')) {
        const allow = { Allow: 'GET, HEAD, POST, OPTIONS' };
        if (req.url?.startsWith('/api/')) sendProblem(res, 405, `${req.method} is not allowed here.`, { headers: allow });
        else {
          res.writeHead(405, { ...allow, 'Content-Type': 'text/html; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
          res.end('<!doctype html><title>Method not allowed</title><h1>Method not allowed</h1>');
        }
        return;
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
  // Requests node cannot parse never reach the handler: still answer in the documented shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify(problemBody(status, 'The request could not be read.'));
    const headers = Object.entries({ ...PROBLEM_HEADERS, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n\r\n${body}`);
  });
  // Slow or idle clients must not pin sockets forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  return server;
}
