import { describe, expect, it } from 'vitest';
import { unsupportedContentCoding } from './body.js';

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
