// fast-check generators of hostile input: strings, JSON bodies, content types, headers, paths and queries.
// Everything generated here can be sent by node's http client (header values in \t, 0x20-0x7e, 0x80-0xff;
// request targets in 0x21-0x7e); bytes it refuses are sent over a raw socket by the tests instead.
import fc from 'fast-check';

const cp = (min: number, max: number) => fc.integer({ min, max }).map((c) => String.fromCodePoint(c));

/** One character of hostile text: ASCII, Arabic, emoji, lone surrogates, controls, NUL, bidi marks. */
export const hostileChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: cp(0x20, 0x7e) },
  { weight: 3, arbitrary: cp(0x0600, 0x06ff) }, // Arabic
  { weight: 2, arbitrary: cp(0x1f300, 0x1faff) }, // emoji (astral: a surrogate pair in UTF-16)
  { weight: 1, arbitrary: fc.constantFrom('⚽️', '🇯🇴', '👨‍👩‍👧', 'é', 'e\u0301', 'ß', 'İ', 'ﷺ', '𝔘') },
  { weight: 1, arbitrary: cp(0xd800, 0xdfff) }, // a lone surrogate (String.fromCodePoint gives the half)
  { weight: 2, arbitrary: cp(0x00, 0x1f) }, // control characters, NUL included
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u007f', '\u0085', '\u200e', '\u200f', '\u202e', '\u2028', '\u2029', '\ufeff', '\ufffd', '\uffff') },
  { weight: 1, arbitrary: cp(0x80, 0xffff) },
);

const SPECIAL_STRINGS = [
  '', ' ', '   ', '\t\n', 'null', 'undefined', 'true', '0', '-1', 'NaN', '1e309', '[]', '{}',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
  "' OR '1'='1", "'; DROP TABLE registrations; --", '"; SELECT * FROM follows; --', '%', '%00', '\u0000',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '{{7*7}}', '${7*7}', '../../../../etc/passwd',
  '..\\..\\windows\\win.ini', 'file:///etc/passwd', 'a@b', 'a@b.c', '@example.org', 'fan@example.org',
  'FAN@EXAMPLE.ORG', ' fan@example.org ', 'fan@example.org\r\nBcc: victim@example.org', 'fan+tag@example.org',
  'fan@localhost', 'fan@[127.0.0.1]', '"fan"@example.org', 'فهد@example.org', 'fan@مثال.com',
  'riverside-sfl', 'amman-yfa', 'northgate-ssa', 'rsl-premier', 'amm-u12', 'rsl-reg-premier', 'amm-reg-u12',
  'yes', 'no', 'maybe', 'YES', ' yes ', 'pending', 'يوسف الأحمد ⚽️🇯🇴', 'مرحبا\u0000', '\ud800', '\udfff\ud800',
  '2015-02-30', '2010-05-04', '1899-12-31', '2999-01-01', '+44 7700 900123', '+١٢٣٤٥٦٧٨٩', 'K'.repeat(43), 'Z'.repeat(43),
];

/** A string someone hostile would put in a field. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: hostileChar, maxLength: 40 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  // Huge: past every field limit, some past the 16 KiB body limit.
  { weight: 1, arbitrary: fc.tuple(hostileChar, fc.integer({ min: 100, max: 24_000 })).map(([c, n]) => c.repeat(n)) },
);

/** Any JSON value, with hostile strings inside. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.constantFrom(null, true, false, 0, -0, 1, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, 0.1, 42),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'email', 'token')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Absent `absent` times out of `absent + 1`. */
const maybe = <T>(arb: fc.Arbitrary<T>, absent = 2) =>
  fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/** A field value: usually something plausible, often hostile, sometimes not a string at all. */
const fieldValue = (plausible: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 4, arbitrary: plausible }, { weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: hostileJson });

