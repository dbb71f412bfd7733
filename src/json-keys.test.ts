import { describe, expect, it } from 'vitest';
import { duplicateJsonKey, duplicateJsonKeyAt } from './json-keys.js';

describe('duplicateJsonKey', () => {
  it.each([
    ['{"org_id":"nope","org_id":"riverside-sfl","email":"a@example.org"}', 'org_id'],
    ['{"a":1,"b":2,"a":3}', 'a'],
    ['{"org\\u005fid":"x","org_id":"y"}', 'org_id'],
    ['{"__proto__":1,"__proto__":2}', '__proto__'],
    ['{"a":{"b":1,"b":2}}', 'b'],
    ['[{"a":1},{"a":2,"a":3}]', 'a'],
    ['{"a":1,"x":{"a":2},"y":[{"a":3}],"b":"\\"a\\":\\"a\\""}', null],
    ['{"a":"}","b":"{","c":"[\\"a\\",","a2":1}', null],
    ['{"org_id":"riverside-sfl","email":"fan@example.org"}', null],
    ['{}', null],
    ['[1,"a","a"]', null],
    ['"a"', null],
    ['{"":1,"":2}', ''],
    ['{ "a" : 1 , "a" : 2 }', 'a'],
  ])('%s → %j', (json, key) => {
    JSON.parse(json); // every case is JSON
    expect(duplicateJsonKey(json)).toBe(key);
  });
});

describe('duplicateJsonKeyAt', () => {
  it.each([
    ['{"a":1,"a":2}', { key: 'a', offset: 7 }],
    ['{\n  "name": "Bravo",\n  "name": "Bravo2"\n}', { key: 'name', offset: 23 }],
    ['{"a":1}', null],
  ])('%s → %j', (json, at) => {
    expect(duplicateJsonKeyAt(json)).toEqual(at);
  });
});
