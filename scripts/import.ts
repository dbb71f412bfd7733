// npm run import -- FILE.json: validates the file (every problem, with its JSON path) and loads it
// in one transaction. Nothing is written unless the whole file is valid.
import path from 'node:path';
import { invocationDirectory } from '../src/config.js';
import type { ImportProblem } from '../src/import/cross-check.js';
import { applyImport, ImportConflictError } from '../src/import/load.js';
import { readImportFile } from '../src/import/run.js';
import { CliError, parseCommandLine, runCli, withDatabase } from './cli.js';

/** Problems printed before the rest are only counted. */
const MAX_PROBLEMS_SHOWN = 200;

const USAGE = 'npm run import -- FILE.json';

/** The problems of a file that was not imported, as the command prints them. */
function notImported(file: string, problems: ImportProblem[]): CliError {
  const n = problems.length;
  // A file broken throughout (a review's had 39,000 problems) would flood the terminal: the first ones, then a count.
  const lines = problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `  ${p.path}: ${p.message}`);
  if (n > MAX_PROBLEMS_SHOWN) lines.push(`  … and ${n - MAX_PROBLEMS_SHOWN} more (fix these first: many come from one mistake)`);
  return new CliError(`${file}: ${n} problem${n === 1 ? '' : 's'}, nothing imported\n${lines.join('\n')}`);
}

await runCli(async () => {
  const [file] = parseCommandLine({}, USAGE, 1).positionals as [string];
  // Relative to the folder the command was typed in, not the project folder npm runs it from.
  const filePath = path.resolve(invocationDirectory(), file);
  // The file is read and validated before the database is opened: a missing or broken file made (and migrated) an
  // empty database at a new DATABASE_PATH, then said it could not read the file.
  const parsed = readImportFile(filePath);
  if (!parsed.ok) throw notImported(file, parsed.problems);
  await withDatabase(({ sqlite }) => {
    let c;
    try {
      c = applyImport(sqlite, parsed.file);
    } catch (error) {
      if (error instanceof ImportConflictError) throw notImported(file, error.problems);
      throw error;
    }
    console.log(
      `${file}: imported ${c.organizations} organizations, ${c.leagues} leagues, ${c.events} events, ` +
        `${c.matches} matches, ${c.teams} teams, ${c.members} members, ${c.divisions} divisions ` +
        `(${c.changed} rows written, ${c.removed} removed)`,
    );
    for (const { league, name, follows } of c.endedFollows) {
      console.log(`league ${JSON.stringify(league)} (${name}) is no longer in the file: its ${follows} follow${follows === 1 ? '' : 's'} ended with it, and ${follows === 1 ? 'its follower is' : 'their followers are'} told nothing more (to stop publishing a league and keep its followers, make its competitions private instead)`);
    }
  }, { create: true }); // an import fills a new database
});
