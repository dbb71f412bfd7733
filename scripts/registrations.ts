// npm run registrations -- --org ORG_ID [--since DATE] [--format csv|json]: one organization's registrations to
// stdout (CSV by default), for its organizers. Nothing of another organization is ever read.
import { exportRegistrations, parseSince, toCsv, toJson } from '../src/registrations/export.js';
import { CliError, parseOptions, runCli, withDatabase } from './cli.js';

const USAGE = 'npm run registrations -- --org ORG_ID [--since YYYY-MM-DD] [--format csv|json]';

await runCli(async () => {
  const values = parseOptions({ org: { type: 'string' }, since: { type: 'string' }, format: { type: 'string', default: 'csv' } }, USAGE);
  const { org, format } = values;
  if (!org) throw new CliError(`usage: ${USAGE}`);
  if (format !== 'csv' && format !== 'json') throw new CliError(`--format must be csv or json\nusage: ${USAGE}`);
  const since = values.since === undefined ? null : parseSince(values.since);
  if (since === null && values.since !== undefined) {
    throw new CliError(
      `--since must be a day (YYYY-MM-DD, in the organization's time zone) or an instant with its offset (2026-11-26T15:00+03:00)\nusage: ${USAGE}`,
    );
  }
  const out = await withDatabase(({ store }) => {
    const rows = exportRegistrations(store, org, since);
    if (rows === undefined) throw new CliError(`no organization has the id "${org}"`);
    return format === 'csv' ? toCsv(rows) : toJson(org, values.since ?? null, rows);
  });
  process.stdout.write(out);
});
