// Validators and 304s, one rule for the artifacts and the dynamic read (the RSVP summary) the node server serves:
// a strong ETag from the bytes, Last-Modified in whole seconds, If-None-Match before If-Modified-Since.
import crypto from 'node:crypto';
import { API_HEADERS, READ_CACHE_CONTROL } from './headers.js';

/** A strong ETag of the bytes sent. */
export function strongEtag(bytes: Buffer | string): string {
  return `"${crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether the client's copy is still current (RFC 9110 13.1): If-None-Match, when sent, decides alone (weak
 * comparison: W/ prefixes are ignored; `*` matches); otherwise If-Modified-Since against the last change. A date
 * later than `nowMs` (the server's clock) is invalid and ignored (13.1.3): a client that sent one would otherwise be
 * told 304 for every change until that date, and keep a stale copy.
 */
export function isNotModified(
  request: { ifNoneMatch: string | null | undefined; ifModifiedSince: string | null | undefined },
  etag: string,
  lastModifiedS: number | null,
  nowMs: number = Date.now(),
): boolean {
  const inm = request.ifNoneMatch;
  if (inm !== null && inm !== undefined) {
    return inm.trim() === '*' || inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  }
  const ims = request.ifModifiedSince;
  if (ims === null || ims === undefined || lastModifiedS === null) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && since <= nowMs && lastModifiedS <= since / 1000;
}

export interface ConditionalAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  /** Null for a 304 and for HEAD. */
  body: string | null;
}

/** A dynamic JSON read (the RSVP summary) with the same validators and caching as the artifacts. */
export function conditionalJson(
  request: { method: string; ifNoneMatch: string | null | undefined; ifModifiedSince: string | null | undefined },
  body: unknown,
  lastModified: string | null,
  nowMs: number = Date.now(),
): ConditionalAnswer {
  const bytes = JSON.stringify(body);
  const etag = strongEtag(bytes);
  const modifiedS = lastModified ? Math.floor(Date.parse(lastModified) / 1000) : null;
  const headers: Record<string, string> = {
    ...API_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': READ_CACHE_CONTROL,
    ETag: etag,
  };
  if (modifiedS !== null) headers['Last-Modified'] = new Date(modifiedS * 1000).toUTCString();
  if (isNotModified(request, etag, modifiedS, nowMs)) return { status: 304, headers, body: null };
  headers['Content-Length'] = String(Buffer.byteLength(bytes));
  return { status: 200, headers, body: request.method === 'HEAD' ? null : bytes };
}
