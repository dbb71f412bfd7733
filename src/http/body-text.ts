// The text of a request body, decoded strictly: every body type ends in strings stored as they are (names, notes),
// so a byte sequence that is not UTF-8, or a JSON escape that is not a whole character, must be refused (400), not
// replaced by U+FFFD or stored as a lone surrogate. The lenient decoders of the platform (URLSearchParams,
// Request.formData(), JSON.parse) would do either silently: these functions check what they cannot.

/** UTF-8, refusing any malformed sequence; a leading byte-order mark is kept (a form field may begin with one). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of UTF-8 bytes, or null when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

const PERCENT = 0x25;
const PLUS = 0x2b;
const AMPERSAND = 0x26;
const EQUALS = 0x3d;

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** Percent-decoding of the URL standard, `+` as a space (forms): a `%` not followed by two hex digits stays as it is. */
function percentDecode(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === PERCENT) {
      const hi = hexValue(bytes[i + 1]);
      const lo = hexValue(bytes[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out[n++] = hi * 16 + lo;
        i += 2;
        continue;
      }
    }
    out[n++] = b === PLUS ? 0x20 : b;
  }
  return out.subarray(0, n);
}

/**
 * The name/value pairs of an application/x-www-form-urlencoded body, as the URL standard parses them, except that
 * each name and value (once percent-decoded) must be UTF-8: null when one is not. URLSearchParams would turn
 * `name=Jos%E9` (Latin-1 é) into "Jos\uFFFD" and the é would be lost without anyone knowing.
 */
export function parseUrlEncoded(bytes: Uint8Array): [string, string][] | null {
  const pairs: [string, string][] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(AMPERSAND, start);
    if (end === -1) end = bytes.length;
    const sequence = bytes.subarray(start, end);
    start = end + 1;
    if (sequence.length === 0) continue;
    const eq = sequence.indexOf(EQUALS);
    const name = decodeUtf8(percentDecode(eq === -1 ? sequence : sequence.subarray(0, eq)));
    const value = eq === -1 ? '' : decodeUtf8(percentDecode(sequence.subarray(eq + 1)));
    if (name === null || value === null) return null;
    pairs.push([name, value]);
  }
  return pairs;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary parameter of a multipart content type, or null. */
export function multipartBoundary(contentType: string): string | null {
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** Whether a part's headers say it is a file (a `filename` parameter); quoted text (a field's name) does not count. */
function isFilePart(headers: Buffer): boolean {
  return /;\s*filename\*?\s*=/i.test(headers.toString('latin1').replace(/"(?:[^"\\]|\\.)*"/g, '""'));
}

/**
 * Whether every part of a multipart/form-data body that is not a file has UTF-8 headers and a UTF-8 value.
 * Request.formData() (undici) decodes a text part's bytes leniently: a raw 0xE9 became U+FFFD and was stored. This
 * splits the body on its boundary (RFC 2046 5.1.1) only to check the bytes; parsing stays formData()'s, which has
 * accepted the body before this runs. A stretch this cannot split the same way is checked as text as a whole, so a
 * disagreement between the two readings can refuse a body, never let unchecked text through. File parts are not
 * checked: no field of this service is a file, and they are dropped.
 */
export function multipartTextIsUtf8(body: Uint8Array, boundary: string): boolean {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const between = Buffer.concat([CRLF, delimiter]);
  let at = buf.subarray(0, delimiter.length).equals(delimiter) ? 0 : buf.indexOf(between);
  if (at === -1) return decodeUtf8(buf) !== null;
  if (at > 0) at += CRLF.length; // the preamble before the first delimiter is ignored, as RFC 2046 says
  for (;;) {
    const after = at + delimiter.length;
    if (buf[after] === 0x2d && buf[after + 1] === 0x2d) return true; // the close delimiter: the epilogue is ignored
    const lineEnd = buf.indexOf(CRLF, after);
    if (lineEnd === -1) return true; // nothing after the last delimiter
    const partStart = lineEnd + CRLF.length;
    const next = buf.indexOf(between, partStart);
    const part = buf.subarray(partStart, next === -1 ? buf.length : next);
    let headers: Buffer;
    let value: Buffer;
    if (part.subarray(0, CRLF.length).equals(CRLF)) {
      headers = part.subarray(0, 0);
      value = part.subarray(CRLF.length);
    } else {
      const headerEnd = part.indexOf(HEADER_END);
      headers = headerEnd === -1 ? part : part.subarray(0, headerEnd);
      value = headerEnd === -1 ? part.subarray(part.length) : part.subarray(headerEnd + HEADER_END.length);
    }
    if (!isFilePart(headers) && (decodeUtf8(headers) === null || decodeUtf8(value) === null)) return false;
    if (next === -1) return true;
    at = next + CRLF.length;
  }
}

/**
 * Whether every string of a parsed JSON value, object keys included, is well-formed Unicode. JSON's `\uD800`
 * escapes can spell half a character (RFC 8259 8.2), which JSON.parse returns as a lone surrogate: SQLite would
 * store it as bytes that are not UTF-8. Iterative, so that a deeply nested body cannot exhaust the stack.
 */
export function jsonStringsWellFormed(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return false;
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (!key.isWellFormed()) return false;
        stack.push(item);
      }
    }
  }
  return true;
}

/**
 * The first key a JSON object of `text` has twice, at any depth, or null. JSON.parse keeps the last value, a form's
 * reader the first, and whatever sits in front of this server (a proxy, a firewall) may keep either: a body whose
 * meaning depends on the reader is refused instead (RFC 7493 I-JSON forbids duplicate names). `text` must already
 * have parsed as JSON, which makes this scan simple: strings end at an unescaped quote, and brackets balance.
 */
export function duplicateJsonKey(text: string): string | null {
  // The objects and arrays open at this point: an object's keys so far, and whether its next string is a key.
  const open: ({ keys: Set<string>; expectKey: boolean } | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = i + 1;
      let escaped = false;
      while (text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end += 2;
        } else end += 1;
      }
      const top = open[open.length - 1];
      if (top?.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b) open.push({ keys: new Set(), expectKey: true });
    else if (c === 0x5b) open.push(null);
    else if (c === 0x7d || c === 0x5d) open.pop();
    else if (c === 0x2c) {
      const top = open[open.length - 1];
      if (top) top.expectKey = true;
    }
  }
  return null;
}
