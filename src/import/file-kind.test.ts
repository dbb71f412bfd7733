import { describe, expect, it } from 'vitest';
import { binaryFileProblem, csvProblem, printable } from './file-kind.js';

const SPREADSHEET = "not JSON: the import reads a JSON file in the import format (README, 'Import format'), not a spreadsheet: write the data in that format";

describe('printable', () => {
  it.each([
    ['plain text and Arabic', '"name": "رابطة عمّان",', '"name": "رابطة عمّان",'],
    ['a tab', 'a\tb', 'a\\u0009b'],
    ["a screen clear and a window title", '\u001b[2J\u001b]0;pwned\u0007', '\\u001b[2J\\u001b]0;pwned\\u0007'],
    ['NULs of a zip', 'PK\u0003\u0004\u0000\u0000', 'PK\\u0003\\u0004\\u0000\\u0000'],
    ['a lone CR (returns to the start of the line)', 'a\rb', 'a\\u000db'],
    ['C1 CSI and DEL', '\u009b2J\u007f', '\\u009b2J\\u007f'],
    ['a right-to-left override and a line separator', 'x\u202Ey\u2028z', 'x\\u202ey\\u2028z'],
    ['the marks Arabic typing uses stay', 'a\u200Fb\u061Cc', 'a\u200Fb\u061Cc'],
  ])('%s', (_label, input, shown) => {
    expect(printable(input)).toBe(shown);
  });
});

describe('binaryFileProblem', () => {
  it.each<[string, number[], string | null]>([
    ['an .xlsx (a zip)', [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00], `the file is a zip archive (an .xlsx or .ods spreadsheet?), ${SPREADSHEET}`],
    ['an .xls', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00], `the file is an Office document (an .xls spreadsheet?), ${SPREADSHEET}`],
    ['JSON', [...Buffer.from('{"organizations": []}')], null],
    ['text starting PK', [...Buffer.from('PK,name')], null],
    ['an empty file', [], null],
  ])('%s', (_label, bytes, problem) => {
    expect(binaryFileProblem(Uint8Array.from(bytes))).toBe(problem);
  });
});

describe('csvProblem', () => {
  it.each<[string, string, string | null]>([
    ['a header row', 'id,name,email\nrs-1,Sam,sam@example.org\n', `the file looks like CSV (its first line is "id,name,email"), ${SPREADSHEET}`],
    ['quoted cells, semicolons, after blank lines', '\r\n"id";"name"\r\n', `the file looks like CSV (its first line is "\\"id\\";\\"name\\""), ${SPREADSHEET}`],
    ['tab-separated', 'id\tname', `the file looks like CSV (its first line is "id\\tname"), ${SPREADSHEET}`],
    ['a long first line, cut', `${'abcdefghij,'.repeat(5)}`, `the file looks like CSV (its first line is "${'abcdefghij,'.repeat(4).slice(0, 40)}"), ${SPREADSHEET}`],
    ['broken JSON', '{"organizations": [,]}', null],
    ['JSON without its opening brace', '"organizations": [{ "id": "x", "name": "y" }]', null],
    ['an array on the first line', '[1, 2', null],
    ['one word', 'hello', null],
    ['nothing', '', null],
  ])('%s', (_label, text, problem) => {
    expect(csvProblem(text)).toBe(problem);
  });
});
