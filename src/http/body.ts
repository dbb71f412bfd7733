// Request bodies, of the write API and of the pages' form posts alike: JSON, form-urlencoded (HTML forms) and
// multipart, at most 16 KiB. The limit holds before anything is buffered: a declared Content-Length over it is
// refused unread, and a streamed body is read only up to it. Every failure carries the contract's status (400,
// 413, 415 or 422) and a detail; the API answers it as a problem, a page as a page.
import { duplicateJsonKey } from '../json-keys.js';
import { formDataTextIntact, jsonStringsWellFormed, parseUrlEncoded } from './body-text.js';
import { MAX_BODY_BYTES } from './limits.js';

export { MAX_BODY_BYTES };

export type BodyResult =
  | { ok: true; fields: Record<string, unknown> }
  | {
      ok: false;
      status: 400 | 413 | 415 | 422;
      detail: string;
      errors?: { field: string; message: string }[];
      /** Headers the refusal carries (`Accept-Encoding` on a compressed body). */
      headers?: Record<string, string>;
      /** With `keepRaw`: the bytes read before the refusal (at most the limit; none when the body was not read). */
      raw?: Uint8Array;
    };

const fail = (status: 400 | 413 | 415, detail: string): BodyResult => ({ ok: false, status, detail });

/**
 * The content codings of a `Content-Encoding` header other than `identity`, or null when the body is sent as it is.
 * No request body here is ever decompressed: RFC 9110 8.4 / 15.5.16 make a coding the server does not take a 415,
 * and RFC 7694 has the answer say, in Accept-Encoding, which codings it takes (none but identity).
 */
export function unsupportedContentCoding(contentEncoding: string | null): string | null {
  if (contentEncoding === null) return null;
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.length > 0 ? codings.join(', ') : null;
}

/**
 * Reads at most `limit` bytes: the body, or `over` when it is larger (the rest is not read). A body declared larger
 * is refused unread, unless `prefix` asks for its first `limit` bytes (a person's form post, whose page looks for
 * the organization in them: a browser sends the body whole without waiting for an answer).
 */
async function readLimited(request: Request, limit: number, prefix: boolean): Promise<{ bytes: Uint8Array<ArrayBuffer>; over: boolean }> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  const declaredOver = Number.isFinite(declared) && declared > limit;
  if ((declaredOver && !prefix) || !request.body) return { bytes: new Uint8Array(new ArrayBuffer(0)), over: declaredOver };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = declaredOver;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      over = true;
      if (prefix) chunks.push(value.subarray(0, limit - size));
      await reader.cancel().catch(() => undefined);
      break;
    }
    size += value.byteLength;
    chunks.push(value);
  }
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return { bytes: out, over };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NOT_UTF8 = 'The body is not valid UTF-8.';

/** A name as a refusal's detail shows it: quoted, at most 64 characters (a name may be 16 KiB of anything). */
function shownName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}

const REPEATED_FIELD = 'The form has the field ';

/** The detail of a form refused for naming a field twice, worded as the JSON body's duplicate key is. */
export function repeatedFieldDetail(name: string): string {
  return `${REPEATED_FIELD}${shownName(name)} twice: send each field once.`;
}

/** The field a 400's detail says the form named twice (a form's answer page names it), or null for any other detail. */
export function repeatedFieldOf(detail: unknown): string | null {
  if (typeof detail !== 'string' || !detail.startsWith(REPEATED_FIELD)) return null;
  const quoted = /^"(?:[^"\\]|\\.)*"/.exec(detail.slice(REPEATED_FIELD.length))?.[0];
  return quoted === undefined ? null : (JSON.parse(quoted) as string);
}

/**
 * Fields of a form, or its refusal when it names a field it reads twice. An RSVP review found `status=yes&status=no`
 * taken (its first value) where JSON with a key twice is refused (src/json-keys.ts): the reader chose what the answer
 * meant, and whatever sits in front of this server may choose the other. No field of ours takes a list (no schema.ts
 * of follows, registrations or rsvp has an array), so a name it reads given twice is refused as JSON's is, 400 with the
 * same words; a file part counts, though files are dropped. A field it does not read may repeat: a club's form may
 * have a checkbox group of its own, and unknown fields are ignored (contract, "Request bodies"); its first value is
 * kept. Without `reads` (the pages: their forms are ours) any name given twice is refused. Names are kept as own keys
 * of an object without a prototype: `key in {}` is true for constructor, toString, valueOf or __proto__, and
 * `out.__proto__ = v` on a plain object would set its prototype rather than hold a field.
 */
