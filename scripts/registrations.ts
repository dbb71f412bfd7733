// npm run registrations -- --org ORG_ID [--since DATE] [--format csv|json] [--output FILE]: one organization's
// registrations, for its organizers, to FILE or to stdout (CSV by default). Nothing of another organization is ever
// read. With --remove ID (repeatable): those registrations of the organization removed instead (src/registrations/
// remove.ts), all or none.
import { checkpointWal } from '../src/db/checkpoint.js';
import { exportRegistrations, parseSince, toCsv, toJson } from '../src/registrations/export.js';
import { removeRegistrations } from '../src/registrations/remove.js';
import { CliError, outputFile, parseOptions, runCli, withDatabase, writeOutput } from './cli.js';

const USAGE = 'npm run registrations -- --org ORG_ID [--since YYYY-MM-DD] [--format csv|json] [--output FILE] | --org ORG_ID --remove ID [--remove ID …]';

await runCli(async () => {
  const values = parseOptions(
    { org: { type: 'string' }, since: { type: 'string' }, format: { type: 'string' }, output: { type: 'string' }, remove: { type: 'string', multiple: true } },
    USAGE,
  );
  const { org } = values;
  const format = values.format ?? 'csv';
  if (!org) throw new CliError(`usage: ${USAGE}`);
  if (values.remove !== undefined) {
    if (values.since !== undefined || values.output !== undefined || values.format !== undefined) throw new CliError(`--remove takes no --since, --output or --format\nusage: ${USAGE}`);
    const outcome = await withDatabase(({ store, sqlite }, cfg) => {
      const result = removeRegistrations(store, org, values.remove!, { mailDir: cfg.mailTransport === 'file' ? cfg.mailDir : null });
      // Folded out of the WAL, as an erasure is: no copy of what was removed lingers in app.db-wal.
      if (result.ok && !checkpointWal(sqlite)) console.error('WAL checkpoint deferred: the database was busy; the next regeneration or npm run retention folds it');
      return result;
    });
    if (!outcome.ok) throw new CliError(`nothing removed: ${org} has no registration ${outcome.unknown.map((id) => JSON.stringify(id)).join(', ')}`);
    const n = outcome.removed.length;
    process.stdout.write(
      `${n} registration${n === 1 ? '' : 's'} of ${org} removed (${outcome.removed.join(', ')}), and what the ${outcome.emails} email${outcome.emails === 1 ? '' : 's'} about ${n === 1 ? 'it' : 'them'} in the outbox said (none of those waiting is sent; each still counts against its mailbox's daily limit until the retention job deletes it)` +
        `${outcome.files > 0 ? `, with their ${outcome.files} .eml file${outcome.files === 1 ? '' : 's'}` : ''}\n`,
    );
    return;
  }
  if (format !== 'csv' && format !== 'json') throw new CliError(`--format must be csv or json\nusage: ${USAGE}`);
  const file = outputFile(values.output, USAGE);
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
  if (file === undefined) {
    process.stdout.write(out);
    return;
  }
  // A file of its own, whole or not at all, readable by its owner only (cli.ts writeOutput says why).
  writeOutput(file, out);
  process.stdout.write(`${count} registration${count === 1 ? '' : 's'} of ${org} written to ${file}\n`);
});
