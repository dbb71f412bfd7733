import { describe, expect, it } from 'vitest';
import { ownValue, pushInto } from './collections.js';

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

describe('ownValue', () => {
  const record: Record<string, string> = { a: 'x', constructor: 'own' };
  it.each<[string, Record<string, string> | undefined, string, string | undefined]>([
    ['an own key', record, 'a', 'x'],
    ['an own key named like a prototype member', record, 'constructor', 'own'],
    ['a missing key', record, 'b', undefined],
    ["Object.prototype's toString", record, 'toString', undefined],
    ["Object.prototype's hasOwnProperty", {}, 'hasOwnProperty', undefined],
    ['__proto__', {}, '__proto__', undefined],
    ['no record', undefined, 'a', undefined],
  ])('%s', (_case, r, key, expected) => {
    expect(ownValue(r, key)).toBe(expected);
  });
});
