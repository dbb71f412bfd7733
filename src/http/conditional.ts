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
  const since = parseHttpDate(ims);
  return since !== null && since <= nowMs && lastModifiedS <= since / 1000;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** RFC 9110 5.6.7: the preferred IMF-fixdate, and the two obsolete forms a recipient must still read. */
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 5.6.7) in milliseconds, or null when `value` is not one: a recipient must ignore an
 * If-Modified-Since that is not (13.1.3). Date.parse took ISO dates too, and read a date without "GMT" in the
 * server's own time zone.
 */
export function parseHttpDate(value: string): number | null {
  const utc = (year: number, month: string, day: string, h: string, m: string, s: string) => {
    const ms = Date.UTC(year, MONTHS.indexOf(month), Number(day), Number(h), Number(m), Number(s));
    // 31 February and 25:00 are not dates: Date.UTC would roll them over.
    const back = new Date(ms);
    return back.getUTCDate() === Number(day) && back.getUTCHours() === Number(h) && Number(m) < 60 && Number(s) < 61 ? ms : null;
  };
  let m = IMF_FIXDATE.exec(value);
  if (m) return utc(Number(m[3]), m[2]!, m[1]!, m[4]!, m[5]!, m[6]!);
  m = RFC850_DATE.exec(value);
  if (m) {
    // A two-digit year more than 50 years ahead is of the last century (RFC 9110 5.6.7).
    const thisYear = new Date().getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(m[3]);
    if (year > thisYear + 50) year -= 100;
    return utc(year, m[2]!, m[1]!, m[4]!, m[5]!, m[6]!);
  }
  m = ASCTIME_DATE.exec(value);
  if (m) return utc(Number(m[6]), m[1]!, m[2]!.trim(), m[3]!, m[4]!, m[5]!);
  return null;
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
