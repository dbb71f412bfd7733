import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { operatorCause, requestFailureLine, retryAfterOf } from './request-failure.js';

/** A real SqliteError with the given code, as better-sqlite3 throws it. */
function sqliteError(code: string, message: string): Error {
  return new (Database.SqliteError as unknown as new (message: string, code: string) => Error)(message, code);
}

describe('operatorCause', () => {
  it.each([
    [sqliteError('SQLITE_FULL', 'database or disk is full'), 'SQLITE_FULL database or disk is full (DATABASE_PATH /srv/app.db: the disk holding it is full: free space there)'],
    [sqliteError('SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database'), /^SQLITE_READONLY_DBMOVED attempt to write a readonly database \(DATABASE_PATH \/srv\/app\.db: it cannot be written/],
    [sqliteError('SQLITE_IOERR_WRITE', 'disk I/O error'), /^SQLITE_IOERR_WRITE disk I\/O error \(DATABASE_PATH \/srv\/app\.db: the disk/],
    [sqliteError('SQLITE_BUSY', 'database is locked'), /^SQLITE_BUSY database is locked \(DATABASE_PATH \/srv\/app\.db: another process held it locked/],
    [sqliteError('SQLITE_CORRUPT', 'database disk image is malformed'), /restore the last backup\)$/],
    // Anything else is ours to fix.
    [sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed'), undefined],
    [new TypeError('x is undefined'), undefined],
    [Object.assign(new Error('no space'), { code: 'ENOSPC' }), undefined],
    [null, undefined],
  ])('%s', (error, line) => {
    const cause = operatorCause(error, '/srv/app.db');
    if (line instanceof RegExp) expect(cause).toMatch(line);
    else expect(cause).toBe(line);
  });
});

// A failure the operator fixes is a 503 (src/http/problem.ts failedRequest): a lock goes in seconds, the rest waits for
// someone to act; one of ours is the one 500 (no Retry-After).
describe('retryAfterOf', () => {
  it.each([
    ['SQLITE_BUSY', 30],
    ['SQLITE_BUSY_SNAPSHOT', 30],
    ['SQLITE_LOCKED', 30],
    ['SQLITE_FULL', 300],
    ['SQLITE_READONLY_DBMOVED', 300],
    ['SQLITE_IOERR_WRITE', 300],
    ['SQLITE_CANTOPEN', 300],
    ['SQLITE_CORRUPT', 300],
    ['SQLITE_CONSTRAINT_UNIQUE', undefined],
    ['SQLITE_ERROR', undefined],
    ['ENOSPC', undefined],
  ])('%s → %s', (code, seconds) => {
    expect(retryAfterOf(sqliteError(code, 'message'))).toBe(seconds);
  });

  it('is undefined for what is not an error with a code', () => {
    expect(retryAfterOf(new TypeError('x is undefined'))).toBeUndefined();
    expect(retryAfterOf(null)).toBeUndefined();
    expect(retryAfterOf('SQLITE_FULL')).toBeUndefined();
  });
});

describe('requestFailureLine', () => {
  it("is one line naming the operator's cause, without a stack, for a database failure theirs to fix", () => {
    const line = requestFailureLine(sqliteError('SQLITE_FULL', 'database or disk is full'), 'POST /api/v0/register', '/srv/app.db');
    expect(line).toBe('request failed: POST /api/v0/register: SQLITE_FULL database or disk is full (DATABASE_PATH /srv/app.db: the disk holding it is full: free space there)');
  });

  it('keeps the stack of an error of ours, folded into the one line', () => {
    const error = new TypeError('x is undefined\nsecond line');
    const line = requestFailureLine(error, 'GET /rsvp', '/srv/app.db');
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^request failed: GET \/rsvp: TypeError: x is undefined second line at .*request-failure\.test\.ts:\d+:\d+\)? <- at /);
  });
});
