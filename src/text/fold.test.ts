import { expect, it } from 'vitest';
import { foldName } from './fold.js';

it.each([
  ['Bella Hart', 'bella hart'],
  ['  Bella\u00a0\u00a0HART ', 'bella hart'],
  ['Ｂｅｌｌａ Hart', 'bella hart'],
  ['عمر  حداد', 'عمر حداد'],
  ['Group a', 'group a'],
])('%j folds to %j', (name, folded) => {
  expect(foldName(name)).toBe(folded);
});
