// The methods of the human pages, in one place. Astro renders a page for any method the fetch API takes, so
// without this POST / and POST /docs answered 200 with the page. A page that only reads answers GET and HEAD; the
// three pages with a form (RSVP, follow confirm and unsubscribe) also POST. Any other method is the API's 405
// (Allow, problem shape), and OPTIONS is answered 204 with Allow, as a route of the API answers it (without CORS:
// pages are not read from other origins). The middleware asks this for every page Astro routes; the node server,
// for the methods Astro cannot take (PROPFIND, TRACE). `page-methods.test.ts` checks every page of
// src/pages is listed.
import { methodNotAllowed, problemResponse } from './problem.js';

const READ = Object.freeze(['GET', 'HEAD', 'OPTIONS']);
const FORM = Object.freeze(['GET', 'HEAD', 'POST', 'OPTIONS']);

/** Each page's route (as Astro names it: `context.routePattern`) and the methods it answers. */
export const PAGE_METHODS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  '/': READ,
  '/docs': READ,
  '/rsvp': FORM,
  '/follow/confirm': FORM,
  '/follow/unsubscribe': FORM,
});

/** The methods of the page at `route` (a route pattern, or a path: a trailing slash is ignored, as Astro does). */
export function pageMethods(route: string): readonly string[] | undefined {
  const key = route.length > 1 ? route.replace(/\/+$/, '') || '/' : route;
  return Object.hasOwn(PAGE_METHODS, key) ? PAGE_METHODS[key] : undefined;
}

/** The 405 of a page: the API's problem, with the page's `Allow`. */
export function pageMethodNotAllowed(method: string, allow: readonly string[]): Response {
  const refusal = methodNotAllowed(method, allow);
  return problemResponse(refusal.status, refusal.detail, { headers: refusal.headers });
}

/**
 * What the page at `route` answers for `method` before it renders: a 405 for a method it does not serve, 204 for
 * OPTIONS, undefined when the page is to render (its own methods, or a route that is not a page).
 */
export function answerPageMethod(route: string, method: string): Response | undefined {
  const allow = pageMethods(route);
  if (!allow) return undefined;
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allow.join(', '), 'Cache-Control': 'public, max-age=86400' } });
  if (allow.includes(method)) return undefined;
  return pageMethodNotAllowed(method, allow);
}
