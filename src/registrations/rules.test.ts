import { describe, expect, it } from 'vitest';
import { localDate } from '../time/local-time.js';
import {
  ageOn, birthDaysProblem, blankDivisionProblem, dateOfBirthProblem, DIVISION_REQUIRED, divisionsThatFit, guardianProblems, isOutsideBirthDays,
  registrationProblems, windowProblem,
} from './rules.js';

// A form's division list left on its blank entry sent the registration past every rule of the organization's divisions.
describe('blankDivisionProblem', () => {
  it.each([
    ['sent blank, the organization with divisions: refused', null, true, { field: 'division_id', message: DIVISION_REQUIRED }],
    ['sent blank, the organization without divisions: taken without one', null, false, null],
    ['absent (a form with no division list), the organization with divisions: taken without one', undefined, true, null],
    ['named (its own checks decide)', 'u12', true, null],
  ] as const)('%s', (_label, divisionId, hasDivisions, expected) => {
    expect(blankDivisionProblem(divisionId, hasDivisions)).toEqual(expected);
  });
});

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
    [{ opens_at: null, closes_at: '2026-09-01T12:00:00Z' }, 'stopped taking registrations on Tuesday 1 September 2026, 15:00 GMT+3'],
    // Midnight UTC is already the next day in Amman: the parent reads the organization's day and hour.
    [{ opens_at: null, closes_at: '2026-08-31T23:30:00Z' }, 'stopped taking registrations on Tuesday 1 September 2026, 02:30 GMT+3'],
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

  // A field the request schema refused has its own error: the rule does not say it is missing too.
  it.each([
    ['date of birth refused: no age, nothing asked', {}, ['date_of_birth'], []],
    ['guardian phone refused', { date_of_birth: '2014-01-01', guardian_name: 'Rana' }, ['guardian_phone'], []],
    ['guardian name refused, no phone', { date_of_birth: '2014-01-01' }, ['guardian_name'], ['guardian_phone']],
    ['an adult: nothing to ask whatever was refused', { date_of_birth: '1990-05-05' }, ['guardian_name'], []],
  ])('%s', (_label, facts, refused, fields) => {
    expect(guardianProblems(facts, 16, day, new Set(refused)).map((p) => p.field)).toEqual(fields);
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

// The days a division's players are born between, both included: each bound alone and both.
describe('birthDaysProblem', () => {
  const from = { born_from: '2014-09-01', born_until: null };
  const until = { born_from: null, born_until: '2010-12-31' };
  const both = { born_from: '2015-01-01', born_until: '2015-12-31' };
  it.each([
    [{ born_from: null, born_until: null }, undefined, null],
    [{ born_from: null, born_until: null }, '1990-01-01', null],
    [from, '2014-09-01', null],
    [from, '2014-08-31', 'must be on or after 2014-09-01 for this division'],
    [from, undefined, 'is required: the division takes players born on or after 2014-09-01'],
    [until, '2010-12-31', null],
    [until, '2011-01-01', 'must be on or before 2010-12-31 for this division'],
    [both, '2015-06-15', null],
    [both, '2014-12-31', 'must be from 2015-01-01 to 2015-12-31 for this division'],
    [both, '2016-01-01', 'must be from 2015-01-01 to 2015-12-31 for this division'],
    [both, undefined, 'is required: the division takes players born from 2015-01-01 to 2015-12-31'],
  ])('%o, born %s: %s', (terms, dateOfBirth, message) => {
    expect(birthDaysProblem(dateOfBirth, terms)).toEqual(message === null ? null : { field: 'date_of_birth', message });
  });

  it('says nothing of a date of birth the schema refused', () => {
    expect(birthDaysProblem(undefined, both, new Set(['date_of_birth']))).toBeNull();
  });
});

// The divisions a refused date of birth fits: their days set and holding it, their window open.
describe('divisionsThatFit', () => {
  const now = new Date('2026-09-01T12:00:00Z');
  const open = { opens_at: null, closes_at: null, guardian_required_under: null, born_from: null, born_until: null };
  const divisions = [
    { ...open, id: 'no-days' },
    { ...open, id: 'u12', born_from: '2015-01-01' },
    { ...open, id: 'u14', born_from: '2013-01-01', born_until: '2014-12-31' },
    { ...open, id: 'u16', born_from: '2011-01-01', born_until: '2012-12-31' },
    { ...open, id: 'u16-closed', born_from: '2011-01-01', born_until: '2012-12-31', closes_at: '2026-08-01T00:00:00Z' },
    { ...open, id: 'u16-later', born_from: '2011-01-01', born_until: '2012-12-31', opens_at: '2026-10-01T00:00:00Z' },
    { ...open, id: 'veterans', born_until: '1991-12-31' },
  ];
  it.each([
    ['2016-03-01', ['u12']],
    ['2014-12-31', ['u14']],
    ['2013-01-01', ['u14']],
    ['2012-06-15', ['u16']],
    ['2010-12-31', []],
    ['1991-12-31', ['veterans']],
    ['1992-01-01', []],
  ])('born %s: %o', (dateOfBirth, ids) => {
    expect(divisionsThatFit(dateOfBirth, divisions, now).map((d) => d.id)).toEqual(ids);
  });

  it('tells the refusal it offers them for, and no other message', () => {
    const refused = birthDaysProblem('2010-01-01', { born_from: '2015-01-01', born_until: '2015-12-31' })!;
    expect(isOutsideBirthDays(refused.message)).toBe(true);
    expect(isOutsideBirthDays(birthDaysProblem(undefined, { born_from: '2015-01-01', born_until: null })!.message)).toBe(false);
    expect(isOutsideBirthDays(dateOfBirthProblem('1850-01-01', '2026-09-01')!.message)).toBe(false);
  });
});

// Every problem at once: a parent without script met them one round at a time (the email, then "date of birth is
// required", then the guardian fields).
describe('registrationProblems: the date of birth, the window and the guardian rule together', () => {
  const now = new Date('2026-09-01T12:00:00Z');
  const open = { opens_at: null, closes_at: null, guardian_required_under: 18, born_from: null, born_until: null };
  const underTwelve = { ...open, born_from: '2015-01-01' };
  const closed = { ...open, closes_at: '2026-08-01T00:00:00Z' };
  const guardian = { guardian_name: 'Rana', guardian_phone: '+962 7 9000 0000' };
  it.each([
    ['no division: the date of birth only', {}, null, [], []],
    ['no division, born tomorrow', { date_of_birth: '2026-09-02' }, null, [], ['date_of_birth']],
    ['a minor without a guardian', { date_of_birth: '2014-05-01' }, open, [], ['guardian_name', 'guardian_phone']],
    ['closed, and a minor without a guardian', { date_of_birth: '2014-05-01' }, closed, [], ['division_id', 'guardian_name', 'guardian_phone']],
    ['closed, no date of birth', {}, closed, [], ['division_id', 'date_of_birth']],
    ['closed, a minor with a guardian', { date_of_birth: '2014-05-01', ...guardian }, closed, [], ['division_id']],
    // A date of birth out of range tells no age: the guardian rule waits for a real one.
    ['born in 1850, closed', { date_of_birth: '1850-01-01' }, closed, [], ['date_of_birth', 'division_id']],
    // The schema refused these fields (its errors name them): only the rest is said.
    ['the date of birth refused', {}, closed, ['date_of_birth'], ['division_id']],
    ['the guardian phone refused', { date_of_birth: '2014-05-01', guardian_name: 'Rana' }, open, ['guardian_phone'], []],
    ['an open division, an adult', { date_of_birth: '1990-05-05' }, open, [], []],
    // The division's birth days, beside the guardian rule: a missing date of birth is said once.
    ['under 12, no date of birth', {}, underTwelve, [], ['date_of_birth']],
    ['under 12, born too early, no guardian', { date_of_birth: '2014-12-31' }, underTwelve, [], ['date_of_birth', 'guardian_name', 'guardian_phone']],
    ['under 12, born in time, with a guardian', { date_of_birth: '2015-01-01', ...guardian }, underTwelve, [], []],
    ['under 12, closed, born too early', { date_of_birth: '2014-12-31', ...guardian }, { ...underTwelve, closes_at: '2026-08-01T00:00:00Z' }, [], ['date_of_birth', 'division_id']],
    ['under 12, the date of birth refused', {}, underTwelve, ['date_of_birth'], []],
    // A date of birth out of range is said once, as out of range: not again as outside the division's days, and it
    // tells no age for the guardian rule (born tomorrow is no minor without a guardian).
    ['under 12, born in 1850', { date_of_birth: '1850-01-01' }, underTwelve, [], ['date_of_birth']],
    ['under 12, born tomorrow', { date_of_birth: '2026-09-02' }, underTwelve, [], ['date_of_birth']],
  ])('%s', (_label, facts, terms, refused, fields) => {
    expect(registrationProblems(facts, terms, now, 'Asia/Amman', new Set(refused)).map((p) => p.field)).toEqual(fields);
  });
});
