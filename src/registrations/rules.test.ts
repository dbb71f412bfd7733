import { describe, expect, it } from 'vitest';
import { localDate } from '../time/local-time.js';
import { ageOn, dateOfBirthProblem, guardianProblems, windowProblem } from './rules.js';

describe('ageOn', () => {
  it.each([
    ['2014-03-10', '2026-03-09', 11],
    ['2014-03-10', '2026-03-10', 12],
    ['2014-03-10', '2026-12-31', 12],
    ['2012-02-29', '2026-02-28', 13],
    ['2012-02-29', '2026-03-01', 14],
    ['2012-02-29', '2028-02-29', 16],
    ['2026-01-01', '2026-01-01', 0],
  ])('born %s, on %s: %i', (dob, day, age) => {
    expect(ageOn(dob, day)).toBe(age);
  });
});

describe('windowProblem', () => {
  const now = new Date('2026-09-01T12:00:00Z');
  it.each([
    [{ opens_at: null, closes_at: null }, null],
    [{ opens_at: '2026-08-01T00:00:00Z', closes_at: '2026-10-01T00:00:00Z' }, null],
    [{ opens_at: '2026-09-01T12:00:00Z', closes_at: null }, null],
    [{ opens_at: '2026-09-01T12:00:01Z', closes_at: null }, 'takes registrations from Tuesday 1 September 2026, 15:00 GMT+3'],
    [{ opens_at: null, closes_at: '2026-09-01T12:00:00Z' }, 'stopped taking registrations at Tuesday 1 September 2026, 15:00 GMT+3'],
    // Midnight UTC is already the next day in Amman: the parent reads the organization's day and hour.
    [{ opens_at: null, closes_at: '2026-08-31T23:30:00Z' }, 'stopped taking registrations at Tuesday 1 September 2026, 02:30 GMT+3'],
    [{ opens_at: null, closes_at: '2026-09-01T12:00:01Z' }, null],
  ])('%o → %s', (terms, message) => {
    const problem = windowProblem(terms, now, 'Asia/Amman');
    expect(problem?.message ?? null).toBe(message);
    if (problem) expect(problem.field).toBe('division_id');
  });
});

describe('guardianProblems', () => {
  const day = '2026-09-01';
  const guardian = { guardian_name: 'Rana', guardian_phone: '+962 7 9000 0000' };
  it.each([
    ['no rule', {}, null, []],
    ['rule, no date of birth', {}, 16, ['date_of_birth']],
    ['under age, no guardian', { date_of_birth: '2014-01-01' }, 16, ['guardian_name', 'guardian_phone']],
    ['under age, name only', { date_of_birth: '2014-01-01', guardian_name: 'Rana' }, 16, ['guardian_phone']],
    ['under age, guardian given', { date_of_birth: '2014-01-01', ...guardian }, 16, []],
    ['16 today', { date_of_birth: '2010-09-01' }, 16, []],
    ['16 tomorrow', { date_of_birth: '2010-09-02' }, 16, ['guardian_name', 'guardian_phone']],
    ['adult', { date_of_birth: '1990-05-05' }, 18, []],
  ])('%s', (_label, facts, under, fields) => {
    expect(guardianProblems(facts, under, day).map((p) => p.field)).toEqual(fields);
  });
});

describe('dateOfBirthProblem: from 1900-01-01 to the registration day in the organization\'s time zone', () => {
  const RANGE = 'must be between 1900-01-01 and today';
  it.each([
    // Born today in Amman (UTC+3) at 01:00, registered at 01:30 there: still 25 November in UTC.
    ['Asia/Amman', '2026-11-25T22:30:00Z', '2026-11-26', null],
    ['Asia/Amman', '2026-11-25T22:30:00Z', '2026-11-27', RANGE],
    ['Asia/Amman', '2026-11-25T20:59:59Z', '2026-11-26', RANGE], // 23:59:59 on the 25th there
    ['Asia/Amman', '2026-11-25T21:00:00Z', '2026-11-26', null], // midnight there
    // 22:00 on 25 November in New York: already the 26th in UTC, not yet there.
    ['America/New_York', '2026-11-26T03:00:00Z', '2026-11-26', RANGE],
    ['America/New_York', '2026-11-26T03:00:00Z', '2026-11-25', null],
    ['Pacific/Kiritimati', '2026-11-25T10:00:00Z', '2026-11-26', null], // UTC+14
    ['UTC', '2026-11-26T00:00:00Z', '2026-11-26', null],
    ['UTC', '2026-11-25T23:59:59Z', '2026-11-26', RANGE],
    ['UTC', '2026-11-26T12:00:00Z', '1900-01-01', null],
    ['UTC', '2026-11-26T12:00:00Z', '1899-12-31', RANGE],
    ['UTC', '2026-11-26T12:00:00Z', undefined, null],
  ])('in %s at %s, born %s: %s', (timezone, at, dateOfBirth, message) => {
    const problem = dateOfBirthProblem(dateOfBirth, localDate(new Date(at), timezone));
    expect(problem).toEqual(message === null ? null : { field: 'date_of_birth', message });
  });
});
