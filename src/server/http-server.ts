// The node server's request pipeline: our own handlers first (rendered artifacts, Astro's client assets), then
// Astro's handler for the endpoints and pages (with the application in `locals`), then a 404. What node answers
// on its own (a request it cannot parse, a CONNECT, a request without Host, an unmet Expect) gets the problem shape and
// CORS too.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Application } from '../app/application.js';
import { nodeClientAddress } from '../http/client-address.js';
import { readRequestTarget } from '../http/request-target.js';
import { API_HEADERS, preflightHeaders } from '../http/headers.js';
import { matchArtifactRoute } from '../publish/routes.js';
import { pageMethods } from '../http/page-methods.js';
import { methodNotAllowed, PROBLEM_HEADERS, problemBody, sendProblem } from '../http/problem.js';
import type { NodeHandler } from './astro-handler.js';

/** The documented time limits (the 408 problem): a request's headers within 15 s, the whole of it within 30 s. */
export const HEADERS_TIMEOUT_MS = 15_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * How often node looks for requests past those limits. Its default, 30 s, let a request run up to a whole period
 * over them: a slow-headers client was answered 408 after about 42 s, not 15. Checked every second, a limit holds
 * to within a second; a check walks the open connections only, a few microseconds each.
 */
export const TIMEOUT_CHECK_EVERY_MS = 1_000;

/** A handler answers and returns true, or returns false to let the next one try. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export interface AppServerOptions {
  app: Application;
  handlers: RouteHandler[];
  astro: NodeHandler;
  notFound: (req: IncomingMessage, res: ServerResponse) => void;
  onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => void;
}

const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'];

/** Methods the fetch API's Request accepts; Astro's adapter answers anything else with a bare 500. */
const FETCH_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const SERVED_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/** A problem written straight to a socket, for what node answers before any request object exists. */
function problemOnSocket(socket: Duplex, status: number, detail: string, extra: Record<string, string> = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(problemBody(status, detail));
  const headers = Object.entries({ ...PROBLEM_HEADERS, ...extra, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${headers}\r\n\r\n${body}`);
}

/**
 * The endpoints Astro serves under /api/v0/ (src/pages/api/v0/), beside the artifact routes: an address of one without
 * its trailing slash is redirected, another method is 405. src/server/endpoint-paths.test.ts checks it names every
 * file there.
 */
export const ENDPOINT_PATHS = /^\/api\/v0\/(follow|register|rsvp\/[^/]+)$/;
/** What they answer (the RSVP summary, under the same pattern, is answered before: src/server/rsvp-summary.ts). */
const WRITE_ENDPOINT_METHODS = ['POST', 'OPTIONS'];

/**
 * `/api/v0/events/` and the like: the same address without its trailing slash, by a permanent redirect that keeps
 * the method and body (308), readable cross-origin. Only for an address that exists without the slash; a
 * preflight is answered where it is asked (browsers do not follow a redirect in a preflight).
 */
function redirectTrailingSlash(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  if (req.method === 'OPTIONS' || !pathname.startsWith('/api/') || !pathname.endsWith('/')) return false;
  const canonical = pathname.replace(/\/+$/, '');
  const route = matchArtifactRoute(canonical);
  const exists = (route !== null && route.kind !== 'bad-id') || ENDPOINT_PATHS.test(canonical);
  if (!exists) return false;
  res.writeHead(308, {
    ...API_HEADERS,
    Location: canonical + (q === -1 ? '' : url.slice(q)),
    'Cache-Control': 'public, max-age=86400',
    'Content-Length': 0,
  });
  res.end();
  return true;
}

export function createAppServer(options: AppServerOptions): http.Server {
  const { trustProxy } = options.app.config;
  // Host is checked below, so that its absence is answered in the problem shape rather than by node's bare 400.
  const server = http.createServer({ requireHostHeader: false, connectionsCheckingInterval: TIMEOUT_CHECK_EVERY_MS }, async (req, res) => {
    try {
      const target = readRequestTarget(req.url ?? '/', req.method ?? '');
      if (target.form === 'invalid') {
        sendProblem(res, 400, target.detail, { head: req.method === 'HEAD', headers: { Connection: 'close' } });
        return;
      }
      // RFC 9112 3.2: a request with two Host lines is refused. Node keeps the first, and a proxy in front may have
      // read the other.
      if ((req.headersDistinct.host?.length ?? 0) > 1) {
        sendProblem(res, 400, 'A request has one Host header; this one has several.', { head: req.method === 'HEAD', headers: { Connection: 'close' } });
        return;
      }
      if (target.form === 'asterisk') {
        // OPTIONS *: what the server as a whole answers to.
        res.writeHead(204, preflightHeaders(SERVED_METHODS));
        res.end();
        return;
      }
      if (target.form === 'absolute') {
        // Every handler after this one reads the path as an origin form does. The target's authority stands for Host
        // (RFC 9112 3.2.2), which is what the client says, as Host is: links and the API document name
        // PUBLIC_BASE_URL, never either.
        req.url = target.path;
        req.headers.host = target.authority;
      }
      if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !req.headers.host) {
        sendProblem(res, 400, 'An HTTP/1.1 request needs a Host header.', { headers: { Connection: 'close' } });
        return;
      }
      if (redirectTrailingSlash(req, res)) return;
      for (const handle of options.handlers) {
        if (await handle(req, res)) return;
      }
      if (!FETCH_METHODS.has(req.method ?? '')) {
        // The route's own methods in Allow: a page's, as the middleware answers the methods Astro takes
        // (src/http/page-methods.ts), or a write endpoint's (POST). Anything else is no route: 404, as a PUT there
        // gets. (Every such method got the server's whole list, GET included, where a GET is itself refused.)
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const route = q === -1 ? url : url.slice(0, q);
        const allow = pageMethods(route) ?? (ENDPOINT_PATHS.test(route) ? WRITE_ENDPOINT_METHODS : undefined);
        if (!allow) {
          options.notFound(req, res);
          return;
        }
        const refusal = methodNotAllowed(req.method ?? '', allow);
        sendProblem(res, refusal.status, refusal.detail, { headers: refusal.headers });
        return;
      }
      if (!trustProxy) {
        // Astro takes the client address, host and protocol from these headers unconditionally: without a
        // proxy of ours in front they are whatever the client made up.
        for (const name of FORWARDED_HEADERS) delete req.headers[name];
      }
      const locals: App.Locals = {
        app: options.app,
        clientAddress: nodeClientAddress(req, trustProxy),
      };
      await options.astro(req, res, () => options.notFound(req, res), locals);
    } catch (error) {
      options.onError(error, req, res);
    }
  });
  // Requests node cannot parse never reach the handler: still answer in the documented shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    problemOnSocket(socket, status, 'The request could not be read.');
  });
  // An Expect other than 100-continue: node would answer a bare 417 (no body, no CORS, no nosniff) without asking.
  // Refused the same, in the documented shape; the connection is closed, as a body may follow that was not read.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    sendProblem(res, 417, 'This server meets no expectation but 100-continue: send the request without this Expect header.', {
      head: req.method === 'HEAD',
      headers: { Connection: 'close' },
    });
  });
  // CONNECT (a proxy tunnel) is not something this server does.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const refusal = methodNotAllowed('CONNECT', SERVED_METHODS);
    problemOnSocket(socket, refusal.status, refusal.detail, refusal.headers);
  });
  // Slow or idle clients must not pin sockets forever.
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.keepAliveTimeout = 5_000;
  return server;
}
