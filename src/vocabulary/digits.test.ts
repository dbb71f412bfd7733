import { describe, expect, it } from 'vitest';
import { asciiDigits } from './digits.js';

describe('asciiDigits', () => {
  it.each([
    ['٠١٢٣٤٥٦٧٨٩', '0123456789'],
    ['۰۱۲۳۴۵۶۷۸۹', '0123456789'],
    ['+٩٦٢ ٧٩ ١٢٣ ٤٥٦٧', '+962 79 123 4567'],
    ['07٩1۲34', '0791234'],
    ['0791234567', '0791234567'],
    // Other digits are not phone digits here (Devanagari, full-width): left as they are, and the rule refuses them.
    ['०७९', '०७९'],
    ['０７９', '０７９'],
    ['', ''],
  ])('%s → %s', (input, output) => {
    expect(asciiDigits(input)).toBe(output);
  });
});
