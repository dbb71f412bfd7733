import { describe, expect, it } from 'vitest';
import { conditionalJson, isNotModified, parseHttpDate } from './conditional.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const CHANGED_S = Date.parse('2026-04-30T08:00:00Z') / 1000;
const ETAG = '"abc"';
const http = (ms: number) => new Date(ms).toUTCString();

describe('isNotModified', () => {
  it.each([
    ['no validators: modified', null, null, false],
    ['If-None-Match of this ETag: not modified', ETAG, null, true],
    ['If-None-Match in a list, weak: not modified', `"x", W/${ETAG}`, null, true],
    ['If-None-Match *: not modified', '*', null, true],
    ['If-None-Match of another ETag, even with a current date: modified', '"other"', http(NOW), false],
    ['If-Modified-Since the last change: not modified', null, http(CHANGED_S * 1000), true],
    ['If-Modified-Since now: not modified', null, http(NOW), true],
    ['If-Modified-Since a second before the change: modified', null, http(CHANGED_S * 1000 - 1000), false],
    ['If-Modified-Since a second in the future: ignored, modified', null, http(NOW + 1000), false],
    ['If-Modified-Since next year: ignored, modified', null, 'Sat, 01 May 2027 12:00:00 GMT', false],
    ['If-Modified-Since 9999: ignored, modified', null, 'Fri, 31 Dec 9999 23:59:59 GMT', false],
    ['If-Modified-Since not a date: ignored, modified', null, 'yesterday', false],
    // Not HTTP-dates (RFC 9110 13.1.3: ignored), found by a review: Date.parse read them.
    ['If-Modified-Since an ISO date: ignored, modified', null, '2026-05-01T11:00:00Z', false],
    ['If-Modified-Since without GMT: ignored, modified', null, 'Fri, 01 May 2026 11:00:00', false],
    ['If-Modified-Since the obsolete RFC 850 form: read', null, 'Friday, 01-May-26 11:00:00 GMT', true],
    ['If-Modified-Since the obsolete asctime form: read', null, 'Fri May  1 11:00:00 2026', true],
  ])('%s', (_label, ifNoneMatch, ifModifiedSince, notModified) => {
    expect(isNotModified({ ifNoneMatch, ifModifiedSince }, ETAG, CHANGED_S, NOW)).toBe(notModified);
  });

  it('ignores If-Modified-Since for a resource without a last change', () => {
    expect(isNotModified({ ifNoneMatch: null, ifModifiedSince: http(NOW) }, ETAG, null, NOW)).toBe(false);
  });
});

describe('conditionalJson', () => {
  const lastModified = new Date(CHANGED_S * 1000).toISOString();
  it.each([
    [http(CHANGED_S * 1000), 304],
    [http(NOW + 86_400_000), 200],
  ])('If-Modified-Since %s → %s', (ifModifiedSince, status) => {
    const answer = conditionalJson({ method: 'GET', ifNoneMatch: null, ifModifiedSince }, { yes: 1 }, lastModified, NOW);
    expect(answer.status).toBe(status);
    expect(answer.headers['Last-Modified']).toBe(http(CHANGED_S * 1000));
  });
});

describe('parseHttpDate', () => {
  it.each([
    ['Sun, 06 Nov 1994 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 37)],
    ['Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 37)],
    ['Sun Nov  6 08:49:37 1994', Date.UTC(1994, 10, 6, 8, 49, 37)],
    ['Sun Nov 16 08:49:37 1994', Date.UTC(1994, 10, 16, 8, 49, 37)],
    ['Sun, 06 Nov 1994 08:49:37 UTC', null],
    ['sun, 06 nov 1994 08:49:37 gmt', null],
    ['Sun, 6 Nov 1994 08:49:37 GMT', null],
    ['Sun, 31 Feb 1994 08:49:37 GMT', null],
    ['Sun, 06 Nov 1994 25:49:37 GMT', null],
    ['1994-11-06T08:49:37Z', null],
    ['', null],
  ])('%s', (value, ms) => {
    expect(parseHttpDate(value)).toBe(ms);
  });
});
