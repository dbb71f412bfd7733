// The response headers of the document (components.headers), each described once.
import { CORS_HEADERS } from '../../http/headers.js';
import { ID_PATTERN } from '../../vocabulary/ids.js';
import { ALLOW_HEADERS, constant, NO_STORE, PREFLIGHT_CACHE, READ_CACHE } from './refs.js';
import type { HeaderObject } from './types.js';

export const HEADERS: Record<string, HeaderObject> = {
  CacheControlRead: {
    description: 'Reads are cached for 60 s, then served stale while revalidating (10 min) or on error (1 day).',
    required: true,
    schema: constant(READ_CACHE),
  },
  CacheControlNoStore: { description: 'Writes and every error are never cached.', required: true, schema: constant(NO_STORE) },
  CacheControlPreflight: { description: 'Preflight answers may be cached for a day.', required: true, schema: constant(PREFLIGHT_CACHE) },
  ETag: {
    description:
      'Validator of the bytes sent (each encoding has its own), opaque: its form depends on what serves the read (this server, nginx in front of it, a bucket behind a CDN). ' +
      'This server and nginx send a strong one; a CDN that changes the bytes on the way (decompresses a stored gzip or brotli body for a client that did not ask for it, or compresses it again) ' +
      'weakens it to `W/"…"`, since the bytes are no longer those the strong tag named. Either form goes back in `If-None-Match` as it came, which compares them weakly (RFC 9110 13.1.2).',
    required: true,
    // RFC 9110 8.8.3: an entity-tag, any visible ASCII but '"' between the quotes, weak with `W/` before them.
    schema: { type: 'string', pattern: '^(W/)?"[!#-~]*"$' },
  },
  LastModified: {
    description: 'When the resource last changed (HTTP date). Send it back in `If-Modified-Since`.',
    required: true,
    schema: { type: 'string', pattern: '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$' },
  },
  Vary: { description: 'The body depends on `Accept-Encoding`.', required: true, schema: constant('Accept-Encoding') },
  ContentEncoding: {
    description: 'Present when a compressed variant is sent: brotli, else gzip, as `Accept-Encoding` allows; never on a body under 128 bytes.',
    schema: { type: 'string', enum: ['br', 'gzip'] },
  },
  ContentDisposition: {
    description: 'Names the file for calendar apps and browsers.',
    required: true,
    schema: { type: 'string', pattern: `^inline; filename="${ID_PATTERN.source.slice(1, -1)}\\.ics"$` },
  },
  AccessControlAllowOrigin: {
    description: 'Every response under /api/v0/, errors and preflights included, is readable from any origin.',
    required: true,
    schema: constant('*'),
  },
  AccessControlExposeHeaders: {
    description: 'Headers browser code may read.',
    schema: constant(CORS_HEADERS['Access-Control-Expose-Headers']!),
  },
  XContentTypeOptions: { description: 'Never sniffed.', required: true, schema: constant('nosniff') },
  AccessControlAllowHeaders: {
    description: 'Request headers a cross-origin request may send.',
    required: true,
    schema: constant(ALLOW_HEADERS),
  },
  AccessControlMaxAge: {
    description: 'Seconds a browser may cache this preflight.',
    required: true,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  },
  RateLimit: {
    description:
      'Present when rate limits are on, on the answers to writes and on a 429 (never on a cached read, which a CDN serves to everyone): the policy name, requests left (`r`) and seconds until the window resets (`t`). On a follow refused for its address (`mailbox`: confirmation emails one mailbox is sent a day), that limit: `"mailbox";r=0;t=…`.',
    schema: { type: 'string', pattern: '^"(reads|writes|mailbox)";r=[0-9]+;t=[0-9]+$' },
  },
  RateLimitPolicy: {
    description:
      'Present when rate limits are on: the policy name, its quota (`q`) per window of `w` seconds. A follow refused for its address lists the `mailbox` policy after the client\'s.',
    schema: { type: 'string', pattern: '^"(reads|writes|mailbox)";q=[0-9]+;w=[0-9]+(, "mailbox";q=[0-9]+;w=[0-9]+)?$' },
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  IdempotentReplayed: {
    description: 'Present (`true`) when this is the stored answer to an earlier request with the same `Idempotency-Key`, or, without a key, the same body within the hour.',
    schema: constant('true'),
  },
};
