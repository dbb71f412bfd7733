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

/**
 * The human pages (confirm, unsubscribe, RSVP, docs): a strict Content-Security-Policy, never framed, and their
 * URL (which may hold a token) never leaked through Referer.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  ...BASE_HEADERS,
});

/** The caching of every public read (contract: 60 s, then stale while revalidating or on error). */
export const READ_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';
/** Writes, errors and anything per person. */
export const NO_STORE = 'no-store';

export const PREFLIGHT_MAX_AGE_S = 86_400;

/** The answer to a CORS preflight (204) of a route serving `allow`. */
export function preflightHeaders(allow: readonly string[]): Record<string, string> {
  return {
    ...API_HEADERS,
    'Access-Control-Allow-Methods': allow.join(', '),
    'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key',
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
    'Cache-Control': 'public, max-age=86400',
    Allow: allow.join(', '),
  };
}
