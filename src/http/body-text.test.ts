import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../utf8.js';
import { formDataTextIntact, jsonStringsWellFormed, parseUrlEncoded } from './body-text.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('parseUrlEncoded', () => {
  it.each([
    ['org_id=riverside-sfl&name=Jos%C3%A9', [['org_id', 'riverside-sfl'], ['name', 'José']]],
    ['name=a+b%2Bc', [['name', 'a b+c']]],
    ['a=1&&b=&c', [['a', '1'], ['b', ''], ['c', '']]],
    ['=x&y=1=2', [['', 'x'], ['y', '1=2']]],
    ['bad=%zz%4&pct=100%', [['bad', '%zz%4'], ['pct', '100%']]],
    ['ar=%D9%8A%D9%88%D8%B3%D9%81', [['ar', 'يوسف']]],
    ['name=a%EF%BF%BDb&n=%C3%A9', [['name', 'a\uFFFDb'], ['n', 'é']]], // U+FFFD the form sent itself is kept
    ['', []],
  ])('%j → the pairs URLSearchParams gives', (body, pairs) => {
    expect(parseUrlEncoded(bytes(body))).toEqual(pairs);
    expect([...new URLSearchParams(body)]).toEqual(pairs);
  });

  it('reads raw UTF-8 bytes as UTF-8', () => {
    expect(parseUrlEncoded(new Uint8Array(Buffer.from('name=José', 'utf8')))).toEqual([['name', 'José']]);
  });

  it.each([
    ['a Latin-1 é escaped', 'org_id=riverside-sfl&email=formbad2%40example.org&name=Jos%E9'],
    ['a raw Latin-1 é', 'name=Jos\xe9'],
    ['an escaped surrogate (CESU-8)', 'name=%ED%A0%80'],
    ['an overlong /', 'name=%C0%AF'],
    ['a truncated sequence', 'name=%C3'],
    ['in a field name', 'n%E9=1'],
  ])('%s: null, where URLSearchParams would give U+FFFD', (_label, body) => {
    expect(parseUrlEncoded(bytes(body))).toBeNull();
    expect([...new URLSearchParams(Buffer.from(body, 'latin1').toString('utf8'))].flat().join('')).toContain('\uFFFD');
  });
});

describe('formDataTextIntact', () => {
  const B = 'XyZ';
  const part = (headers: string, value: string) => `--${B}\r\n${headers}\r\n\r\n${value}\r\n`;
  const form = (...parts: string[]) => bytes(`${parts.join('')}--${B}--\r\n`);
  const name = (n: string) => `Content-Disposition: form-data; name="${n}"`;
  const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
  /** The text fields formData() reads from a body, as body.ts takes them. */
  async function texts(body: Uint8Array, contentType = `multipart/form-data; boundary=${B}`): Promise<string[]> {
    const data = await new Request('http://local/', { method: 'POST', headers: { 'content-type': contentType }, body: Buffer.from(body) }).formData();
    return [...data.entries()].flatMap(([n, v]) => (typeof v === 'string' ? [n, v] : []));
  }

  it.each([
    ['ASCII fields', form(part(name('a'), '1'), part(name('b'), '2')), true],
    ['UTF-8 text', form(part(name('name'), utf8('José يوسف'))), true],
    ['U+FFFD sent as text (its UTF-8 bytes)', form(part(name('name'), utf8('a\uFFFDb'))), true],
    ['a raw 0xE9 in a value', form(part(name('org_id'), 'riverside-sfl'), part(name('name'), 'Jos\xe9')), false],
    ['a raw 0xE9 in a field name', form(part(name('n\xe9'), '1')), false],
    ['U+FFFD sent once, and a raw 0xE9', form(part(name('a'), utf8('\uFFFD')), part(name('name'), 'Jos\xe9')), false],
    ['binary bytes in a file part', form(part(`${name('photo')}; filename="a.jpg"\r\nContent-Type: image/jpeg`, '\xff\xd8\xe9'), part(name('a'), '1')), true],
    // What a review found a re-split of the bytes let through (undici still read each as a text field):
    ['a filename parameter in another header of a text part', form(part(`${name('name')}\r\nContent-Type: text/plain; filename=x`, 'Jos\xe9')), false],
    ['a base64 Content-Transfer-Encoding', form(part(`${name('name')}\r\nContent-Transfer-Encoding: base64`, Buffer.from('Jos\xe9', 'latin1').toString('base64'))), false],
  ])('%s → %s', async (_label, body, expected) => {
    expect(formDataTextIntact(await texts(body), body)).toBe(expected);
  });

  it('a quoted boundary with an escaped quote, and its false close delimiter in an earlier field → false', async () => {
    const body = bytes(`--a"b\r\n${name('x')}\r\n\r\n\r\n--a\\--\r\n--a"b\r\n${name('name')}\r\n\r\nJos\xe9\r\n--a"b--\r\n`);
    const fields = await texts(body, 'multipart/form-data; boundary="a\\"b"');
    expect(fields).toContain('Jos\uFFFD');
    expect(formDataTextIntact(fields, body)).toBe(false);
  });

  it('U+FFFD sent 5,000 times as text → true (each one counted in the bytes)', () => {
    const text = '\uFFFD'.repeat(5000);
    const body = new Uint8Array(Buffer.from(text, 'utf8'));
    expect(formDataTextIntact([text], body)).toBe(true);
  });
});

describe('jsonStringsWellFormed', () => {
  it.each([
    ['{"name":"Sam"}', true],
    ['{"name":"\\ud83d\\ude00 ⚽"}', true],
    ['{"name":"a\\ud800b"}', false],
    ['{"notes":"\\udc00"}', false],
    ['{"name":"\\ude00\\ud83d"}', false],
    ['{"a\\ud800":"key"}', false],
    ['{"deep":[[{"x":["\\ud800"]}]]}', false],
    ['[1, null, true, "x"]', true],
    ['"\\ud800"', false],
  ])('%s → %s', (json, expected) => {
    expect(jsonStringsWellFormed(JSON.parse(json))).toBe(expected);
  });

  it('walks a body nested as deep as 16 KiB allows without exhausting the stack', () => {
    const deep = JSON.parse('['.repeat(8000) + '"\\ud800"' + ']'.repeat(8000));
    expect(jsonStringsWellFormed(deep)).toBe(false);
  });
});

describe('decodeUtf8', () => {
  it.each([
    [[0x4a, 0x6f, 0x73, 0xc3, 0xa9], 'José'],
    [[0xef, 0xbb, 0xbf, 0x61], '\uFEFFa'],
    [[0x4a, 0xe9], null],
    [[0xed, 0xa0, 0x80], null],
  ])('%j → %j', (input, text) => {
    expect(decodeUtf8(new Uint8Array(input))).toBe(text);
  });
});
