// Content negotiation, in one place. Whether a request's Accept header prefers a page to JSON: how the server tells a browser opening an address (which
// asks for text/html first, anything else at a lower q) from curl, fetch() and API clients (*/*, or JSON by name).
// RFC 9110 12.5.1: a media type takes the q of the most specific range that matches it; a tie is not a preference.

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function ranges(accept: string): Range[] {
  return accept.split(',').flatMap((part) => {
    const [mediaRange = '', ...params] = part.split(';').map((s) => s.trim());
    const [type, subtype] = mediaRange.toLowerCase().split('/');
    if (!type || !subtype) return [];
    const qParam = params.find((p) => /^q\s*=/i.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.replace(/^q\s*=\s*/i, ''));
    return Number.isFinite(q) && q >= 0 && q <= 1 ? [{ type, subtype, q }] : [];
  });
}

/** The q `accept` gives `mediaType` (type/subtype, lower case): 0 when no range names it. */
function qualityOf(list: Range[], mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  const specificity = (r: Range) => (r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1);
  let best = -1;
  let q = 0;
  for (const r of list) {
    const s = specificity(r);
    if (s > best) [best, q] = [s, r.q];
    // Two ranges as specific (`text/html;level=1, text/html`): the higher q.
    else if (s === best && s >= 0) q = Math.max(q, r.q);
  }
  return best < 0 ? 0 : q;
}

/**
 * True when `accept` gives text/html a higher q than JSON (application/json or application/problem+json, the higher
 * of the two). No header is `*∕*` (RFC 9110): JSON stays.
 */
export function prefersHtml(accept: string | null | undefined): boolean {
  if (!accept) return false;
  const list = ranges(accept);
  const json = Math.max(qualityOf(list, 'application/json'), qualityOf(list, 'application/problem+json'));
  return qualityOf(list, 'text/html') > json;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding the client weighs highest among ours (RFC 9110 12.5.3), brotli before gzip when they weigh the same;
 * `x-gzip` is gzip. The identity bytes when it accepts neither, or names identity above both. (Nothing is refused
 * with 406: `identity;q=0` still gets the identity bytes, as the only ones a short artifact has.)
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const br = q.get('br') ?? q.get('*') ?? 0;
  const gzip = q.get('gzip') ?? q.get('x-gzip') ?? q.get('*') ?? 0;
  const best = Math.max(br, gzip);
  if (best <= 0 || (q.get('identity') ?? 0) > best) return 'identity';
  return br >= gzip ? 'br' : 'gzip';
}

/**
 * The language a script's request asks its field messages in (RFC 9110 12.5.4, basic filtering): Arabic when
 * `Accept-Language` weighs a range matching `ar` (`ar`, `ar-JO`) above every range matching English, else English,
 * the API's own. `*` counts for both; no header, or a tie, is English.
 */
export function chooseLanguage(acceptLanguage: string | null | undefined): 'en' | 'ar' {
  if (!acceptLanguage) return 'en';
  let ar = -1;
  let en = -1;
  let any = -1;
  for (const part of acceptLanguage.toLowerCase().split(',')) {
    const [range = '', ...params] = part.split(';').map((s) => s.trim());
    const qParam = params.find((p) => /^q\s*=/.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.replace(/^q\s*=\s*/, ''));
    if (!Number.isFinite(q) || q < 0 || q > 1) continue;
    if (range === '*') any = Math.max(any, q);
    else if (range === 'ar' || range.startsWith('ar-')) ar = Math.max(ar, q);
    else if (range === 'en' || range.startsWith('en-')) en = Math.max(en, q);
  }
  const arabic = ar >= 0 ? ar : any;
  const english = en >= 0 ? en : any;
  return arabic > 0 && arabic > english ? 'ar' : 'en';
}
