import { describe, expect, it } from 'vitest';
import { isRealDay, isRealInstant } from './rfc3339.js';

describe('isRealDay', () => {
  it.each([
    ['2026-02-28', true], ['2028-02-29', true], ['2026-02-29', false], ['2026-09-31', false], ['2026-13-01', false],
    ['2026-00-10', false], ['0050-01-01', true], ['2026-1-01', false], ['2026-01-01T00:00Z', false], ['', false],
  ])('%s → %s', (value, real) => {
    expect(isRealDay(value)).toBe(real);
  });
});

describe('isRealInstant', () => {
  it.each([
    ['2026-03-07T18:30:00Z', true], ['2026-03-07T18:30Z', true], ['2026-03-07t18:30:00.250z', true], ['2026-03-07T18:30:00+03:00', true],
    ['2026-09-31T18:00:00Z', false], ['2026-03-07T24:00:00Z', false], ['2026-03-07T18:60:00Z', false], ['2026-03-07T18:30:60Z', false],
    ['2026-03-07T18:30:00+24:00', false], ['2026-03-07T18:30:00', false], ['2026-03-07 18:30:00Z', false],
  ])('%s → %s', (value, real) => {
    expect(isRealInstant(value)).toBe(real);
  });
});
