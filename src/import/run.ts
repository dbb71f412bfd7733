// Import use case shared by `npm run import` and start-up's demo load: read, validate, migrate, apply.
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { applyImport, parseImport, type ImportCounts } from './load.js';
import type { ImportProblem } from './cross-check.js';

export type ImportOutcome = { ok: true; counts: ImportCounts } | { ok: false; problems: ImportProblem[] };

export function importFile(sqlite: Database.Database, filePath: string): ImportOutcome {
  let text: string;
  try {
    text = fs.readFileSync(filePath, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error);
    return { ok: false, problems: [{ path: '(file)', message: `cannot read ${filePath}: ${reason}` }] };
  }
  const parsed = parseImport(text);
  if (!parsed.ok) return parsed;
  return { ok: true, counts: applyImport(sqlite, parsed.file) };
}
