// Local times, table by table: zones with and without daylight saving, both languages, the day boundary.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { arabicDateTimes, canonicalTimeZone, formatDateTime, formatDay, formatShortDay, isTimeZone, latestLocalHour, localDate, localInstant, localParts, utcOffset, zonedInstant } from './local-time.js';

describe('formatDateTime', () => {
  it.each([
    ['2026-03-07T07:00:00Z', 'Asia/Amman', 'en', 'Saturday 7 March 2026, 10:00 GMT+3'],
    // Jordan names the months as the Levant does (a native Arabic review); Riyadh and Cairo as CLDR's Arabic does.
    ['2026-03-07T07:00:00Z', 'Asia/Amman', 'ar', 'السبت 7 آذار 2026، الساعة 10:00 (GMT+3)'],
    ['2026-11-07T07:00:00Z', 'Asia/Amman', 'ar', 'السبت 7 تشرين الثاني 2026، الساعة 10:00 (GMT+3)'],
    ['2026-03-07T07:00:00Z', 'Asia/Riyadh', 'ar', 'السبت 7 مارس 2026، الساعة 10:00 (GMT+3)'],
    ['2026-01-15T07:00:00Z', 'Africa/Tunis', 'ar', 'الخميس 15 جانفي 2026، الساعة 08:00 (GMT+1)'],
    ['2026-03-07T18:30:00Z', 'UTC', 'en', 'Saturday 7 March 2026, 18:30 UTC'],
    ['2026-03-07T18:30:00Z', 'UTC', 'ar', 'السبت 7 مارس 2026، الساعة 18:30 (UTC)'],
    // British Summer Time as a London club's parents name it, not ICU's American "GMT+1".
    ['2026-07-04T14:00:00Z', 'Europe/London', 'en', 'Saturday 4 July 2026, 15:00 BST'],
    ['2026-07-04T14:00:00Z', 'Europe/Paris', 'en', 'Saturday 4 July 2026, 16:00 CEST'],
    ['2026-07-04T14:00:00Z', 'America/New_York', 'en', 'Saturday 4 July 2026, 10:00 EDT'],
    ['2026-07-04T14:00:00Z', 'Europe/Dublin', 'en', 'Saturday 4 July 2026, 15:00 GMT+1'],
    ['2026-07-04T14:00:00Z', 'Africa/Cairo', 'en', 'Saturday 4 July 2026, 17:00 EEST'],
    // An Arabic reader keeps the offset.
    ['2026-07-04T14:00:00Z', 'Africa/Cairo', 'ar', 'السبت 4 يوليو 2026، الساعة 17:00 (GMT+3)'],
    ['2026-01-10T14:00:00Z', 'Europe/London', 'en', 'Saturday 10 January 2026, 14:00 GMT'],
    ['2026-01-10T23:30:00Z', 'America/New_York', 'en', 'Saturday 10 January 2026, 18:30 EST'],
    ['2026-03-07T22:30:00Z', 'Asia/Amman', 'en', 'Sunday 8 March 2026, 01:30 GMT+3'],
    // A time review: where American and British English have no name, the English of the place has one.
    ['2026-01-10T02:00:00Z', 'Pacific/Auckland', 'en', 'Saturday 10 January 2026, 15:00 NZDT'],
    ['2026-07-04T14:00:00Z', 'America/St_Johns', 'en', 'Saturday 4 July 2026, 11:30 NDT'],
    ['2026-01-10T14:00:00Z', 'America/St_Johns', 'en', 'Saturday 10 January 2026, 10:30 NST'],
    ['2026-01-10T14:00:00Z', 'Asia/Kolkata', 'en', 'Saturday 10 January 2026, 19:30 IST'],
    ['2026-01-10T14:00:00Z', 'Australia/Sydney', 'en', 'Sunday 11 January 2026, 01:00 AEDT'],
    ['2026-01-10T14:00:00Z', 'Africa/Johannesburg', 'en', 'Saturday 10 January 2026, 16:00 SAST'],
    ['2026-01-10T14:00:00Z', 'Asia/Kathmandu', 'en', 'Saturday 10 January 2026, 19:45 GMT+5:45'],
  ] as const)('%s in %s (%s) reads "%s"', (instant, zone, language, expected) => {
    expect(formatDateTime(instant, zone, language)).toBe(expected);
  });

  it('is null for no time or a time that cannot be read', () => {
    expect(formatDateTime(null, 'UTC', 'en')).toBeNull();
    expect(formatDateTime('not a time', 'UTC', 'en')).toBeNull();
  });
});

