// Field rules shared by the request schemas: strings trimmed, empty optional strings count as absent,
// unknown fields ignored (zod strips them), messages written for the person filling the form.
import { z } from 'zod';
import { isRealDay } from '../time/rfc3339.js';
import { asciiDigits } from '../vocabulary/digits.js';
import { ID_PATTERN } from '../vocabulary/ids.js';
import { LANGUAGES } from '../vocabulary/language.js';
import { checkEmailAddress } from './email-address.js';

// Control characters other than tab and newline have no place in a name, an email or a phone number: C0 and C1
// (U+0085 NEL is a line break to many readers). A one-line field also refuses U+2028 and U+2029, line and paragraph
// separators: a player's name with one in it read, in the organization's notice, as a line of its own ("Email:
// someone-else@…" under the real one).
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const CONTROL_OR_NEWLINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
// The explicit direction controls (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069) reorder the text
// after them until the end of its line: a name with U+202E in it turned the rest of a notice's subject (the
// division) backwards. The marks U+200E, U+200F and U+061C (LRM, RLM, ALM), which Arabic typing uses and which move
// no text, are kept.
const DIRECTION_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
// Characters that show nothing and have no use in a name or a note: U+00AD SOFT HYPHEN, U+034F COMBINING GRAPHEME
// JOINER, the Khmer inherent vowels U+17B4 and U+17B5, U+2800 BRAILLE PATTERN BLANK, the musical formatting
// characters U+1D173–U+1D17A, U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER,
// U+FEFF (a byte-order mark inside text), U+180E, the invisible operators U+2061–U+2064, the Hangul fillers
// (U+115F, U+1160, U+3164, U+FFA0: a "name" of fillers reads as blank), the tag characters U+E0000–U+E007F (they
// spell ASCII no reader sees), and the other format characters that show nothing (a review found them taken): the
// deprecated U+206A–U+206F, the Mongolian variation selectors and vowel separator U+180B–U+180F, the interlinear
// annotation characters U+FFF9–U+FFFB, the shorthand format controls U+1BCA0–U+1BCA3, U+2065 (reserved, ignored
// like its neighbours) and the Egyptian hieroglyph format controls U+13430–U+1343F. They make two spellings of one name that look alike, or carry text past the person
// reading the notice. The joiners writing needs stay: U+200C ZWNJ (Persian and Arabic typing), U+200D ZWJ (emoji,
// Indic scripts), and the marks above.
const INVISIBLE = /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B\u2060-\u2065\u206A-\u206F\u2800\u3164\uFEFF\uFFA0\uFFF9-\uFFFB\u{1BCA0}-\u{1BCA3}\u{13430}-\u{1343F}\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}]/u;
// Except the three emoji whose tag characters are the whole point: the flags of England, Scotland and Wales (black
// flag, then "gbeng", "gbsct" or "gbwls" in tags, then the cancel tag), the only tag sequences Unicode recommends.
// A fan's note may well carry one; no other tag sequence is taken, so no other text can hide in tags.
const TAG_FLAGS = /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/gu;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
// Variation selectors choose a glyph for the character before them, and show nothing themselves: one after an emoji
// or a keycap's digit, # or * (VS15, VS16: "❤️", "1️⃣"; \p{Emoji}), after an ideograph or a symbol of U+2000–U+2BFF
// (VS1–VS14: CJK compatibility variants, mathematical symbols), or after an ideograph (VS17–VS256: a Japanese name's
// glyph) is taken; anywhere else they choose nothing, and a run of them spells bytes no reader sees (an attacker's
// review hid "IGNORE PREVIOUS INSTRUCTIONS" in 28 of them after a player's name, which looked the same in the notice
// and the export, and escaped same_player_as). After an ASCII symbol ("+", "$") they choose nothing either.
const MISPLACED_SELECTOR = /(?<!\p{Emoji})[\uFE0E\uFE0F]|(?<![\p{Ideographic}\u2000-\u2BFF])[\uFE00-\uFE0D]|(?<!\p{Ideographic})[\u{E0100}-\u{E01EF}]/gu;

/**
 * The first invisible character of `s` (a flag's tags aside), as a person can find it: its code point and the text
 * before it on its line, or null: none. An API review's parent who had pasted a name with U+200B in it was shown the
 * whole list of code points refused, and could not tell which, or where.
 */
function invisibleAt(s: string): string | null {
  const flags = [...s.matchAll(TAG_FLAGS)].map((m) => [m.index, m.index + m[0].length] as const);
  const found = [...s.matchAll(INVISIBLE_ALL)].filter((m) => !flags.some(([from, to]) => m.index >= from && m.index < to));
  for (const m of [...found, ...s.matchAll(MISPLACED_SELECTOR)].sort((a, b) => a.index - b.index)) {
    const code = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    const line = s.slice(0, m.index).split(/\r\n|\r|\n/).at(-1)!.replace(INVISIBLE_ALL, '');
    const before = [...line].slice(-12).join('').trimStart();
    return before === '' ? `${code} at the start` : `${code} after "${before}"`;
  }
  return null;
}
// What a reader sees: a letter, a digit, punctuation or a symbol (emoji are symbols). A text of nothing else (the
// joiners and marks above, combining marks, variation selectors) reads as blank: a guardian "named" U+200F left the
// organization's notice with an empty guardian line.
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
export const NOTHING_VISIBLE = 'must contain a letter, a digit or a symbol (it reads as blank)';
/** The start of the message of a text with an invisible character; the character and where it is follow. */
export const INVISIBLE_MESSAGE = 'must not contain invisible characters';

