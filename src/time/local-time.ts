// Times as people read them: in the organization's time zone (IANA, e.g. Asia/Amman), with the zone's
// abbreviation, in its language. Intl (Node's ICU) tells the local calendar fields and the zone's name; the words
// are ours, so that the same instant reads the same in every email and page, whatever the host's locale.
// JSON and iCalendar stay in UTC: only what a person reads is local (an organization's registrations export, which
// its organizers read in a spreadsheet, included: with its offset, localInstant).
import type { Language } from '../vocabulary/language.js';
import { isRealDay } from './rfc3339.js';

const EN_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const AR_DAYS = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'];
const AR_MONTHS = ['يناير', 'فبراير', 'مارس', 'أبريل', 'مايو', 'يونيو', 'يوليو', 'أغسطس', 'سبتمبر', 'أكتوبر', 'نوفمبر', 'ديسمبر'];

/**
 * The countries whose Arabic readers name the Gregorian months otherwise than AR_MONTHS, by their time zones: the
 * Levant and Iraq (كانون الثاني, تشرين الثاني: a native Arabic review read "نوفمبر" in a Jordanian club's emails as
 * Egyptian), Algeria and Tunisia (جانفي), Morocco (ماي, غشت). Their names are CLDR's, through Intl.
 */
const MONTHS_REGION: Readonly<Record<string, string>> = {
  'Asia/Amman': 'JO', 'Asia/Beirut': 'LB', 'Asia/Damascus': 'SY', 'Asia/Baghdad': 'IQ', 'Asia/Gaza': 'PS', 'Asia/Hebron': 'PS',
  'Africa/Algiers': 'DZ', 'Africa/Tunis': 'TN', 'Africa/Casablanca': 'MA',
};
const regionMonths = new Map<string, readonly string[]>();

/** The Arabic names of the months as readers in `timeZone` use them. */
function arabicMonths(timeZone: string | undefined): readonly string[] {
  const region = timeZone === undefined ? undefined : MONTHS_REGION[timeZone];
  if (region === undefined) return AR_MONTHS;
  let months = regionMonths.get(region);
  if (months === undefined) {
    const f = new Intl.DateTimeFormat(`ar-${region}`, { month: 'long', timeZone: 'UTC' });
    regionMonths.set(region, (months = AR_MONTHS.map((_, m) => f.format(Date.UTC(2026, m, 15)))));
  }
  return months;
}

/** Whether `name` is a time zone this Node knows (IANA names, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * ICU's canonical ids that IANA has renamed since (CLDR keeps the old ones stable), each with IANA's name: a time
 * review found a Ukrainian club's `Europe/Kyiv` published as `Europe/Kiev`, and Kathmandu's as `Asia/Katmandu`. The
 * entries are what Node 20's ICU (tz 2025) gives for every zone of IANA's tzdata.zi that it renames;
 * local-time.test.ts checks them against the host's tzdata.zi where it has one. Migration 0022 renamed stored ones.
 */
const IANA_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/**
 * A time zone's canonical name, as IANA spells it today (`asia/amman` → `Asia/Amman`, `Europe/Kiev` → `Europe/Kyiv`,
 * `GMT` → `UTC`); `name` must be one (isTimeZone).
 */
export function canonicalTimeZone(name: string): string {
  const icu = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  return IANA_NAMES[icu] ?? icu;
}

