// How a request that failed (the one 500) is logged, wherever it failed: an Astro endpoint or page, or a route the node
// server answers itself. One line per failure, as the README's Logs promise, and nothing private: the method and the
// path without its query (a confirmation link's token is in its query), never the body or the client's address.
// A review's full disk logged a nine-line stack trace for every write, naming no setting, through the endpoints'
// path, which never asked what the operator could do.

/**
 * What the operator does about each database failure that is theirs to fix, not ours: a full disk, a file made
 * read-only, removed or damaged, a lock held too long by another process. Matched on the SQLite code's start, so that
 * extended codes (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, SQLITE_BUSY_SNAPSHOT) are found too. The request is
 * answered 503 with the entry's Retry-After (src/http/problem.ts failedRequest): nothing was recorded and nothing in the
 * request was wrong, so a client, a form's page or a fan's app, tries the same again later. A lock is gone in seconds;
 * the rest waits for someone to act.
 */
const OPERATOR_CAUSES: ReadonlyArray<readonly [RegExp, string, number]> = [
  [/^SQLITE_FULL/, 'the disk holding it is full: free space there', 300],
  [/^SQLITE_READONLY/, 'it cannot be written: a read-only file, folder or file system, or its files moved or replaced', 300],
  // Not "past the 10 s wait": a request waits that long (src/db/group-commit.ts), a job or the mail worker only tries again.
  [/^SQLITE_(BUSY|LOCKED)/, 'another process held it locked: a long import, retention or erasure, or a sqlite3 shell left inside a transaction (end it)', 30],
  [/^SQLITE_IOERR/, 'the disk or file system under it failed a read or a write', 300],
  [/^SQLITE_CANTOPEN/, 'it, its -wal or -shm file, or its folder cannot be opened: removed, moved or its permissions changed', 300],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'it is damaged: stop the server and restore the last backup', 300],
];

function causeOf(error: unknown): (typeof OPERATOR_CAUSES)[number] | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  return OPERATOR_CAUSES.find(([pattern]) => pattern.test(code));
}

/**
 * The one line for a database failure the operator fixes outside the code, naming DATABASE_PATH and what to do;
 * undefined for anything else.
 */
export function operatorCause(error: unknown, databasePath: string): string | undefined {
  const found = causeOf(error);
  if (!found) return undefined;
  const message = error instanceof Error ? error.message : String(error);
  return `${(error as { code: string }).code} ${oneLine(message)} (DATABASE_PATH ${databasePath}: ${found[1]})`;
}

/** Seconds a client should wait before trying again after a failure the operator fixes; undefined for one of ours. */
export function retryAfterOf(error: unknown): number | undefined {
  return causeOf(error)?.[2];
}

/** Error messages are ours or SQLite's, but a line is a line: newlines folded, length bounded. */
function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Anything else is ours to fix (a programming error, a constraint a service did not expect): its stack is what a
 * developer needs to find it, so its frames stay, folded into the same line (`<-` between frames) so that a log
 * pipeline or the journal still sees one event.
 */
function developerCause(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error));
  const head = `${error.name}: ${oneLine(error.message)}`;
  const frames = (error.stack ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('at '));
  return frames.length > 0 ? `${head} ${frames.join(' <- ')}` : head;
}

/** The line: `request failed: POST /api/v0/register: <cause>`. `where` is the method and the path, without query. */
export function requestFailureLine(error: unknown, where: string, databasePath: string): string {
  return `request failed: ${where}: ${operatorCause(error, databasePath) ?? developerCause(error)}`;
}

export function logRequestFailure(error: unknown, where: string, databasePath: string): void {
  console.error(requestFailureLine(error, where, databasePath));
}
