// What every CLI shares: the one configuration (src/config.ts, the same one the server reads), the one way to
// open the database (src/db/database.ts: opened and migrated), and the exit behaviour: a known failure prints
// one clear line (no stack trace) and exits 1.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { config, ConfigError, invocationDirectory, type Config } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { operatorCause } from '../src/http/request-failure.js';
import { writeFileAtomic } from '../src/publish/store.js';

export class CliError extends Error {
  override name = 'CliError';
}

export async function runCli(main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (error) {
    const known = error instanceof CliError || error instanceof ConfigError;
    const setting = known ? undefined : pathSettingOf(error);
    const database = known || setting ? undefined : databaseCause(error);
    if (known) {
      console.error(error.message);
    } else if (setting) {
      console.error(`${setting}: ${(error as Error).message}`);
    } else if (database) {
      console.error(database);
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  }
}

/**
 * The setting whose path a file system or SQLite open error is about (`DATABASE_PATH=/srv/data/app.db` where /srv/data is a file,
 * an `ARTIFACTS_DIR` on a read-only disk): an operator's mistake, told in one line, not a stack trace.
 */
function pathSettingOf(error: unknown): string | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  if (!(e instanceof Error) || typeof e.code !== 'string') return undefined;
  let cfg: Config;
  try {
    cfg = config();
  } catch {
    return undefined;
  }
  // better-sqlite3's "unable to open database file" (a folder, a missing or unwritable directory) names no path.
  if (e.code === 'SQLITE_CANTOPEN') {
    const folder = fs.statSync(cfg.databasePath, { throwIfNoEntry: false })?.isDirectory() ?? false;
    return `DATABASE_PATH (${cfg.databasePath}${folder ? `, a folder: name the database file, such as ${path.join(cfg.databasePath, 'app.db')}` : ''})`;
  }
  if (typeof e.path !== 'string') return undefined;
  const failed = path.resolve(e.path);
  const within = (a: string, b: string) => a === b || a.startsWith(b + path.sep);
  const settings: Array<[string, string]> = [
    [`DATABASE_PATH (${cfg.databasePath})`, cfg.databasePath],
    [`ARTIFACTS_DIR (${cfg.artifactsDir})`, cfg.artifactsDir],
    [`MAIL_DIR (${cfg.mailDir})`, cfg.mailDir],
  ];
  return settings.find(([, value]) => within(failed, value) || within(value, failed))?.[0];
}

/**
 * A database failure the operator fixes (a full disk, a read-only or damaged file), in the one line the server logs for
 * it (src/http/request-failure.ts): an operator's review filled the disk and `npm run import` printed a stack trace.
 */
function databaseCause(error: unknown): string | undefined {
  try {
    return operatorCause(error, config().databasePath);
  } catch {
    return undefined;
  }
}

/**
 * For the commands that take no argument: an option an operator guessed (`npm run retention -- --dry-run`) is refused
 * before anything runs, rather than ignored while the command does what the option was meant to prevent.
 */
export function noArguments(usage: string): void {
  const extra = process.argv[2];
  if (extra !== undefined) throw new CliError(`Unexpected argument '${extra}': this command takes none\nusage: ${usage}`);
}

/**
 * The command's options (node:util parseArgs, strict), each at most once: parseArgs keeps the last of an option given
 * twice, so `--org a --org b` exported b's registrations alone without a word (a review). Refused with the usage.
 */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(options: T, usage: string) {
  return parseCommandLine(options, usage, 0).values;
}

/**
 * parseOptions for a command that also takes `positionals` arguments (import's FILE), exactly that many. Anything
 * starting with `-` that is not one of its options is refused, never taken as an argument: `npm run import -- --help`
 * was read as a file named "--help".
 */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig['options']>>(options: T, usage: string, positionals: number) {
  let parsed: ReturnType<typeof parseArgs<{ options: T; strict: true; tokens: true; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ options, strict: true, tokens: true, allowPositionals: positionals > 0 });
  } catch (error) {
    // With positionals allowed, Node adds "place it at the end of the command after '--'": through npm that takes a
    // second '--' (npm eats the first), a hint that misleads more than it helps. The first sentence says it.
    const { code, message } = error as { code?: string; message: string };
    throw new CliError(`${code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? message.replace(/\. To specify a positional argument[\s\S]*$/, '') : message}\nusage: ${usage}`);
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    // An option that takes several (registrations' --remove) may repeat.
    if (token.kind !== 'option' || options[token.name]?.multiple === true) continue;
    if (seen.has(token.name)) throw new CliError(`--${token.name} is given twice: give it once\nusage: ${usage}`);
    seen.add(token.name);
  }
  if (parsed.positionals.length !== positionals) throw new CliError(`usage: ${usage}`);
  return parsed;
}

/** Runs `use` with the configured database, opened and migrated, and closes it after. */
export async function withDatabase<T>(
  use: (database: Database, config: Config) => Promise<T> | T,
  options: { create?: boolean } = {},
): Promise<T> {
  const cfg = config();
  // Only the commands that fill a database create one (start, migrate, import). The others, on a DATABASE_PATH with
  // a typo or run from another folder, would have made an empty database and worked on it: a regeneration then
  // removed every rendered read (and, publishing, every object of the bucket), an export listed nothing.
  if (!options.create && cfg.databasePath !== ':memory:' && !fs.existsSync(cfg.databasePath)) {
    throw new CliError(
      `DATABASE_PATH (${cfg.databasePath}): no database there; check DATABASE_PATH and the folder the command runs in ` +
        '(npm start, npm run migrate and npm run import create it)',
    );
  }
  const database = await openDatabase(cfg.databasePath);
  try {
    return await use(database, cfg);
  } finally {
    await database.close();
  }
}

/**
 * An export's `--output FILE` (registrations, rsvp), checked with the other options before the database is opened: a
 * name given empty is refused. A relative name is from the folder the command was typed in (npm runs the script in
 * the project folder and says where it was called from in INIT_CWD). Undefined: the export goes to stdout.
 */
export function outputFile(value: string | undefined, usage: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new CliError(`--output needs a file name\nusage: ${usage}`);
  return path.resolve(invocationDirectory(), value);
}

/**
 * Writes an export to its `--output` file. A file of its own, not stdout redirected: `npm run` prints its banner to
 * stdout, so `> regs.csv` put npm's lines before the byte-order mark and a spreadsheet read the Arabic as mojibake (a
 * review; `npm run --silent` avoids it, which nobody remembers). Written whole or not at all, readable by its owner
 * only: the exports name people, their addresses (registrations: children, their birth dates, their parents' phones).
 */
export function writeOutput(file: string, text: string): void {
  try {
    writeFileAtomic(file, text, { mode: 0o600, mkdir: false });
  } catch (error) {
    throw new CliError(`--output ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}: nothing written`);
  }
}
