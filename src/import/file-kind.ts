// What an organizer sees of a file that is not the import's JSON. The import echoes the file's own text (the
// excerpt after "found:", a key zod did not expect), and a terminal obeys what it is sent: an .xlsx printed
// `PK\003\004…` with NULs, and a file starting with ESC[2J ESC]0;… BEL cleared the organizer's screen and retitled the
// terminal. And a spreadsheet given instead of the JSON was told about line 1, column 1, not that it is a spreadsheet.

/** What shows nothing or moves text when printed: C0 and C1 controls (ESC, CSI U+009B, CR), line and paragraph separators, direction controls. */
const UNPRINTABLE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g;

/** `s` with every unprintable character written as a JSON escape (`\u001b`): what a terminal shows, never obeys. */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const NOT_A_SPREADSHEET = "the import reads a JSON file in the import format (README, 'Import format'), not a spreadsheet: write the data in that format";

/** Files whose first bytes say what they are: a zip (.xlsx, .ods, .docx) and an old Office document (.xls). */
const SIGNATURES: Array<[number[], string]> = [
  [[0x50, 0x4b, 0x03, 0x04], 'a zip archive (an .xlsx or .ods spreadsheet?)'],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'an Office document (an .xls spreadsheet?)'],
];

/** The refusal of a file that is recognisably not JSON from its first bytes, or null. Checked before decoding: a zip is not UTF-8 either. */
export function binaryFileProblem(bytes: Uint8Array): string | null {
  const found = SIGNATURES.find(([signature]) => signature.every((b, i) => bytes[i] === b));
  return found ? `the file is ${found[1]}, not JSON: ${NOT_A_SPREADSHEET}` : null;
}

/**
 * The refusal of a text that JSON.parse refused and whose first line reads as a CSV row (a spreadsheet saved as CSV:
 * `id,name,email`), or null. A row has a separator (comma, semicolon, tab) and nothing of JSON's: no { or [, and no
 * `":` (a JSON file missing its opening brace starts `"organizations": [`).
 */
export function csvProblem(text: string): string | null {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '')?.trim();
  if (first === undefined || !/[,;\t]/.test(first) || /[{[]|"\s*:/.test(first)) return null;
  return `the file looks like CSV (its first line is ${printable(JSON.stringify([...first].slice(0, 40).join('')))}), not JSON: ${NOT_A_SPREADSHEET}`;
}