const EMAILS = fc.oneof(
  fc.emailAddress({ size: 'xsmall' }),
  fc.constantFrom('fan@example.org', 'Fan.Two@Example.org', 'ultra@example.net', 'غريب@example.org'),
  fc.integer({ min: 0, max: 99_999 }).map((n) => `generated.${n}@fans.example`),
);
const ORG_IDS = fc.constantFrom('riverside-sfl', 'northgate-ssa', 'amman-yfa', 'nobody', 'RIVERSIDE-SFL', ' riverside-sfl ');
const LEAGUE_IDS = fc.constantFrom('rsl-premier', 'rsl-cup', 'amm-u12', 'nssa-y10-futsal', 'nope', '');
const DIVISION_IDS = fc.constantFrom('rsl-reg-premier', 'rsl-reg-veterans', 'amm-reg-u12', 'nssa-reg-y7-mixed', 'nope', '');
const NAMES = fc.constantFrom('Sam Carter', 'يوسف الأحمد', 'Zoë O’Brien-Łukasz', 'A', '  padded  ', '李小龙 🏆');
const PHONES = fc.constantFrom('+44 7700 900123', '(555) 010-9999', '0791234567', '+962 79 123 4567', 'call me', '');
const DATES = fc.oneof(
  fc.date({ min: new Date('1890-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2015-02-30', '2010-13-01', '04/03/2015', '2010-5-4', ''),
);

/** Fields that pass validation (mostly): the base that a single hostile change is applied to. */
const validFields: Record<'follow' | 'register' | 'respond', (tokens: string[]) => fc.Arbitrary<Record<string, unknown>>> = {
  follow: () =>
    fc
      .tuple(
        fc.constantFrom(['riverside-sfl', undefined], ['riverside-sfl', 'rsl-premier'], ['amman-yfa', 'amm-u12'], ['northgate-ssa', 'nssa-y10-futsal'], ['amman-yfa', '']),
        EMAILS,
      )
      .map(([[org, league], email]) => ({ org_id: org, ...(league === undefined ? {} : { league_id: league }), email })),
  register: () =>
    fc
      .tuple(
        fc.constantFrom(['riverside-sfl', 'rsl-reg-premier'], ['riverside-sfl', undefined], ['amman-yfa', 'amm-reg-u12'], ['northgate-ssa', 'nssa-reg-y7-mixed']),
        fc.record(
          {
            name: NAMES,
            name_ar: fc.constantFrom('سامي الحداد', ''),
            phone: fc.constantFrom('+44 7700 900123', '0791234567', ''),
            date_of_birth: fc.constantFrom('2012-02-29', '2010-05-04', ''),
            guardian_name: NAMES,
            guardian_phone: fc.constantFrom('+962 79 123 4567', ''),
            notes: fc.constantFrom('Left-footed.\nPrefers Sundays.', 'ملاحظة 🏆', ''),
          },
          { requiredKeys: ['name'] },
        ),
        EMAILS,
      )
      .map(([[org, division], rest, email]) => ({ org_id: org, ...(division === undefined ? {} : { division_id: division }), ...rest, email })),
  respond: (tokens) => fc.record({ token: fc.constantFrom(...tokens), status: fc.constantFrom('yes', 'no', 'maybe') }),
};

/** Objects with the right keys for each write endpoint: all arbitrary, or valid but for one hostile change, or valid. */
export const fieldsFor: Record<'follow' | 'register' | 'respond', (tokens: string[]) => fc.Arbitrary<Record<string, unknown>>> = {
  follow: (tokens) =>
    withMutations(
      validFields.follow(tokens),
      fc.record(
        { org_id: fieldValue(ORG_IDS), league_id: fieldValue(LEAGUE_IDS), email: fieldValue(EMAILS), extra: hostileJson },
        { requiredKeys: [] },
      ),
    ),
  register: (tokens) =>
    withMutations(
      validFields.register(tokens),
      fc.record(
        {
          org_id: fieldValue(ORG_IDS),
          division_id: fieldValue(DIVISION_IDS),
          name: fieldValue(NAMES),
          name_ar: fieldValue(fc.constantFrom('سامي', '')),
          email: fieldValue(EMAILS),
          phone: fieldValue(PHONES),
          date_of_birth: fieldValue(DATES),
          guardian_name: fieldValue(NAMES),
          guardian_phone: fieldValue(PHONES),
          notes: fieldValue(fc.constantFrom('Left-footed.\nPrefers Sundays.', 'ملاحظة', '')),
        },
        { requiredKeys: [] },
      ),
    ),
  respond: (tokens) =>
    withMutations(
      validFields.respond(tokens),
      fc.record(
        {
          token: fieldValue(
            fc.oneof(
              fc.constantFrom(...tokens, ...tokens.map((t) => ` ${t}\n`)),
              fc.base64String({ minLength: 44, maxLength: 44 }).map((s) => s.slice(0, 43).replace(/\+/g, '-').replace(/\//g, '_')),
            ),
          ),
          status: fieldValue(fc.constantFrom('yes', 'no', 'maybe', ' maybe ', 'Yes')),
        },
        { requiredKeys: [] },
      ),
    ),
};

const FIELD_NAMES = ['org_id', 'league_id', 'division_id', 'name', 'name_ar', 'email', 'phone', 'date_of_birth', 'guardian_name', 'guardian_phone', 'notes', 'token', 'status', '__proto__', 'constructor', 'extra'];

function withMutations(valid: fc.Arbitrary<Record<string, unknown>>, hostile: fc.Arbitrary<Record<string, unknown>>) {
  const mutated = fc
    .tuple(valid, fc.constantFrom(...FIELD_NAMES), fc.oneof(hostileString, hostileJson, fc.constant(undefined)))
    .map(([v, key, value]) => {
      const out: Record<string, unknown> = { ...v };
      if (value === undefined) delete out[key];
      else Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
      return out;
    });
  return fc.oneof({ weight: 3, arbitrary: hostile }, { weight: 4, arbitrary: mutated }, { weight: 2, arbitrary: valid });
}

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD, as a browser would send). */
export function percentEncode(s: string, keep: RegExp = /[A-Za-z0-9_.~-]/): string {
  let out = '';
  for (const ch of s) {
    if (keep.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function formUrlencoded(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${percentEncode(k)}=${percentEncode(typeof v === 'string' ? v : JSON.stringify(v) ?? '')}`)
    .join('&');
}

function multipart(fields: Record<string, unknown>, boundary: string, withFile: boolean): Buffer {
  const parts = Object.entries(fields).map(
    ([k, v]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"\r\n\r\n` +
      `${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
  );
  if (withFile) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="email"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nfile@example.org\r\n`);
  }
  return Buffer.from(parts.join('') + `--${boundary}--\r\n`, 'utf8');
}

export interface GeneratedBody {
  kind: string;
  bytes: Buffer;
  /** The content type that fits the bytes (a multipart body needs its boundary). */
  fits: string;
}

/** A request body: fitting fields as JSON / form / multipart, any JSON, raw bytes, huge, deep, empty. */
export function bodyArb(fields: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<GeneratedBody> {
  const json = 'application/json';
  return fc.oneof(
    { weight: 6, arbitrary: fields.map((f) => ({ kind: 'json-fields', bytes: Buffer.from(JSON.stringify(f)), fits: json })) },
    // Raw interpolation: control characters and lone surrogates reach the parser unescaped.
    {
      weight: 2,
      arbitrary: fc.tuple(fields, hostileString).map(([f, s]) => ({
        kind: 'json-raw',
        bytes: Buffer.from(JSON.stringify(f).replace(/}$/, `${Object.keys(f).length ? ',' : ''}"name":"${s}"}`), 'utf8'),
        fits: json,
      })),
    },
    { weight: 2, arbitrary: hostileJson.map((v) => ({ kind: 'json-any', bytes: Buffer.from(JSON.stringify(v) ?? 'null'), fits: json })) },
    { weight: 2, arbitrary: fields.map((f) => ({ kind: 'form', bytes: Buffer.from(formUrlencoded(f)), fits: 'application/x-www-form-urlencoded' })) },
    {
      weight: 2,
      arbitrary: fc.tuple(fields, fc.stringMatching(/^[A-Za-z0-9'()+_,.\/:=?-]{1,60}$/), fc.boolean()).map(([f, boundary, file]) => ({
        kind: 'multipart',
        bytes: multipart(f, boundary, file),
        fits: `multipart/form-data; boundary="${boundary}"`,
      })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => ({ kind: 'bytes', bytes: Buffer.from(b), fits: json })) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 16 * 1024 - 64, max: 200_000 }).map((n) => ({
        kind: 'huge',
        bytes: Buffer.from(JSON.stringify({ name: 'x'.repeat(n) })),
        fits: json,
      })),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 8_000 }).map((n) => ({ kind: 'deep', bytes: Buffer.from('['.repeat(n) + ']'.repeat(n)), fits: json })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 3_000 }).map((n) => ({ kind: 'deep-object', bytes: Buffer.from('{"a":'.repeat(n) + '1' + '}'.repeat(n)), fits: json })) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '{', '{"', 'null', '"str"', '[]', '\ufeff{}', '{"email":"a@b.co"}\u0000').map((s) => ({ kind: 'short', bytes: Buffer.from(s), fits: json })) },
  );
}

