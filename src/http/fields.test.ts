import { describe, expect, it } from 'vitest';
import { asciiDigits, dateOfBirthField, phoneField } from './fields.js';

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

describe('phoneField', () => {
  it.each([
    ['٠٧٩١٢٣٤٥٦٧', '0791234567'],
    ['۰۷۹۱۲۳۴۵۶۷', '0791234567'],
    ['  +٩٦٢ (٧٩) ١٢٣-٤٥٦٧ ', '+962 (79) 123-4567'],
    ['+44 161 496 0000', '+44 161 496 0000'],
    ['', undefined],
  ])('takes %j as %j', (input, kept) => {
    expect(phoneField.parse(input)).toBe(kept);
  });

  it.each(['call me', '٠٧٩ext', '०७९१२३४५६७', '+', '٠١٢'])('refuses %j', (input) => {
    expect(phoneField.safeParse(input).error?.issues.map((i) => i.message)).toEqual(['must be a phone number: digits, spaces, + ( ) . -']);
  });
});

describe('dateOfBirthField', () => {
  it.each([
    ['2012-05-09', '2012-05-09'],
    ['٢٠١٢-٠٥-٠٩', '2012-05-09'],
    [' ۲۰۱۲-۰۵-۰۹ ', '2012-05-09'],
    ['', undefined],
  ])('takes %j as %j', (input, kept) => {
    expect(dateOfBirthField.parse(input)).toBe(kept);
  });

  it.each([
    ['٢٠١٢-٠٢-٣٠', 'is not a real date'],
    ['09/05/2012', 'must be a date as YYYY-MM-DD'],
    ['१९९०-०५-०९', 'must be a date as YYYY-MM-DD'],
    ['1899-12-31', 'must be between 1900-01-01 and today'],
  ])('refuses %j: %s', (input, message) => {
    expect(dateOfBirthField.safeParse(input).error?.issues[0]?.message).toBe(message);
  });
});