export interface LocalParts {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday */
  weekday: number;
  /** The zone's abbreviation at that instant: `UTC`, `GMT+3`, `BST`, `EST`… */
  zone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * The English of the places that name their zones otherwise than American English: British (`BST`, `CEST`), then
 * Australia's and New Zealand's (`AEDT`, `NZDT`), Canada's (Newfoundland's `NST`), India's (`IST`), South Africa's
 * (`SAST`, West and East Africa's `WAT`, `EAT`), Singapore's and Hong Kong's. A time review read an Auckland club's
 * emails in `GMT+13`, where its parents say NZDT.
 */
const ENGLISH_LOCALES = ['en-GB', 'en-AU', 'en-CA', 'en-IN', 'en-ZA', 'en-SG', 'en-HK'];
const abbreviators = new Map<string, Intl.DateTimeFormat[]>();
/** The zone's abbreviation in the first of ENGLISH_LOCALES that has one, or null where none has: the offset then. */
function englishAbbreviation(instant: Date, timeZone: string): string | null {
  let list = abbreviators.get(timeZone);
  if (!list) abbreviators.set(timeZone, (list = ENGLISH_LOCALES.map((l) => new Intl.DateTimeFormat(l, { timeZone, timeZoneName: 'short' }))));
  for (const f of list) {
    const name = f.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value;
    if (name !== undefined && /^[A-Z]{2,5}$/.test(name)) return name;
  }
  return null;
}

/**
 * The local calendar fields of an instant in a zone. Its `zone`: the abbreviation American English gives (`EST`),
 * else, for English readers, the first other English's (englishAbbreviation: `BST`, `NZDT`), else the offset (`GMT+3`).
 * Arabic readers keep the offset: `EEST` is no Arabic reader's name for Cairo's summer.
 */
export function localParts(instant: Date, timeZone: string, language: Language = 'en'): LocalParts {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(instant).map((p) => [p.type, p.value]));
  let zone = timeZone === 'UTC' || timeZone === 'Etc/UTC' ? 'UTC' : (parts.timeZoneName ?? timeZone);
  if (language === 'en' && /^GMT[+-]/.test(zone)) zone = englishAbbreviation(instant, timeZone) ?? zone;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
    zone,
  };
}

function parse(value: string | Date | null): Date | null {
  if (value === null) return null;
  const d = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? null : d;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `Saturday 7 March 2026, 10:00 GMT+3` / `السبت 7 مارس 2026، الساعة 10:00 (GMT+3)`. */
export function formatDateTime(value: string | Date | null, timeZone: string, language: Language): string | null {
  const d = parse(value);
  if (!d) return null;
  const p = localParts(d, timeZone, language);
  const hm = `${two(p.hour)}:${two(p.minute)}`;
  return language === 'ar' ? arabicDateTime(p.weekday, p.day, arabicMonths(timeZone)[p.month - 1]!, p.year, hm, p.zone) : `${EN_DAYS[p.weekday]} ${p.day} ${EN_MONTHS[p.month - 1]} ${p.year}, ${hm} ${p.zone}`;
}

function arabicDateTime(weekday: number, day: number | string, month: string, year: number | string, hm: string, zone: string): string {
  return `${AR_DAYS[weekday]} ${day} ${month} ${year}، الساعة ${hm} (${zone})`;
}

const ENGLISH_DATE_TIME = new RegExp(`\\b(${EN_DAYS.join('|')}) (\\d{1,2}) (${EN_MONTHS.join('|')}) (\\d{4}), (\\d{2}:\\d{2}) (\\S+)`, 'g');

/**
 * `text` with each date and time formatDateTime wrote in English written as it writes it in Arabic: for a message
 * the API gives in English ("stopped taking registrations on Tuesday 30 September 2025, 02:00 GMT+3") shown on an
 * Arabic organization's page. With the zone it was written in, the time is read back in it and written again, so that
 * it names the zone as Arabic readers do (the offset: English says "EEST" for Cairo's summer; a review).
 */
export function arabicDateTimes(text: string, timeZone?: string): string {
  return text.replace(ENGLISH_DATE_TIME, (all: string, weekday: string, day: string, month: string, year: string, hm: string, zone: string) => {
    const monthNumber = EN_MONTHS.indexOf(month) + 1;
    if (timeZone !== undefined && isTimeZone(timeZone)) {
      const [hour, minute] = hm.split(':').map(Number) as [number, number];
      const local = `${year}-${two(monthNumber)}-${two(Number(day))}`;
      const first = zonedInstant(local, hour, timeZone, minute).getTime();
      // The hour the clocks go back shows twice: the one whose zone name the English gave (a time review: Cairo's 23:30
      // EEST came out as the later 23:30, GMT+2, an hour off). Half-hour shifts too (Lord Howe).
      const written = all.replace(/[.,;:)]+$/u, '');
      const instant = [0, -3_600_000, 3_600_000, -1_800_000, 1_800_000].map((shift) => new Date(first + shift))
        .find((at) => formatDateTime(at, timeZone, 'en') === written) ?? new Date(first);
      return formatDateTime(instant, timeZone, 'ar')!;
    }
    return arabicDateTime(EN_DAYS.indexOf(weekday), day, arabicMonths(timeZone)[monthNumber - 1]!, year, hm, zone);
  });
}

