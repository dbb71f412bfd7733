import { describe, expect, it } from 'vitest';
import { arabicCount, listIn, sentence } from './language.js';

describe('arabicCount', () => {
  const hours = { one: 'ساعة واحدة', two: 'ساعتان', few: (n: number) => `${n} ساعات`, many: (n: number) => `${n} ساعة`, other: (n: number) => `${n} ساعة` };
  const notices = { one: 'إشعار واحد', two: 'إشعاران', few: (n: number) => `${n} إشعارات`, many: (n: number) => `${n} إشعارًا`, other: (n: number) => `${n} إشعار` };
  it.each([
    [1, hours, 'ساعة واحدة'],
    [2, hours, 'ساعتان'],
    [3, hours, '3 ساعات'],
    [10, hours, '10 ساعات'],
    [11, hours, '11 ساعة'],
    [24, hours, '24 ساعة'],
    // A review read "(الحد 200 إشعارًا)" under the default cap: after 100, 200, … the noun is singular, genitive.
    [200, notices, '200 إشعار'],
    [100, notices, '100 إشعار'],
    [103, notices, '103 إشعارات'],
    [111, notices, '111 إشعارًا'],
    [7, notices, '7 إشعارات'],
    [0, notices, '0 إشعار'],
  ])('%i: %s', (n, forms, text) => {
    expect(arabicCount(n, forms)).toBe(text);
  });
});

describe('sentence', () => {
  it.each([
    ['Riverside vs Hillside', 'Riverside vs Hillside.'],
    ['Riverside vs Al-Salt S.C.', 'Riverside vs Al-Salt S.C.'],
    ['ضد \u2068Al-Salt S.C.\u2069', 'ضد \u2068Al-Salt S.C.\u2069'],
    ['هل يمكنك المشاركة؟', 'هل يمكنك المشاركة؟'],
  ])('%s', (text, ended) => {
    expect(sentence(text)).toBe(ended);
  });
});

// A native Arabic review read the unsubscribe page's "also following" list joined with "، " alone.
describe('listIn', () => {
  const [a, b, c] = ['\u2068دوري تحت 12 سنة\u2069', '\u2068Premier Division\u2069', '\u2068كأس عمّان\u2069'];
  it.each([
    ['ar', [a], a],
    ['ar', [a, b], `${a} و${b}`],
    ['ar', [a, b, c], `${a} و${b} و${c}`],
    ['en', [b], b],
    ['en', [b, a], `${b} and ${a}`],
    ['en', [b, a, c], `${b}, ${a} and ${c}`],
  ] as const)('%s %j: %s', (language, items, text) => {
    expect(listIn(language, items)).toBe(text);
  });
});
