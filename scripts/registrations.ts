// npm run registrations -- --org ORG_ID [--since DATE] [--format csv|json] [--output FILE]: one organization's
// registrations, for its organizers, to FILE or to stdout (CSV by default). Nothing of another organization is ever
// read.
import path from 'node:path';
import { invocationDirectory } from '../src/config.js';
import { writeFileAtomic } from '../src/publish/store.js';
import { exportRegistrations, parseSince, toCsv, toJson } from '../src/registrations/export.js';
import { CliError, parseOptions, runCli, withDatabase } from './cli.js';

const USAGE = 'npm run registrations -- --org ORG_ID [--since YYYY-MM-DD] [--format csv|json] [--output FILE]';

await runCli(async () => {
  const values = parseOptions(
    { org: { type: 'string' }, since: { type: 'string' }, format: { type: 'string', default: 'csv' }, output: { type: 'string' } },
    USAGE,
  );
  const { org, format } = values;
  if (!org) throw new CliError(`usage: ${USAGE}`);
  if (format !== 'csv' && format !== 'json') throw new CliError(`--format must be csv or json\nusage: ${USAGE}`);
  if (values.output !== undefined && values.output.trim() === '') throw new CliError(`--output needs a file name\nusage: ${USAGE}`);
  const since = values.since === undefined ? null : parseSince(values.since);
  if (since === null && values.since !== undefined) {
    throw new CliError(
      `--since must be a day (YYYY-MM-DD, in the organization's time zone) or an instant with its offset (2026-11-26T15:00+03:00)\nusage: ${USAGE}`,
    );
  }
  const { out, count } = await withDatabase(({ store }) => {
    const rows = exportRegistrations(store, org, since);
    if (rows === undefined) throw new CliError(`no organization has the id "${org}"`);
    return { out: format === 'csv' ? toCsv(rows) : toJson(org, values.since ?? null, rows), count: rows.length };
  });
  if (values.output === undefined) {
    process.stdout.write(out);
    return;
  }
  // A file of its own, not stdout redirected: `npm run` prints its banner to stdout, so `> regs.csv` put npm's
  // lines before the byte-order mark and a spreadsheet read the Arabic as mojibake (a review; `npm run --silent`
  // avoids it, which nobody remembers). Written whole or not at all, readable by its owner only: it names children,
  // their birth dates and their parents' phones. A relative name is from the folder the command was typed in.
  const file = path.resolve(invocationDirectory(), values.output);
  try {
    writeFileAtomic(file, out, { mode: 0o600, mkdir: false });
  } catch (error) {
    throw new CliError(`--output ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}: nothing written`);
  }
  process.stdout.write(`${count} registration${count === 1 ? '' : 's'} of ${org} written to ${file}\n`);
});
