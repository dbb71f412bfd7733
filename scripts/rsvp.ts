// npm run rsvp -- --match MATCH_ID [--format csv|json] [--output FILE]: who was invited to a match and what each
// answered, for the organizer who ran `npm run invite` (an RSVP review: the public summary counts both teams
// together, and nothing named anyone). One row per invitation, by team then member name, to FILE or to stdout (CSV by
// default), with the registrations export's rules. No token is ever printed.
import { answersCsv, answersJson } from '../src/rsvp/answers.js';
import { rsvpAnswers } from '../src/rsvp/service.js';
import { CliError, outputFile, parseOptions, runCli, withDatabase, writeOutput } from './cli.js';

const USAGE = 'npm run rsvp -- --match MATCH_ID [--format csv|json] [--output FILE]';

await runCli(async () => {
  const values = parseOptions({ match: { type: 'string' }, format: { type: 'string', default: 'csv' }, output: { type: 'string' } }, USAGE);
  const { match, format } = values;
  if (!match) throw new CliError(`usage: ${USAGE}`);
  if (format !== 'csv' && format !== 'json') throw new CliError(`--format must be csv or json\nusage: ${USAGE}`);
  const file = outputFile(values.output, USAGE);
  const { out, count } = await withDatabase(({ store }) => {
    const rows = rsvpAnswers(store, match);
    if (rows === undefined) throw new CliError(`no match has the id "${match}"`);
    return { out: format === 'csv' ? answersCsv(rows) : answersJson(match, rows), count: rows.length };
  });
  if (file === undefined) {
    process.stdout.write(out);
    return;
  }
  // A file of its own, whole or not at all, readable by its owner only (cli.ts writeOutput says why).
  writeOutput(file, out);
  process.stdout.write(`${count} invitation${count === 1 ? '' : 's'} of match ${match} written to ${file}\n`);
});
