// The headers of every answer, defined once for the artifact server, the Astro endpoints and pages, and the
// protocol errors of the node server (see README "What the service guarantees").

/** Every answer: never sniffed into another type. */
export const BASE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'X-Content-Type-Options': 'nosniff' });

/** /api/v0/ is open to every origin (public data, no credentials), so fans' apps and club sites can read and post. */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  // Lets browser code read the validators and rate-limit state of a response.
  'Access-Control-Expose-Headers': 'ETag, Last-Modified, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed',
});

/** Every answer under /api/. */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...CORS_HEADERS, ...BASE_HEADERS });

/** The pages' Content-Security-Policy, but for who may frame them. */
const pageCsp = (frameAncestors: string) =>
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  `form-action 'self'; frame-ancestors ${frameAncestors}; base-uri 'none'`;

/**
 * The human pages (confirm, unsubscribe, RSVP, docs): a strict Content-Security-Policy, never framed (their buttons
 * act with the token of their URL: framed, a site could lay them under its own), and their URL (which may hold a
 * token) never leaked through Referer.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': pageCsp("'none'"),
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  ...BASE_HEADERS,
});

/**
 * The answer pages of an HTML form on another site posting to the API (src/forms/answer-page.ts): as strict, but
 * any site may frame them. Clubs embed their forms in frames (Google Sites, CMS widgets), and the answer loads in
 * that frame: refused there, the person saw the browser's broken-frame page after a registration that was taken,
 * and sent it again. These pages carry no token and no button, so there is nothing to lay a click over.
 */
export const FORM_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': pageCsp('*'),
  'Referrer-Policy': 'no-referrer',
  ...BASE_HEADERS,
});

/** The caching of every public read (contract: 60 s, then stale while revalidating or on error). */
export const READ_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';
/** Writes, errors and anything per person. */
export const NO_STORE = 'no-store';

export const PREFLIGHT_MAX_AGE_S = 86_400;
/**
 * The request headers a preflight allows a script to send (besides those a browser always may): a write's, and a
 * read's revalidation with the validators the reads expose (a review's app sent If-None-Match and the browser
 * refused the fetch outright), or a Cache-Control asking past a cache.
 */
export const PREFLIGHT_ALLOW_HEADERS = 'Content-Type, Idempotency-Key, If-None-Match, If-Modified-Since, Cache-Control';

/** The answer to a CORS preflight (204) of a route serving `allow`. */
export function preflightHeaders(allow: readonly string[]): Record<string, string> {
  return {
    ...API_HEADERS,
    'Access-Control-Allow-Methods': allow.join(', '),
    'Access-Control-Allow-Headers': PREFLIGHT_ALLOW_HEADERS,
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
    'Cache-Control': 'public, max-age=86400',
    Allow: allow.join(', '),
  };
}