/** Header values node's client can send: tab, 0x20-0x7e and 0x80-0xff (latin1 bytes on the wire). */
export const headerValue: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof({ weight: 6, arbitrary: cp(0x20, 0x7e) }, { weight: 2, arbitrary: cp(0x80, 0xff) }, { weight: 1, arbitrary: fc.constant('\t') }),
  maxLength: 60,
});

/** A very long header value: with a long request target it still stays under node's 16 KiB header limit. */
export const longHeaderValue: fc.Arbitrary<string> = fc
  .tuple(fc.oneof(cp(0x21, 0x7e), cp(0x80, 0xff)), fc.integer({ min: 1000, max: 6000 }))
  .map(([c, n]) => c.repeat(n));

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'APPLICATION/JSON',
  ' application/json ; charset="utf-8"', 'application/json; charset=latin1', 'application/json; charset=utf-16',
  'application/json; boundary=x; charset=utf-8; q=0.1', 'application/json;;;', 'application/json, text/plain',
  'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=iso-8859-1',
  'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=abc', 'multipart/mixed; boundary=abc',
  'text/plain', 'text/html', 'application/xml', 'application/jsonx', 'application/vnd.api+json', 'application/problem+json',
  '*/*', '', ';', '/', 'application/', 'json', 'application/json\u00ff', 'x'.repeat(2000),
];

