// Dates in emails, spelled out in words (UTC), the same on every Node version: no Intl data involved.
import type { Language } from '../../vocabulary/language.js';

const EN_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const AR_DAYS = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'];
const AR_MONTHS = ['يناير', 'فبراير', 'مارس', 'أبريل', 'مايو', 'يونيو', 'يوليو', 'أغسطس', 'سبتمبر', 'أكتوبر', 'نوفمبر', 'ديسمبر'];

function parseInstant(value: string | null): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `Saturday 7 March 2026, 18:30 UTC` / `السبت 7 مارس 2026، الساعة 18:30 (UTC)`. */
export function formatKickoff(value: string | null, language: Language): string | null {
  const d = parseInstant(value);
  if (!d) return null;
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return language === 'ar'
    ? `${AR_DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${AR_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}، الساعة ${hm} (UTC)`
    : `${EN_DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${EN_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hm} UTC`;
}

export function shortDate(value: string | null, language: Language): string | null {
  const d = parseInstant(value);
  if (!d) return null;
  return language === 'ar'
    ? `${d.getUTCDate()} ${AR_MONTHS[d.getUTCMonth()]}`
    : `${d.getUTCDate()} ${EN_MONTHS[d.getUTCMonth()]!.slice(0, 3)}`;
}

