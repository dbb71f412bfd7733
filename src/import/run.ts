// Import use case shared by `npm run import` and start-up's demo load: read, validate, migrate, apply.
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { applyImport, parseImport, type ImportCounts, type ParseResult } from './load.js';
import type { ImportProblem } from './cross-check.js';
import { decodeUtf8 } from '../utf8.js';
import { binaryFileProblem } from './file-kind.js';

export type ImportOutcome = { ok: true; counts: ImportCounts } | { ok: false; problems: ImportProblem[] };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The file's text, strictly UTF-8: a UTF-8 byte-order mark (Windows editors write one) is dropped; a file in
 * another encoding (Windows-1256 or Latin-1 saved by a spreadsheet, UTF-16) is refused, naming the first line
 * that is not UTF-8. Reading it leniently stored every Arabic letter of such a file as U+FFFD.
 */
export function decodeImportText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; message: string } {
  const binary = binaryFileProblem(bytes);
  if (binary !== null) return { ok: false, message: binary };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, message: 'the file is UTF-16, not UTF-8: save it as UTF-8 and import it again' };
  }
  const start = UTF8_BOM.every((b, i) => bytes[i] === b) ? UTF8_BOM.length : 0;
  const body = bytes.subarray(start);
  const text = decodeUtf8(body);
  if (text !== null) return { ok: true, text };
  // A UTF-8 sequence never holds the byte 0x0A, so the first line that does not decode alone is the culprit.
  let line = 1;
  for (let from = 0; ; line++) {
    const end = body.indexOf(0x0a, from);
    if (end === -1 || decodeUtf8(body.subarray(from, end)) === null) break;
    from = end + 1;
  }
  return {
    ok: false,
    message: `line ${line} is not UTF-8 (a file saved as Windows-1256 or Latin-1?): save the file as UTF-8 and import it again`,
  };
}

/**
 * Reads, decodes and validates an import file, touching no database: the command checks the file before it opens
 * (or creates) one, so that a missing or broken file leaves nothing behind.
 */
export function readImportFile(filePath: string): ParseResult {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder, not a file' : code === 'EACCES' ? 'permission denied' : String(error);
    return { ok: false, problems: [{ path: '(file)', message: `cannot read ${filePath}: ${reason}` }] };
  }
  const decoded = decodeImportText(bytes);
  if (!decoded.ok) return { ok: false, problems: [{ path: '(file)', message: decoded.message }] };
  return parseImport(decoded.text);
}

export function importFile(sqlite: Database.Database, filePath: string): ImportOutcome {
  const parsed = readImportFile(filePath);
  if (!parsed.ok) return parsed;
  return { ok: true, counts: applyImport(sqlite, parsed.file) };
}
