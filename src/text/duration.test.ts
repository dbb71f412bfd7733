import { describe, expect, it } from 'vitest';
import { spokenDuration } from './duration.js';

describe('spokenDuration', () => {
  it.each([
    [0, '0 s'],
    [1_400, '1 s'],
    [119_000, '119 s'],
    [120_000, '2 min'],
    [3_600_000, '60 min'],
    [7_199_000, '120 min'],
    [7_200_000, '2 h'],
    [10_800_000, '3 h'],
  ])('%i ms: %s', (ms, said) => {
    expect(spokenDuration(ms)).toBe(said);
  });
});
