import { describe, expect, it } from 'vitest';
import { plural } from './plural.js';

describe('plural', () => {
  it.each([
    [0, 'member', undefined, '0 members'],
    [1, 'member', undefined, '1 member'],
    [2, 'member', undefined, '2 members'],
    [1, 'match', 'matches', '1 match'],
    [3, 'match', 'matches', '3 matches'],
  ])('%i %s', (n, one, many, said) => {
    expect(plural(n, one, many)).toBe(said);
  });
});
