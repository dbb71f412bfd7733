// Which Accept headers get the HTML 404 page (src/http/not-found.ts) and which keep the JSON problem.
import { describe, expect, it } from 'vitest';
import { chooseEncoding, chooseLanguage, prefersHtml } from './accept.js';

describe('prefersHtml', () => {
  it.each([
    // Chromium, Firefox and Safari opening an address.
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'text/html',
    'TEXT/HTML; q=1, application/json; q=0.5',
    'text/*, application/json;q=0.9',
  ])('a browser navigation: %s', (accept) => {
    expect(prefersHtml(accept)).toBe(true);
  });

  it.each([
    [undefined],
    [''],
    ['*/*'], // curl
    ['application/json'],
    ['application/problem+json, text/html'], // a tie is no preference
    ['text/html;q=0.5, application/json'],
    ['text/html;q=0, */*'],
    ['application/*, text/html'],
    ['image/avif,image/webp,*/*;q=0.8'], // an <img> of the address
    ['text/html;q=x'], // a q that is no number: the range is dropped
  ])('JSON stays: %s', (accept) => {
    expect(prefersHtml(accept)).toBe(false);
  });
});

describe('chooseEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    // The client's weights decide (a review found br sent to "br;q=0.1, gzip"); brotli on a tie.
    ['br;q=0.1, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['x-gzip', 'gzip'],
    ['gzip;q=0.2, identity', 'identity'],
    ['identity;q=0', 'identity'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['deflate', 'identity'],
  ])('%s → %s', (header, encoding) => {
    expect(chooseEncoding(header)).toBe(encoding);
  });
});

describe('chooseLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['ar', 'ar'],
    ['ar-JO,ar;q=0.9,en-US;q=0.8,en;q=0.7', 'ar'],
    ['AR-jo', 'ar'],
    ['en-GB,en;q=0.9,ar;q=0.8', 'en'],
    // A tie is English, the API's own; `*` counts for both.
    ['ar;q=0.5, en;q=0.5', 'en'],
    ['ar, *;q=0.5', 'ar'],
    ['*', 'en'],
    ['fr-FR,fr;q=0.9', 'en'],
    ['fr, ar;q=0.3', 'ar'],
    ['ar;q=0', 'en'],
    ['arn', 'en'],
    ['ar;q=2', 'en'],
  ] as const)('%s → %s', (header, language) => {
    expect(chooseLanguage(header)).toBe(language);
  });
});
