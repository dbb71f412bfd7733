import { describe, expect, it } from 'vitest';
import { pushInto } from './collections.js';

describe('pushInto', () => {
  it.each([
    [[], {}],
    [[['a', 1]], { a: [1] }],
    [[['a', 1], ['b', 2], ['a', 3]], { a: [1, 3], b: [2] }],
  ] as Array<[Array<[string, number]>, Record<string, number[]>]>)('%j groups as %j, in order', (items, expected) => {
    const groups = new Map<string, number[]>();
    for (const [k, v] of items) pushInto(groups, k, v);
    expect(Object.fromEntries(groups)).toEqual(expected);
  });
});