/** The Content-Type to send: usually the one that fits the body, else anything. */
export function contentTypeFor(body: GeneratedBody): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(body.fits) },
    { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    { weight: 1, arbitrary: headerValue },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const GARBAGE = {
  'accept-encoding': ['br', 'gzip', 'br;q=0, gzip', '*', '*;q=0', 'identity;q=0', 'gzip;q=NaN', 'br;q=1e999', 'br;q=-1', ',,,;', 'br;;q=', 'deflate', 'x-gzip', 'gzip;q=0.5, br;q=0.50000001', 'BR', 'compress, zstd'],
  'if-none-match': ['*', '"x"', 'W/"x"', '"', '""', 'W/', ', , ,', '"a", *', 'W/W/"x"', '*, "x"', 'null'],
  'if-modified-since': ['Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'Sat, 21 Nov 2099 00:00:00 GMT', '0', '-1', 'yesterday', '2026-11-21', '2026-11-21T00:00:00Z', '+275760-09-13T00:00:00.000Z', 'Mon, 32 Foo 2026 25:61:61 GMT', '1e308'],
  'idempotency-key': ['k', 'same-key', 'x'.repeat(255), 'x'.repeat(256), ' k ', 'clé', 'é', '\t', '""', '\u00ff'.repeat(10)],
};

/** Hostile request headers (names are fixed; values are garbage, sometimes valid, sometimes very long). */
export const headersArb: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'accept-encoding': maybe(fc.oneof(fc.constantFrom(...GARBAGE['accept-encoding']), headerValue)),
      'if-none-match': maybe(fc.oneof(fc.constantFrom(...GARBAGE['if-none-match']), headerValue)),
      'if-modified-since': maybe(fc.oneof(fc.constantFrom(...GARBAGE['if-modified-since']), headerValue)),
      'idempotency-key': maybe(fc.oneof(fc.constantFrom(...GARBAGE['idempotency-key']), headerValue)),
      origin: maybe(fc.oneof(fc.constantFrom('null', 'https://evil.example', 'file://'), headerValue)),
      accept: maybe(fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*;q=0', 'application/problem+json'), headerValue)),
      'accept-language': maybe(fc.oneof(fc.constantFrom('ar', 'ar-JO,ar;q=0.9', 'en-GB', '*'), headerValue)),
      'x-forwarded-for': maybe(fc.oneof(fc.constantFrom('1.2.3.4', '::1, 10.0.0.1', 'garbage', ''), headerValue)),
      'x-forwarded-host': maybe(fc.constantFrom('evil.example', 'a b', '[::1')),
      forwarded: maybe(headerValue),
      cookie: maybe(headerValue),
      range: maybe(fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=9999999-', 'lines=1-2', 'bytes=1-0')),
      'x-http-method-override': maybe(fc.constantFrom('DELETE', 'GET', 'TRACE')),
      host: maybe(fc.constantFrom('evil.example', 'a b', '[::1', 'x:99999', '%', 'localhost:0', ''), 10),
      'transfer-encoding': maybe(fc.constant('chunked'), 5),
    },
    { requiredKeys: [] },
  )
  .chain((h) =>
    // At most one very long value per request.
    maybe(fc.tuple(fc.constantFrom('accept-encoding', 'if-none-match', 'if-modified-since', 'idempotency-key', 'cookie', 'x-long'), longHeaderValue), 6)
      .map((long) => ({ ...h, ...(long ? { [long[0]]: long[1] } : {}) })),
  )
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>);

/** Methods node's client and parser both accept; the fetch API forbids CONNECT, TRACE and TRACK (tested apart). */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'PURGE', 'MKCOL', 'LOCK', 'SEARCH', 'QUERY', 'REPORT', 'M-SEARCH', 'LINK', 'SOURCE'];
export const methodArb = (preferred: string, share = 7) =>
  fc.oneof({ weight: share, arbitrary: fc.constant(preferred) }, { weight: 3, arbitrary: fc.constantFrom(...METHODS) });

