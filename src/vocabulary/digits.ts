// The digits people type: ASCII, and the Arabic-Indic (U+0660–0669, Arabic keyboards) and Eastern Arabic-Indic
// (U+06F0–06F9, Persian and Urdu keyboards) digits, which are the same numbers.

/** A regular-expression class body matching one such digit. */
export const ANY_DIGIT = '0-9\\u0660-\\u0669\\u06F0-\\u06F9';

/** Those digits as the ASCII digits they are: a phone number typed in Arabic is a phone number, and is kept in ASCII. */
export function asciiDigits(s: string): string {
  return s.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - (d >= '\u06F0' ? 0x06f0 : 0x0660)));
}
