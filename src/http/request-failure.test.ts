import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { operatorCause, requestFailureLine } from './request-failure.js';

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
