import { describe, expect, it } from 'vitest';
import { readBody, repeatedFieldDetail, repeatedFieldOf, unsupportedContentCoding } from './body.js';

describe('unsupportedContentCoding', () => {
  it.each([
    [null, null],
    ['', null],
    ['identity', null],
    [' Identity ', null],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['br', 'br'],
    ['deflate, identity', 'deflate'],
    ['gzip, br', 'gzip, br'],
    ['x-custom', 'x-custom'],
  ])('%j → %j', (header, refused) => {
    expect(unsupportedContentCoding(header)).toBe(refused);
  });
});

describe('readBody: form fields', () => {
  const post = (contentType: string, body: string) => new Request('http://local/', { method: 'POST', headers: { 'content-type': contentType }, body });
  const multipart = (pairs: [string, string][]) =>
    pairs.map(([name, value]) => `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + '--B--\r\n';
  const PROTOTYPE_NAMES: [string, string][] = [
    ['constructor', 'a'],
    ['toString', 'b'],
    ['valueOf', 'c'],
    ['__proto__', 'd'],
    ['hasOwnProperty', 'e'],
    ['org_id', 'riverside-sfl'],
  ];
  const expected = { constructor: 'a', toString: 'b', valueOf: 'c', ['__proto__']: 'd', hasOwnProperty: 'e', org_id: 'riverside-sfl' };

  it.each([
    ['form-urlencoded', 'application/x-www-form-urlencoded', PROTOTYPE_NAMES.map(([k, v]) => `${k}=${v}`).join('&')],
    ['multipart', 'multipart/form-data; boundary=B', multipart(PROTOTYPE_NAMES)],
  ])('%s: fields named like Object.prototype members are kept, each as a field', async (_label, contentType, body) => {
    const result = await readBody(post(contentType, body));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.fields).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) expect(Object.getOwnPropertyDescriptor(result.fields, key)?.value).toBe(value);
    // The object holds fields only: no prototype of its own set from a field called __proto__.
    expect(Object.getPrototypeOf(result.fields)).toBeNull();
  });
});

// An RSVP review: `status=yes&status=no` was taken (its first value) where JSON with a key twice is refused. A form
// naming a field it reads twice is refused the same way: 400, the JSON refusal's words, the field named. No field of
// ours takes a list; a file part counts too. Without the fields it reads (a page's own form), no name may repeat.
describe('readBody: a form naming a field twice', () => {
  const post = (contentType: string, body: string) => new Request('http://local/', { method: 'POST', headers: { 'content-type': contentType }, body });
  const URLENCODED = 'application/x-www-form-urlencoded';
  const MULTIPART = 'multipart/form-data; boundary=B';
  const part = (name: string, value: string, file = false) =>
    `--B\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.txt"\r\nContent-Type: text/plain' : ''}\r\n\r\n${value}\r\n`;
  const multipart = (...parts: string[]) => `${parts.join('')}--B--\r\n`;
  it.each([
    ['an answer twice, two values', URLENCODED, 'token=t&status=yes&status=no', 'status'],
    ['an answer twice, one value', URLENCODED, 'status=yes&token=t&status=yes', 'status'],
    ['a field without a value twice', URLENCODED, 'token=t&status&status', 'status'],
    ['an empty name twice', URLENCODED, '=a&=b', ''],
    ['percent-escaped the second time', URLENCODED, 'org_id=a&org%5Fid=b', 'org_id'],
    ['named like an Object.prototype member', URLENCODED, '__proto__=a&toString=b&__proto__=c', '__proto__'],
    ['the first repeated is named', URLENCODED, 'email=a&org_id=x&org_id=y&email=b', 'org_id'],
    ['a registration field, multipart', MULTIPART, multipart(part('org_id', 'x'), part('phone', '1'), part('phone', '2')), 'phone'],
    ['a text and a file of one name', MULTIPART, multipart(part('notes', 'x'), part('notes', 'y', true)), 'notes'],
    ['two files of one name', MULTIPART, multipart(part('org_id', 'x'), part('f', 'a', true), part('f', 'b', true)), 'f'],
  ])('%s: 400, naming %j', async (_label, contentType, body, field) => {
    const result = await readBody(post(contentType, body));
    expect(result).toEqual({ ok: false, status: 400, detail: repeatedFieldDetail(field) });
    expect(repeatedFieldOf(!result.ok && result.detail)).toBe(field);
  });

  it("words it as a JSON body's key given twice, the name quoted and cut at 64 characters", async () => {
    expect(repeatedFieldDetail('status')).toBe('The form has the field "status" twice: send each field once.');
    const json = await readBody(post('application/json', '{"status":"yes","status":"no"}'));
    expect(!json.ok && json.detail).toBe('The JSON body has the key "status" twice in one object: send each field once.');
    const long = 'n'.repeat(100);
    expect(repeatedFieldDetail(long)).toBe(`The form has the field "${'n'.repeat(64)}…" twice: send each field once.`);
    expect(repeatedFieldDetail('a"b')).toBe('The form has the field "a\\"b" twice: send each field once.');
    expect(repeatedFieldOf(repeatedFieldDetail('a"b'))).toBe('a"b');
    expect(repeatedFieldOf('The body is not valid UTF-8.')).toBeNull();
  });

  it.each([
    ['urlencoded', URLENCODED, 'token=t&status=yes'],
    ['multipart', MULTIPART, multipart(part('token', 't'), part('status', 'yes'))],
  ])('%s: each field once is read', async (_label, contentType, body) => {
    const result = await readBody(post(contentType, body));
    expect(result.ok && { ...result.fields }).toEqual({ token: 't', status: 'yes' });
  });

  // Unknown fields are ignored (contract, "Request bodies"): a club's registration form with a checkbox group of its
  // own ("positions") must still register. Only the fields the endpoint reads may not repeat.
  it.each([
    ['a checkbox group the endpoint does not read', URLENCODED, 'org_id=x&positions=GK&positions=DEF&name=n', { org_id: 'x', positions: 'GK', name: 'n' }],
    ['the same, multipart', MULTIPART, multipart(part('org_id', 'x'), part('positions', 'GK'), part('positions', 'DEF')), { org_id: 'x', positions: 'GK' }],
  ])('with the fields it reads: %s is taken', async (_label, contentType, body, fields) => {
    const result = await readBody(post(contentType, body), { reads: new Set(['org_id', 'name']) });
    expect(result.ok && { ...result.fields }).toEqual(fields);
  });

  it('with the fields it reads: one of them twice is refused', async () => {
    const result = await readBody(post(URLENCODED, 'org_id=x&positions=GK&positions=DEF&org_id=y'), { reads: new Set(['org_id', 'name']) });
    expect(result).toEqual({ ok: false, status: 400, detail: repeatedFieldDetail('org_id') });
  });
});

// A person's form post refused keeps what was read of it (its answer page looks there for the organization), never
// more than the limit; any other refusal keeps nothing.
describe('readBody: what a refusal keeps', () => {
  const long = `org_id=amman-yfa&notes=${'x'.repeat(20_000)}`;
  const stream = (text: string) => new Request('http://local/', {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new Blob([text]).stream(), duplex: 'half',
  } as RequestInit);
  it('413 with keepRaw: the first 16 KiB', async () => {
    const result = await readBody(stream(long), { keepRaw: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(413);
    expect(Buffer.from(result.raw!).toString('latin1')).toBe(long.slice(0, 16 * 1024));
  });
  it('413 without keepRaw, and a refusal with nothing read: no bytes kept', async () => {
    const result = await readBody(stream(long));
    expect(!result.ok && result.raw).toBe(undefined);
    const compressed = await readBody(new Request('http://local/', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }, body: 'x',
    }), { keepRaw: true });
    expect(!compressed.ok && compressed.raw).toBe(undefined);
  });
});
