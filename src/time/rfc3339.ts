// Dates and date-times as people type them, checked to name a real day or moment. JavaScript's Date rolls an
// impossible day over (2026-09-31 becomes 1 October, 2026-02-30 2 March) and only refuses month 13 or hour 25, so a
// typo would be taken as another day: the import's kickoffs, `--since` and a date of birth all refuse it instead.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** RFC 3339 date-time with its offset (`T` and `Z` in either case, as RFC 3339 5.6 allows); seconds optional. */
const INSTANT = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** `date` as the service writes every instant: RFC 3339 in UTC with `Z`, whole seconds (`2026-03-07T18:30:00Z`). */
export function utcInstant(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `YYYY-MM-DD` naming a day of the calendar. */
export function isRealDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** An RFC 3339 date-time with its offset naming a real moment: a real day, hours to 23, minutes and seconds to 59. */
export function isRealInstant(value: string): boolean {
  const m = INSTANT.exec(value);
  if (!m || !isRealDay(m[1]!)) return false;
  const [hour, minute, second, offsetHour, offsetMinute] = m.slice(2).map((n) => Number(n ?? 0)) as [number, number, number, number, number];
  return hour <= 23 && minute <= 59 && second <= 59 && offsetHour <= 23 && offsetMinute <= 59;
}
