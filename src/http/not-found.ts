// The one 404 of an address nothing serves, for the node server's fallback and Astro's unused routes alike. Under
// /api/ it is always the problem (the API's contract). Elsewhere a browser opening the address, whose Accept puts
// text/html before JSON, gets a page (src/http/notice-pages.ts): a review opened a cut-short link (`/follow/`,
// `/RSVP?token=…`) and was shown raw JSON. curl (*/*), fetch() and API clients keep the problem, byte for byte.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { prefersHtml } from './accept.js';
import { NO_STORE, PAGE_HEADERS } from './headers.js';
import { notFoundPage } from './notice-pages.js';
import { problemBody, PROBLEM_HEADERS } from './problem.js';

const API_PATH = /^\/api(\/|$)/;

/**
 * Under /api/ as written, or once its dot segments are resolved (`/follow/../api/v0/x`, which no browser sends: it
 * resolves them first), as the middleware reads a path for the API's headers.
 */
function underApi(pathname: string): boolean {
  if (API_PATH.test(pathname)) return true;
  try {
    return API_PATH.test(new URL(pathname, 'http://service.invalid').pathname);
  } catch {
    return false;
  }
}

interface Answer {
  headers: Record<string, string>;
  /** The body, which a HEAD does not get (its headers, Content-Length included, are a GET's). */
  body: string;
}

/** The 404 for `method` on `pathname` (no query), asked with `accept`. */
export function notFoundAnswer(method: string, pathname: string, accept: string | null | undefined): Answer {
  if (!underApi(pathname) && prefersHtml(accept)) {
    return {
      // The page's headers (CSP, never framed, no Referer); no-store, as the problem. Vary: what a browser and curl
      // get at one address differs by Accept.
      headers: { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': NO_STORE, Vary: 'Accept' },
      body: notFoundPage(),
    };
  }
  return { headers: { ...PROBLEM_HEADERS }, body: JSON.stringify(problemBody(404, `No route for ${method} ${pathname}`)) };
}

/** The 404 written to a node response (the node server's fallback). */
export function sendNotFound(req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? '';
  const { headers, body } = notFoundAnswer(method, (req.url ?? '/').split('?')[0]!, req.headers.accept);
  res.writeHead(404, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(method === 'HEAD' ? undefined : body);
}

/** The 404 as a fetch Response (the middleware's, for Astro's unused routes). */
export function notFoundResponse(request: Request, pathname: string): Response {
  const { headers, body } = notFoundAnswer(request.method, pathname, request.headers.get('accept'));
  return new Response(request.method === 'HEAD' ? null : body, { status: 404, headers });
}
