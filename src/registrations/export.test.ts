import { describe, expect, it } from 'vitest';
import { neutralizeFormula, parseSince } from './export.js';

describe('--since', () => {
  it.each([
    ['2026-11-26', { day: '2026-11-26' }],
    ['2026-11-26T15:00+03:00', { instant: '2026-11-26T12:00:00.000Z' }],
    ['2026-11-26T12:00:30Z', { instant: '2026-11-26T12:00:30.000Z' }],
    ['2026-11-26t12:00:30.250z', { instant: '2026-11-26T12:00:30.250Z' }],
  ])('takes %s', (value, expected) => {
    expect(parseSince(value)).toEqual(expected);
  });

  it.each([
    ['2026-02-30', 'not a real day'],
    ['2026-02-30T00:00Z', 'not a real day (Date.parse rolls it over to 2 March)'],
    ['2026-11-26T15:00', 'no offset (Date.parse reads the server\'s time zone)'],
    ['2026-11-26T24:00Z', 'not a real hour'],
    ['2026-11-26 15:00+03:00', 'no T'],
    ['26/11/2026', 'another format'],
    ['today', 'a word'],
  ])('refuses %s: %s', (value) => {
    expect(parseSince(value)).toBeNull();
  });
});

describe('a cell a spreadsheet would run as a formula gets an apostrophe, at its start and after a semicolon, tab or line break', () => {
  it.each([
    ['Omar', 'Omar'],
    ['=1+1', "'=1+1"],
    ['+962 79 555 0101', "'+962 79 555 0101"],
    ['-1', "'-1"],
    ['@SUM(1+1)', "'@SUM(1+1)"],
    ['\t=1', "'\t'=1"],
    ['Jo;=1+41', "Jo;'=1+41"],
    ['Left back; "=cmd|\' /C calc\'!A0', 'Left back; "\'=cmd|\' /C calc\'!A0'],
    ['a;b;@x', "a;b;'@x"],
    ['a\t+1', "a\t'+1"],
    // A line break ends the row where the quotes are not honoured (a semicolon-split spreadsheet): its next line starts a cell.
    ['nuts\n=1+1', "nuts\n'=1+1"],
    ['nuts\r\n@SUM(1+1);x', "nuts\r\n'@SUM(1+1);x"],
    ['nuts\r=1', "nuts\r'=1"],
    // A semicolon at a line's end is no cell start of a formula: nothing added there.
    ['Allergies: nuts;\r\nAsthma', 'Allergies: nuts;\r\nAsthma'],
    ['1;2', '1;2'],
    ['score 2-1; fast', 'score 2-1; fast'],
    ['عمر؛=1', 'عمر؛=1'],
  ])('%j → %j', (value, expected) => {
    expect(neutralizeFormula(value)).toBe(expected);
  });
});