describe('formatDay', () => {
  it.each([
    ['2014-05-06', 'UTC', 'en', '6 May 2014'],
    ['2014-05-06', 'Asia/Amman', 'en', '6 May 2014'],
    ['2014-05-06', 'Africa/Cairo', 'ar', '6 مايو 2014'],
    ['2014-05-06', 'Asia/Amman', 'ar', '6 أيار 2014'],
    ['2012-02-29', 'UTC', 'en', '29 February 2012'],
    // Not a day: the caller shows what it has.
    ['2013-02-29', 'UTC', 'en', null],
    ['2014-5-6', 'UTC', 'en', null],
    ['2014-05-06T00:00:00Z', 'UTC', 'en', null],
  ] as const)('%s in %s (%s) → %s', (day, zone, language, expected) => {
    expect(formatDay(day, zone, language)).toBe(expected);
  });
});

describe('days, times and zones', () => {
  it.each([
    [formatShortDay('2026-03-07T22:30:00Z', 'Asia/Amman', 'en'), '8 Mar'],
    [formatShortDay('2026-03-07T10:00:00Z', 'UTC', 'ar'), '7 مارس'],
    [formatShortDay('2026-03-07T10:00:00Z', 'Asia/Beirut', 'ar'), '7 آذار'],
    // Ten months or more from when it is sent, the year too: "7 Mar" alone reads as the coming 7 March.
    [formatShortDay('2027-03-07T10:00:00Z', 'UTC', 'en', new Date('2026-11-27T10:00:00Z')), '7 Mar'],
    [formatShortDay('2027-09-20T10:00:00Z', 'UTC', 'en', new Date('2026-11-27T10:00:00Z')), '20 Sep'],
    [formatShortDay('2027-09-23T10:00:00Z', 'UTC', 'en', new Date('2026-11-27T10:00:00Z')), '23 Sep 2027'],
    [formatShortDay('2027-11-27T10:00:00Z', 'UTC', 'en', new Date('2026-11-27T10:00:00Z')), '27 Nov 2027'],
    [formatShortDay('2027-11-27T10:00:00Z', 'Asia/Amman', 'ar', new Date('2026-11-27T10:00:00Z')), '27 تشرين الثاني 2027'],
    [formatShortDay('2027-11-27T10:00:00Z', 'UTC', 'en'), '27 Nov'],
    [localDate(new Date('2026-03-07T22:30:00Z'), 'Asia/Amman'), '2026-03-08'],
    [localDate(new Date('2026-03-07T22:30:00Z'), 'America/New_York'), '2026-03-07'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('gives the local hour (what a digest at 08:00 local time needs)', () => {
    expect(localParts(new Date('2026-11-23T05:00:00Z'), 'Asia/Amman')).toMatchObject({ hour: 8, minute: 0, weekday: 1, zone: 'GMT+3' });
  });

  it.each([
    ['UTC', true],
    ['Asia/Amman', true],
    ['Europe/London', true],
    ['Mars/Olympus_Mons', false],
    ['', false],
  ])('knows whether %s is a time zone', (name, expected) => {
    expect(isTimeZone(name)).toBe(expected);
  });
});

describe('zonedInstant and latestLocalHour', () => {
  it.each([
    ['2026-03-07', 18, 'UTC', '2026-03-07T18:00:00.000Z'],
    ['2026-03-07', 18, 'Asia/Amman', '2026-03-07T15:00:00.000Z'],
    ['2026-07-01', 8, 'Europe/London', '2026-07-01T07:00:00.000Z'],
    ['2026-12-01', 8, 'Europe/London', '2026-12-01T08:00:00.000Z'],
    ['2026-03-29', 8, 'Europe/London', '2026-03-29T07:00:00.000Z'],
    ['2026-12-01', 8, 'America/New_York', '2026-12-01T13:00:00.000Z'],
  ])('%s %i:00 in %s is %s', (day, hour, zone, iso) => {
    expect(zonedInstant(day, hour, zone).toISOString()).toBe(iso);
  });

  it.each([
    ['2026-03-07T16:00:00Z', 18, 'Asia/Amman', '2026-03-07T15:00:00.000Z'],
    ['2026-03-07T14:59:59Z', 18, 'Asia/Amman', '2026-03-06T15:00:00.000Z'],
    ['2026-03-07T23:30:00Z', 1, 'Asia/Amman', '2026-03-07T22:00:00.000Z'],
  ])('at %s, the latest %i:00 in %s was %s', (now, hour, zone, iso) => {
    expect(latestLocalHour(new Date(now), hour, zone).toISOString()).toBe(iso);
  });
});

describe('utcOffset and localInstant', () => {
  it.each([
    ['2026-11-27T06:19:45.015Z', 'Asia/Amman', '+03:00', '2026-11-27T09:19:45+03:00'],
    ['2026-11-26T22:30:00Z', 'Asia/Amman', '+03:00', '2026-11-27T01:30:00+03:00'],
    ['2026-12-20T14:00:00Z', 'Europe/London', '+00:00', '2026-12-20T14:00:00+00:00'],
    ['2026-10-18T14:00:00Z', 'Europe/London', '+01:00', '2026-10-18T15:00:00+01:00'],
    ['2026-12-01T03:59:59Z', 'America/New_York', '-05:00', '2026-11-30T22:59:59-05:00'],
    ['2026-07-01T12:00:00Z', 'Asia/Kolkata', '+05:30', '2026-07-01T17:30:00+05:30'],
    ['2026-07-01T12:00:00Z', 'America/St_Johns', '-02:30', '2026-07-01T09:30:00-02:30'],
    ['2026-07-01T12:00:00Z', 'UTC', '+00:00', '2026-07-01T12:00:00+00:00'],
  ])('%s in %s: offset %s, %s', (instant, zone, offset, local) => {
    expect(utcOffset(new Date(instant), zone)).toBe(offset);
    expect(localInstant(new Date(instant), zone)).toBe(local);
  });
});

// A time review: ICU's canonical ids are CLDR's, which keep names IANA has replaced (Europe/Kiev for Europe/Kyiv).
describe('canonicalTimeZone', () => {
  it.each([
    ['asia/amman', 'Asia/Amman'],
    ['EUROPE/LONDON', 'Europe/London'],
    ['GMT', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['US/Eastern', 'America/New_York'],
    ['europe/kyiv', 'Europe/Kyiv'],
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['Asia/Kathmandu', 'Asia/Kathmandu'],
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Pacific/Enderbury', 'Pacific/Kanton'],
  ])('%s is %s', (name, canonical) => {
    expect(canonicalTimeZone(name)).toBe(canonical);
  });

  // Every zone IANA names (a tzdata.zi "Z" line) is kept as IANA spells it. POSIX-style names (EST5EDT) and Etc/ are
  // links in IANA's main data; Factory is no place. Where the host has no tzdata, the table above still runs.
  const tzdata = '/usr/share/zoneinfo/tzdata.zi';
  it.skipIf(!fs.existsSync(tzdata))('keeps each zone of the host\'s tzdata.zi under its IANA name', () => {
    const zones = fs.readFileSync(tzdata, 'utf8').split('\n').filter((l) => l.startsWith('Z ')).map((l) => l.split(' ')[1] as string)
      .filter((z) => z.includes('/') && !z.startsWith('Etc/'));
    expect(zones.length).toBeGreaterThan(300);
    const renamed = zones.filter((z) => isTimeZone(z) && canonicalTimeZone(z) !== z).map((z) => `${z} → ${canonicalTimeZone(z)}`);
    expect(renamed).toEqual([]);
  });
});

// A time review: the hour the clocks go back shows twice, and the Arabic page of an English message named the other one.
describe('arabicDateTimes', () => {
  it.each([
    ['Africa/Cairo', '2026-10-29T20:30:00Z'],
    ['Africa/Cairo', '2026-10-29T21:30:00Z'],
    ['Europe/London', '2026-10-25T00:30:00Z'],
    ['Europe/London', '2026-10-25T01:30:00Z'],
    ['America/St_Johns', '2026-11-01T04:00:00Z'],
    ['America/St_Johns', '2026-11-01T05:00:00Z'],
    ['Asia/Amman', '2026-12-05T15:00:00Z'],
  ])('in %s, %s reads in Arabic as the instant the English names', (zone, at) => {
    const english = formatDateTime(at, zone, 'en')!;
    expect(arabicDateTimes(`stopped taking registrations on ${english}`, zone)).toBe(`stopped taking registrations on ${formatDateTime(at, zone, 'ar')}`);
  });
});
