// npm run person -- --email ADDRESS [--erase] [--format text|json]: what the service holds about the person at that
// address, or (--erase) its erasure, for an access or erasure request (a data protection review: an operator could
// answer neither without writing SQL). Every spelling of the mailbox counts (src/people/spellings.ts); the listing
// and the erasure are src/people/person.ts's, the words src/people/report.ts's. An erasure then folds the WAL, as
// the retention job does, so that no copy lingers in app.db-wal.
import { checkpointWal } from '../src/db/checkpoint.js';
import { erasePerson, personHeld } from '../src/people/person.js';
import { erasedText, heldText, personJson } from '../src/people/report.js';
import { CliError, parseOptions, runCli, withDatabase } from './cli.js';

const USAGE = 'npm run person -- --email ADDRESS [--erase] [--format text|json]';

await runCli(async () => {
  const values = parseOptions({ email: { type: 'string' }, erase: { type: 'boolean', default: false }, format: { type: 'string', default: 'text' } }, USAGE);
  const { format, erase } = values;
  const email = values.email?.trim();
  if (email === undefined) throw new CliError(`usage: ${USAGE}`);
  if (email.lastIndexOf('@') <= 0 || email.lastIndexOf('@') === email.length - 1) throw new CliError(`--email must be an address (name@domain)\nusage: ${USAGE}`);
  if (format !== 'text' && format !== 'json') throw new CliError(`--format must be text or json\nusage: ${USAGE}`);
  const out = await withDatabase(({ store, sqlite }, cfg) => {
    const options = { mailDir: cfg.mailTransport === 'file' ? cfg.mailDir : null };
    if (!erase) {
      const held = personHeld(store, email, options);
      return format === 'json' ? personJson(held) : heldText(held);
    }
    const { held, erased } = erasePerson(store, email, options);
    // Said on stderr: the JSON on stdout stays one document.
    if (!checkpointWal(sqlite)) console.error('WAL checkpoint deferred: the database was busy; the next regeneration or npm run retention folds it');
    return format === 'json' ? personJson(held, erased) : erasedText(held, erased);
  });
  process.stdout.write(out);
});
