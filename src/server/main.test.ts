import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { operatorCause } from './main.js';

/** A real SqliteError with the given code, as better-sqlite3 throws it. */
function sqliteError(code: string, message: string): Error {
  return new (Database.SqliteError as unknown as new (message: string, code: string) => Error)(message, code);
}

describe('operatorCause', () => {
  it.each([
    [sqliteError('SQLITE_FULL', 'database or disk is full'), 'SQLITE_FULL database or disk is full (DATABASE_PATH /srv/app.db)'],
    [sqliteError('SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database'), 'SQLITE_READONLY_DBMOVED attempt to write a readonly database (DATABASE_PATH /srv/app.db)'],
    [sqliteError('SQLITE_IOERR_WRITE', 'disk I/O error'), 'SQLITE_IOERR_WRITE disk I/O error (DATABASE_PATH /srv/app.db)'],
    // Anything else keeps its stack trace: it is ours to fix.
    [sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed'), undefined],
    [new TypeError('x is undefined'), undefined],
    [Object.assign(new Error('no space'), { code: 'ENOSPC' }), undefined],
    [null, undefined],
  ])('%s', (error, line) => {
    expect(operatorCause(error, '/srv/app.db')).toBe(line);
  });
});
