// CORS for /api/v0/: open to every origin (public data, no credentials), so fans' apps and club sites
// can read and post from the browser.
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  // Lets browser code read the validators and rate-limit state of a response.
  'Access-Control-Expose-Headers': 'ETag, Last-Modified, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed',
});

export const PREFLIGHT_MAX_AGE_S = 86_400;

export function preflightHeaders(allow: readonly string[]): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': allow.join(', '),
    'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key',
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
    'Cache-Control': 'public, max-age=86400',
    'X-Content-Type-Options': 'nosniff',
    Allow: allow.join(', '),
  };
}

/** The caching of every public read (contract: 60 s, then stale while revalidating or on error). */
export const READ_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';