const requiredString = z.string({
  error: (issue) => (issue.input === undefined || issue.input === null ? 'is required' : 'must be a string'),
});

/** Empty or whitespace-only strings (and null) become undefined before validation. */
export const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/**
 * What keeps a text from being read as it was meant, one message per rule broken (none: it is fine): control
 * characters (a one-line text: line breaks too), direction controls, invisible characters, broken Unicode, nothing
 * visible at all. The
 * API's text fields and the import's names use these same rules.
 */
export function textProblems(s: string, options: { multiline?: boolean } = {}): string[] {
  const problems: string[] = [];
  if ((options.multiline ? CONTROL : CONTROL_OR_NEWLINE).test(s)) problems.push('must not contain control characters');
  if (DIRECTION_CONTROL.test(s)) problems.push('must not contain text direction controls (U+202A to U+202E, U+2066 to U+2069)');
  const invisible = invisibleAt(s);
  if (invisible !== null) problems.push(`${INVISIBLE_MESSAGE}: ${invisible}`);
  // The body reader refuses such text already (400); a schema used on its own must not pass half a character on
  // either: SQLite would store a lone surrogate as bytes that are not UTF-8.
  if (!s.isWellFormed()) problems.push('must be valid Unicode text');
  // Only when nothing else is wrong: a text of U+2800 is told about its invisible characters, once. An empty text is
  // the caller's to refuse ("is required").
  if (problems.length === 0 && s !== '' && !VISIBLE.test(s)) problems.push(NOTHING_VISIBLE);
  return problems;
}

/** textProblems as zod issues, for a string schema's superRefine. */
export function readableText(options: { multiline?: boolean } = {}) {
  return (s: string, ctx: z.RefinementCtx) => {
    for (const message of textProblems(s, options)) ctx.addIssue({ code: 'custom', message });
  };
}

export function requiredText(max: number, options: { multiline?: boolean } = {}) {
  return requiredString
    .trim()
    // One spelling of each name (NFC), as the import keeps them: the organization's export and search find it.
    .normalize('NFC')
    // One line break, LF, before the length is counted: a browser sends a textarea's breaks as CRLF but its
    // maxlength counts each as one character, so notes typed to a form's limit were refused as too long.
    .overwrite((s) => (options.multiline ? s.replace(/\r\n?/g, '\n') : s))
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .superRefine(readableText(options));
}

export function optionalText(max: number, options: { multiline?: boolean } = {}) {
  return z.preprocess(blankToUndefined, requiredText(max, options).optional());
}

export const idField = requiredString.trim().regex(ID_PATTERN, 'must be an identifier such as "riverside-sfl"');
export const optionalIdField = z.preprocess(blankToUndefined, idField.optional());

/** An email address (src/http/email-address.ts): kept with its local part lower-cased and its domain in ASCII. */
export const emailField = requiredString
  .trim()
  .min(1, 'is required')
  .max(254, 'must be at most 254 characters')
  .transform((s, ctx) => {
    const checked = checkEmailAddress(s);
    if (checked.ok) return checked.address;
    ctx.addIssue({ code: 'custom', message: checked.message });
    return z.NEVER;
  });

export const phoneField = z.preprocess(
  blankToUndefined,
  requiredString
    .trim()
    .overwrite(asciiDigits)
    .regex(/^\+?[0-9][0-9 ().-]{3,30}$/, 'must be a phone number: digits, spaces, + ( ) . -')
    .optional(),
);

/**
 * A date of birth: YYYY-MM-DD, a real calendar day. Typed on an Arabic keyboard (a form's text field) its digits are
 * Arabic-Indic: taken and kept as ASCII, as a phone number's are. Its range (1900-01-01 to today) is checked where
 * the organization, and so its day, is known: src/registrations/rules.ts dateOfBirthProblem.
 */
export const dateOfBirthField = z.preprocess(
  blankToUndefined,
  requiredString
    .trim()
    .overwrite(asciiDigits)
    // A club's text input (not type="date") gets "2015-3-4": year first, it can mean nothing else, and is kept as
    // 2015-03-04 (a review's parent was refused for it). A day first ("4/3/2015") is ambiguous and still refused.
    .overwrite((v) => v.replace(/^(\d{4})-(\d{1,2})-(\d{1,2})$/, (_, y: string, m: string, d: string) => `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`))
    // Aborts: a date not written as YYYY-MM-DD is told that once, not also that it is not a real date.
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD', abort: true })
    .refine(isRealDay, 'is not a real date')
    .optional(),
);

/** How a language the service does not write is refused. */
export const LANGUAGE_MESSAGE = 'must be "en" (English) or "ar" (Arabic)';

/**
 * The language a form or app asks its emails and answer page in, as written ("AR", " ar "); blank: none (the
 * organization's). A registration's and a follow's; the answer page reads a form's field with it too, so that the page
 * and the emails agree.
 */
export const languageField = z.preprocess(
  (v) => { const given = blankToUndefined(v); return typeof given === 'string' ? given.trim().toLowerCase() : given; },
  z.enum(LANGUAGES, { error: LANGUAGE_MESSAGE }).optional(),
);