/** A path segment: traversal, encoded slashes, NUL, double encoding, backslashes, unicode, very long ids. */
export const segmentArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '..', '.', '%2e%2e', '%2E%2E', '.%2e', '%2e.', '%2F', '..%2F', '..%2F..%2Fpackage.json', '%2e%2e%2f', '%2e%2e%5c',
      '%00', 'x%00y', '%252e%252e', '%252F', '%25', '%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AE%C0%AE', '%FF',
      '..\\..\\package.json', '\\', '%5C', ';', ';x=1', '*', '~', 'package.json', 'app.db', 'etc', 'passwd',
      'api', 'v0', 'events', 'calendar', 'rsvp', 'standings', 'bracket', 'follow', 'confirm', 'unsubscribe', '_astro',
      'rsl-prem-2026-27', 'rsl-cup-2026', 'nssa-futsal-friendlies-2026', 'rsl-prem-r07-2', 'nssa-friendly-1', 'events.json',
      'rsl-prem-2026-27.ics', 'standings.json', 'bracket.json.br', 'index.html',
    ),
  },
  { weight: 3, arbitrary: fc.stringMatching(/^[!$&'()*+,\-.0-9:;=@A-Z\[\]^_`a-z{|}~]{1,20}$/) },
  { weight: 2, arbitrary: fc.string({ unit: hostileChar, minLength: 1, maxLength: 12 }).map((s) => percentEncode(s)) },
  { weight: 1, arbitrary: fc.string({ unit: hostileChar, minLength: 1, maxLength: 8 }).map((s) => percentEncode(percentEncode(s))) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', 'A', '9', '-', '%41'), fc.integer({ min: 60, max: 2500 })).map(([c, n]) => c.repeat(n)) },
);

/** A query string (with its '?'): tokens of every shape, raw and broken percent-encoding, repeats. */
export const queryArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?token', '?token=', '?=x', '?token=%', '?token=%zz', '?token=%E0%A4%A', '?token=%ED%A0%80', '?token=%00', '?token=a&token=b', '?token[]=x', '?token=' + 'A'.repeat(43) + '&token=' + 'B'.repeat(43)) },
  {
    weight: 4,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom('token', 'status', 'lang', '__proto__', 'constructor'), fc.string({ unit: hostileChar, maxLength: 6 })),
          fc.oneof(
            fc.base64String({ minLength: 44, maxLength: 44 }).map((s) => s.slice(0, 43).replace(/\+/g, '-').replace(/\//g, '_')),
            hostileString.map((s) => s.slice(0, 3000)),
          ),
        ),
        { maxLength: 4 },
      )
      .map((pairs) => '?' + pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&'))
      .filter((q) => q.length <= 6_000), // within node's 16 KiB header limit (beyond it, node answers 431 itself)
  },
);
