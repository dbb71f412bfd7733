// npm run import -- FILE.json: validates the file (every problem, with its JSON path) and loads it
// in one transaction. Nothing is written unless the whole file is valid.
import path from 'node:path';
import { invocationDirectory } from '../src/config.js';
import { ImportConflictError } from '../src/import/load.js';
import { importFile } from '../src/import/run.js';
import { CliError, runCli, withDatabase } from './cli.js';

/** Problems printed before the rest are only counted. */
const MAX_PROBLEMS_SHOWN = 200;

await runCli(async () => {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) throw new CliError('usage: npm run import -- FILE.json');
  // Relative to the folder the command was typed in, not the project folder npm runs it from.
  const filePath = path.resolve(invocationDirectory(), file);
  await withDatabase(({ sqlite }) => {
    let outcome;
    try {
      outcome = importFile(sqlite, filePath);
    } catch (error) {
      if (error instanceof ImportConflictError) outcome = { ok: false as const, problems: error.problems };
      else throw error;
    }
    if (!outcome.ok) {
      const n = outcome.problems.length;
      // A file broken throughout (a review's had 39,000 problems) would flood the terminal: the first ones, then a count.
      const lines = outcome.problems.slice(0, MAX_PROBLEMS_SHOWN).map((p) => `  ${p.path}: ${p.message}`);
      if (n > MAX_PROBLEMS_SHOWN) lines.push(`  … and ${n - MAX_PROBLEMS_SHOWN} more (fix these first: many come from one mistake)`);
      throw new CliError(`${file}: ${n} problem${n === 1 ? '' : 's'}, nothing imported\n${lines.join('\n')}`);
    }
    const c = outcome.counts;
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
