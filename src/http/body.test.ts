import { describe, expect, it } from 'vitest';
import { readBody, unsupportedContentCoding } from './body.js';

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
    ['org_id', 'second'],
    ['toString', 'second'],
  ];
  const expected = { constructor: 'a', toString: 'b', valueOf: 'c', ['__proto__']: 'd', hasOwnProperty: 'e', org_id: 'riverside-sfl' };

  it.each([
    ['form-urlencoded', 'application/x-www-form-urlencoded', PROTOTYPE_NAMES.map(([k, v]) => `${k}=${v}`).join('&')],
    ['multipart', 'multipart/form-data; boundary=B', multipart(PROTOTYPE_NAMES)],
  ])('%s: fields named like Object.prototype members are kept, each with its first value', async (_label, contentType, body) => {
    const result = await readBody(post(contentType, body));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.fields).sort()).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) expect(Object.getOwnPropertyDescriptor(result.fields, key)?.value).toBe(value);
    // The object holds fields only: no prototype of its own set from a field called __proto__.
    expect(Object.getPrototypeOf(result.fields)).toBeNull();
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
