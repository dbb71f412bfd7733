// Astro middleware: every endpoint and page Astro renders passes here (the artifacts never do). API answers
// always carry CORS and nosniff, pages their strict headers (src/http/headers.ts), even when something failed
// deep down; a failure is the one 500, or a 503 when the operator has the database to fix. A page answers only its methods (src/http/page-methods.ts): any other is 405,
// as on the API. Astro's own routes that nothing here uses, its image endpoint (/_image: it
// runs sharp on what a query names, seconds of CPU and tens of MB a request) and its server islands, answer 404.
import { STATUS_CODES } from 'node:http';
import { defineMiddleware } from 'astro:middleware';
import { API_HEADERS, PAGE_HEADERS } from './http/headers.js';
import { answerPageMethod } from './http/page-methods.js';
import { prefersHtml } from './http/accept.js';
import { COMPRESSED_PAGES, compressedPage } from './http/compressed-page.js';
import { notFoundResponse } from './http/not-found.js';
import { failureResponse } from './http/notice-pages.js';
import { failedRequest } from './http/problem.js';

/**
 * Matched on the route Astro chose, not on the path: its router also sends //_image, /\_image and //_image/ there
 * (a reviewer had AVIF conversions of 40 s answered through //_image).
 */
const UNUSED_ROUTE = /^\/(_image|_server-islands)(\/|$)/;

export const onRequest = defineMiddleware(async (context, next) => {
  const { pathname } = context.url;
  if (UNUSED_ROUTE.test(context.routePattern) || UNUSED_ROUTE.test(pathname)) {
    return notFoundResponse(context.request, pathname);
  }
  const refusal = answerPageMethod(context.routePattern, context.request.method);
  let response: Response;
  try {
    response = refusal ?? (await next());
  } catch (error) {
    const failed = failedRequest(error, `${context.request.method} ${pathname}`, context.locals.app.config.databasePath);
    // A person's browser on a page gets a page, in both languages (src/http/notice-pages.ts): an operator's review,
    // its database's disk full, saw an Arabic family's confirmation link answer with English JSON. A script, the problem.
    const browser = !pathname.startsWith('/api/') && prefersHtml(context.request.headers.get('accept'));
    return browser ? failureResponse({ ...PAGE_HEADERS, Vary: 'Accept' }, failed) : failed;
  }
  // A page that sets Astro.response.status keeps Astro's statusText "OK", which the adapter writes as the reason
  // phrase: "404 OK". The status's own phrase instead.
  if (response.statusText === 'OK' && response.status !== 200) {
    response = new Response(response.body, { status: response.status, statusText: STATUS_CODES[response.status] ?? '', headers: response.headers });
  }
  const headers: Record<string, string> = { ...(pathname.startsWith('/api/') ? API_HEADERS : PAGE_HEADERS) };
  // A page's redirect (an answer saved, a follow confirmed: post/redirect/get) carries its link's token in Location:
  // kept by no cache (Astro.redirect drops the headers its page set; an attacker's review).
  if (response.status >= 300 && response.status < 400) headers['Cache-Control'] = 'no-store';
  // Astro types its pages "text/html" without a charset. Every page is UTF-8 (its <meta charset> says so too): said in
  // the header, no browser or client has to guess from the first bytes.
  const html = response.headers.get('content-type') === 'text/html';
  const complete = (r: Response) => {
    for (const [k, v] of Object.entries(headers)) if (!r.headers.has(k)) r.headers.set(k, v);
    if (html) r.headers.set('Content-Type', 'text/html; charset=utf-8');
  };
  try {
    complete(response);
  } catch {
    // Immutable headers (a Response from fetch): copy it.
    response = new Response(response.body, response);
    complete(response);
  }
  return COMPRESSED_PAGES.has(pathname) ? compressedPage(context.request, response) : response;
});