function formFields(entries: Iterable<[string, FormDataEntryValue]>, reads: ReadonlySet<string> | undefined): BodyResult {
  const out: Record<string, unknown> = Object.create(null);
  const named = new Set<string>();
  for (const [key, value] of entries) {
    if (named.has(key)) {
      if (reads === undefined || reads.has(key)) return fail(400, repeatedFieldDetail(key));
      continue;
    }
    named.add(key);
    if (typeof value === 'string') out[key] = value;
  }
  return { ok: true, fields: out };
}

/**
 * The fields of `request`'s body, or why it cannot be read. `keepRaw`: a refusal carries the bytes read (a form
 * post's answer page reads the organization's id in them, to answer in its language). `reads`: the fields the
 * caller reads (its schema's), the only ones a form may not repeat; without it, none may repeat.
 */
export async function readBody(request: Request, options: { keepRaw?: boolean; reads?: ReadonlySet<string> } = {}): Promise<BodyResult> {
  const keepRaw = options.keepRaw === true;
  let raw: Uint8Array | undefined;
  const result = await readFields(request, keepRaw, options.reads, (bytes) => (raw = bytes));
  return !result.ok && keepRaw && raw !== undefined ? { ...result, raw } : result;
}

async function readFields(request: Request, keepRaw: boolean, reads: ReadonlySet<string> | undefined, read: (bytes: Uint8Array) => void): Promise<BodyResult> {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  const kinds = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
  if (!kinds.includes(mediaType) && !/^application\/[a-z0-9.+-]*\+json$/.test(mediaType)) {
    // A page's refusal still reads the organization a form set up as enctype="text/plain" names (its page is in that
    // organization's language; a review found it in English): the bytes, bounded as any body's, are kept, not parsed.
    if (keepRaw) await readLimited(request, MAX_BODY_BYTES, true).then((body) => read(body.bytes), () => undefined);
    return fail(415, `Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data${mediaType ? `, not ${mediaType}` : ''}.`);
  }
  const coding = unsupportedContentCoding(request.headers.get('content-encoding'));
  if (coding !== null) {
    return {
      ok: false,
      status: 415,
      detail: `Send the body uncompressed, without Content-Encoding (not ${coding}).`,
      headers: { 'Accept-Encoding': 'identity' },
    };
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const body = await readLimited(request, MAX_BODY_BYTES, keepRaw);
    read(body.bytes);
    if (body.over) return fail(413, `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`);
    bytes = body.bytes;
  } catch {
    return fail(400, 'The request body could not be read.');
  }

  if (mediaType === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': contentType }, body: bytes }).formData();
    } catch {
      return fail(400, 'The multipart body cannot be parsed.');
    }
    // The names and values of the text fields: files are dropped (no field of this service is one).
    const texts = [...form.entries()].flatMap(([name, value]) => (typeof value === 'string' ? [name, value] : []));
    if (!formDataTextIntact(texts, bytes)) return fail(400, NOT_UTF8);
    return formFields(form.entries(), reads);
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    // A byte-order mark before the first field is dropped, as the whole-body decoding did before forms were
    // decoded field by field.
    const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const pairs = parseUrlEncoded(hasBom ? bytes.subarray(3) : bytes);
    if (pairs === null) return fail(400, `${NOT_UTF8} A form's percent-escapes must spell UTF-8 text.`);
    return formFields(pairs, reads);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return fail(400, NOT_UTF8);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(400, `The body is not valid JSON: ${error instanceof Error ? error.message : 'parse error'}.`);
  }
  const twice = duplicateJsonKey(text);
  if (twice !== null) {
    return fail(400, `The JSON body has the key ${shownName(twice)} twice in one object: send each field once.`);
  }
  if (!jsonStringsWellFormed(json)) {
    return fail(400, 'The body is not valid Unicode text: a \\u escape in a JSON string is half a character (a surrogate without its pair).');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, status: 422, detail: 'The JSON body must be an object of fields.', errors: [{ field: '(body)', message: 'must be a JSON object' }] };
  }
  return { ok: true, fields: json as Record<string, unknown> };
}
