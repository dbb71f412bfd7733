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