/**
 * How far from `now` a day may be and still be named without its year: closer than this, "7 Mar" can only be the
 * nearest 7 March; a subject's "7 Mar" for a match eleven months away reads as the coming one.
 */
const YEARLESS_WITHIN_MS = 300 * 86_400_000;

/** `7 Mar` / `7 مارس`: for subjects; `7 Mar 2028` when it is not within ten months of `now` (no `now`: never). */
export function formatShortDay(value: string | Date | null, timeZone: string, language: Language, now?: Date): string | null {
  const d = parse(value);
  if (!d) return null;
  const p = localParts(d, timeZone);
  const year = now && Math.abs(d.getTime() - now.getTime()) >= YEARLESS_WITHIN_MS ? ` ${p.year}` : '';
  return language === 'ar' ? `${p.day} ${arabicMonths(timeZone)[p.month - 1]}${year}` : `${p.day} ${EN_MONTHS[p.month - 1]!.slice(0, 3)}${year}`;
}

/**
 * A calendar day (`YYYY-MM-DD`, no instant: a date of birth) in words: `6 May 2014` / `6 أيار 2014` (the months of
 * `timeZone`'s readers). An accessibility review heard a notice's `2014-05-06` read digit by digit, where every other
 * date of the email is in words. null for anything that is not such a day.
 */
export function formatDay(day: string, timeZone: string, language: Language): string | null {
  if (!isRealDay(day)) return null;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${(language === 'ar' ? arabicMonths(timeZone) : EN_MONTHS)[month - 1]} ${year}`;
}

/** The local date `YYYY-MM-DD` of an instant in a zone (a person's "today" there). */
export function localDate(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${p.year}-${two(p.month)}-${two(p.day)}`;
}

/** A zone's offset from UTC at an instant, as RFC 3339 writes it: `+03:00`, `-05:00`, `+00:00` (UTC included). */
export function utcOffset(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  const minutes = Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** An instant as RFC 3339 in a zone's local time with its offset, whole seconds: `2026-11-27T09:19:45+03:00`. */
export function localInstant(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  const seconds = two(instant.getUTCSeconds());
  return `${localDate(instant, timeZone)}T${two(p.hour)}:${two(p.minute)}:${seconds}${utcOffset(instant, timeZone)}`;
}

/** The instant at which the wall clock in `timeZone` reads `hour`:00 on the local day `day` (`YYYY-MM-DD`). */
export function zonedInstant(day: string, hour: number, timeZone: string, minute = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const wanted = Date.UTC(y, m - 1, d, hour, minute);
  // Start from the wall clock read as UTC, and correct by the zone's offset there (twice: an offset can change
  // between the guess and the answer, around a DST switch).
  let t = wanted;
  for (let i = 0; i < 2; i++) {
    const p = localParts(new Date(t), timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    t += wanted - shown;
  }
  return new Date(t);
}

/** The latest instant not after `now` at which the local clock read `hour`:00 (today's, or else yesterday's). */
export function latestLocalHour(now: Date, hour: number, timeZone: string): Date {
  const today = zonedInstant(localDate(now, timeZone), hour, timeZone);
  if (today.getTime() <= now.getTime()) return today;
  return zonedInstant(localDate(new Date(today.getTime() - 24 * 3600_000), timeZone), hour, timeZone);
}
