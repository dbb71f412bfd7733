// npm run import -- FILE.json [--check]: validates the file (every problem, with its JSON path) and loads it
// in one transaction. Nothing is written unless the whole file is valid; with --check, nothing is written at all: the
// import runs and is rolled back, and says what it would have done.
import fs from 'node:fs';
import path from 'node:path';
import { demoBeside, demoNote, demoOrganizationIds } from '../src/app/demo-data.js';
import { config, invocationDirectory } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import type { ImportProblem } from '../src/import/cross-check.js';
import { applyImport, ImportConflictError } from '../src/import/load.js';
import { readImportFile } from '../src/import/run.js';
import { importNotes } from '../src/import/notes.js';
import { importSummary } from '../src/import/summary.js';
import { CliError, parseCommandLine, runCli, withDatabase } from './cli.js';

/** Problems (and notes) printed before the rest are only counted. */
const MAX_PROBLEMS_SHOWN = 200;

const USAGE = 'npm run import -- FILE.json [--check]';

/** The problems of a file that was not imported, as the command prints them. */
function notImported(file: string, problems: ImportProblem[]): CliError {
  const n = problems.length;
  // A file broken throughout (a review's had 39,000 problems) would flood the terminal: the first ones, then a count.
  const lines = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `  ${p.path}: ${p.message}`);
  if (n > MAX_PROBLEMS_SHOWN) lines.push(`  … and ${n - MAX_PROBLEMS_SHOWN} more (fix these first: many come from one mistake)`);
  return new CliError(`${file}: ${n} problem${n === 1 ? '' : 's'}, nothing imported\n${lines.join('\n')}`);
}

await runCli(async () => {
  const { values, positionals } = parseCommandLine({ check: { type: 'boolean' } }, USAGE, 1);
  const [file] = positionals as [string];
  const check = values.check ?? false;
  // Relative to the folder the command was typed in, not the project folder npm runs it from.
  const filePath = path.resolve(invocationDirectory(), file);
  // The file is read and validated before the database is opened: a missing or broken file made (and migrated) an
  // empty database at a new DATABASE_PATH, then said it could not read the file.
  const parsed = readImportFile(filePath);
  if (!parsed.ok) throw notImported(file, parsed.problems);
  // What the import takes but the organizer should check (a result before its kickoff, a team twice at one time).
  // Capped as the problems are: a 43 MB file of an organizer's review printed 3,600 of them.
  const all = importNotes(parsed.file, new Date());
  const notes = all.slice(0, MAX_PROBLEMS_SHOWN).map((line) => `note: ${line}`);
  if (all.length > MAX_PROBLEMS_SHOWN) notes.push(`note: … and ${all.length - MAX_PROBLEMS_SHOWN} more`);
  const report = ({ sqlite }: Database) => {
    let counts;
    try {
      counts = applyImport(sqlite, parsed.file, { check });
    } catch (error) {
      if (error instanceof ImportConflictError) throw notImported(file, error.problems);
      throw error;
    }
    const held = sqlite.prepare(`SELECT id FROM organizations ORDER BY id`).pluck().all() as string[];
    const demo = demoBeside(held, parsed.file.organizations.map((o) => o.id), demoOrganizationIds());
    const demoLines = demo.length === 0 ? [] : [`note: ${demoNote(demo)}`];
    for (const line of [...importSummary(file, counts, { check }), ...notes, ...demoLines]) console.log(line);
  };
  const cfg = config();
  // A check writes nothing, not even a new database: with none at DATABASE_PATH yet, it checks against an empty one
  // in memory, as the first import would meet it.
  if (check && cfg.databasePath !== ':memory:' && !fs.existsSync(cfg.databasePath)) {
    const empty = await openDatabase(':memory:');
    try {
      report(empty);
    } finally {
      await empty.close();
    }
    console.log(`DATABASE_PATH (${cfg.databasePath}) holds no database yet: checked against an empty one, which the import would create`);
    return;
  }
  await withDatabase(report, { create: !check }); // an import fills a new database
});
