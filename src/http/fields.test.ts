import { describe, expect, it } from 'vitest';
import { dateOfBirthField, NOTHING_VISIBLE, optionalText, phoneField, requiredText } from './fields.js';

describe('phoneField', () => {
  it.each([
    ['٠٧٩١٢٣٤٥٦٧', '0791234567'],
    ['۰۷۹۱۲۳۴۵۶۷', '0791234567'],
    ['  +٩٦٢ (٧٩) ١٢٣-٤٥٦٧ ', '+962 (79) 123-4567'],
    ['+44 161 496 0000', '+44 161 496 0000'],
    ['', undefined],
  ])('takes %j as %j', (input, kept) => {
    expect(phoneField.parse(input)).toBe(kept);
  });

  it.each(['call me', '٠٧٩ext', '०७९१२३४५६७', '+', '٠١٢'])('refuses %j', (input) => {
    expect(phoneField.safeParse(input).error?.issues.map((i) => i.message)).toEqual(['must be a phone number: digits, spaces, + ( ) . -']);
  });
});

describe('dateOfBirthField', () => {
  it.each([
    ['2012-05-09', '2012-05-09'],
    ['٢٠١٢-٠٥-٠٩', '2012-05-09'],
    [' ۲۰۱۲-۰۵-۰۹ ', '2012-05-09'],
    // The range is the service's (src/registrations/rules.ts dateOfBirthProblem): it knows the organization's day.
    ['1899-12-31', '1899-12-31'],
    ['2999-01-01', '2999-01-01'],
    ['', undefined],
    // A club's text input: year first, months and days of one digit (a review's parent was refused for it).
    ['2015-3-4', '2015-03-04'],
    ['٢٠١٥-٣-١٢', '2015-03-12'],
  ])('takes %j as %j', (input, kept) => {
    expect(dateOfBirthField.parse(input)).toBe(kept);
  });

  it.each([
    ['٢٠١٢-٠٢-٣٠', 'is not a real date'],
    ['09/05/2012', 'must be a date as YYYY-MM-DD'],
    ['2015-3-4-1', 'must be a date as YYYY-MM-DD'],
    ['2015-003-04', 'must be a date as YYYY-MM-DD'],
    ['2015-2-30', 'is not a real date'],
    ['१९९०-०५-०९', 'must be a date as YYYY-MM-DD'],
  ])('refuses %j: %s', (input, message) => {
    expect(dateOfBirthField.safeParse(input).error?.issues.map((i) => i.message)).toEqual([message]);
  });
});

// A one-line field (a name) and a multiline one (notes), and the messages a schema gives for a text.
const name = requiredText(120);
const notes = optionalText(2000, { multiline: true });
const messages = (schema: typeof name | typeof notes, input: string) => schema.safeParse(input).error?.issues.map((i) => i.message) ?? [];

describe('requiredText and optionalText: invisible characters', () => {
  const INVISIBLE = /^must not contain invisible characters: U\+[0-9A-F]{4,5} (after ".+"|at the start)$/;

  // Characters that show nothing and have no use in a name: they hide a second spelling of it (two registrations
  // "Sam" that are not equal), or smuggle text no person reading the notice sees (tag characters spell ASCII).
  it.each([
    ['U+200B zero width space', 'Sam\u200BCarter'],
    ['U+2060 word joiner', 'Sam\u2060Carter'],
    ['U+FEFF zero width no-break space (byte-order mark) inside', 'Sam\uFEFFCarter'],
    ['U+180E Mongolian vowel separator', 'Sam\u180ECarter'],
    // Found by a review: format characters that show nothing, taken before.
    ['U+180B Mongolian free variation selector one', 'Sam\u180BCarter'],
    ['U+180F Mongolian free variation selector four', 'Sam\u180FCarter'],
    ['U+206A inhibit symmetric swapping', 'Om\u206Aar'],
    ['U+206F nominal digit shapes', 'Om\u206Far'],
    ['U+FFF9 interlinear annotation anchor', 'Sam\uFFF9Carter'],
    ['U+FFFB interlinear annotation terminator', 'Sam\uFFFBCarter'],
    ['U+1BCA0 shorthand format letter overlap', 'Sam\u{1BCA0}Carter'],
    ['U+1BCA3 shorthand format up step', 'Sam\u{1BCA3}Carter'],
    // And from the review after: the reserved U+2065 between refused neighbours, a hieroglyph format control.
    ['U+2065 (reserved, default ignorable)', 'Om\u2065ar'],
    ['U+13430 Egyptian hieroglyph vertical joiner', 'Om\u{13430}ar'],
    ['U+2061 function application', 'Sam\u2061Carter'],
    ['U+2062 invisible times', 'Sam\u2062Carter'],
    ['U+2063 invisible separator', 'Sam\u2063Carter'],
    ['U+2064 invisible plus', 'Sam\u2064Carter'],
    ['U+115F Hangul choseong filler', '\u115FSam'],
    ['U+1160 Hangul jungseong filler', 'Sam\u1160'],
    ['U+3164 Hangul filler', '\u3164'],
    ['U+FFA0 halfwidth Hangul filler', 'Sam\uFFA0Carter'],
    ['U+00AD soft hyphen', 'Sam\u00ADCarter'],
    ['U+034F combining grapheme joiner', 'Sam\u034FCarter'],
    ['U+17B4 Khmer vowel inherent aq', 'Sam\u17B4'],
    ['U+17B5 Khmer vowel inherent aa', 'Sam\u17B5'],
    ['U+2800 braille pattern blank (a name of it reads as blank)', '\u2800\u2800'],
    ['U+2800 after a name', 'Sam\u2800'],
    ['U+1D173 musical symbol begin beam', 'Sam\u{1D173}'],
    ['U+1D17A musical symbol end phrase', 'Sam\u{1D17A}'],
    ['U+E0000 (first of the tag block)', 'Sam\u{E0000}'],
    ['U+E0001 language tag', 'Sam\u{E0001}'],
    ['tag characters spelling ASCII', 'Sam' + [...'ignore this'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')],
    ['U+E007F cancel tag', 'Sam\u{E007F}'],
    // A flag-like sequence other than the three flags: tags after the black flag would hide text just as well.
    ['the black flag with other tags ("usca")', 'Sam \u{1F3F4}\u{E0075}\u{E0073}\u{E0063}\u{E0061}\u{E007F}'],
    ['a flag of Wales with text hidden after it', 'Sam \u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}\u{E0068}\u{E0069}'],
    ['the tags of a flag without its black flag', 'Sam \u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'],
    // The flag's own tags end with its cancel tag: the character right after it is judged as any other.
    ['a zero width space right after a flag of England', 'Sam \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}\u200B'],
    // Variation selectors where they choose nothing: a run of them spells bytes (an attacker's review).
    ['variation selectors spelling bytes after a name', 'Omar Haddad' + [...'IGNORE'].map((c) => String.fromCodePoint(0xe0100 + c.charCodeAt(0) - 16)).join('')],
    ['VS16 after a letter', 'Sam\uFE0F'],
    ['VS15 after a letter', 'Sam\uFE0E'],
    ['VS16 alone (it chooses nothing: said as invisible, not as blank)', '\uFE0F'],
    ['two VS16 after an emoji', 'Sam ❤\uFE0F\uFE0F'],
    ['VS1 after a letter', 'Om\uFE00ar'],
    ['an ideographic variation selector after a Latin letter', 'Sam\u{E0100}'],
    ['VS1 after an ASCII symbol (it chooses nothing there)', 'Sam +\uFE00'],
    ['VS16 after an ASCII symbol', 'Sam $\uFE0F'],
  ])('refuses %s', (_label, input) => {
    expect(messages(name, input)).toEqual([expect.stringMatching(INVISIBLE)]);
    expect(messages(notes, `Notes\n${input}`)).toEqual([expect.stringMatching(INVISIBLE)]);
  });

  // An API review's parent, shown the whole list of code points refused, could not tell which or where: the first one
  // is named, after the text before it on its line.
  it.each([
    ['Sam\u200BCarter', 'U+200B after "Sam"'],
    ['\u200BSam', 'U+200B at the start'],
    ['Notes\nline two\u00AD', 'U+00AD after "line two"'],
    // The last 12 characters before it, without the spaces they start with.
    ['A very long name indeed\u2060, and more', 'U+2060 after "name indeed"'],
    ['Om\u200B\u2060ar', 'U+200B after "Om"'],
    // A flag of Wales taken, the tag after it not: the text before it shown without invisible characters.
    ['Sam \u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F} then\u{E0068}', 'U+E0068 after "Sam \u{1F3F4} then"'],
    // The earliest of either kind.
    ['Om\u{E0101}ar\u200B', 'U+E0101 after "Om"'],
    ['Om\u200Bar\u{E0101}', 'U+200B after "Om"'],
  ])('names the first invisible character of %j and where it is', (input, where) => {
    expect(messages(notes, input)).toEqual([`must not contain invisible characters: ${where}`]);
  });

  // Joiners and marks that writing needs: ZWNJ in Persian and Arabic typing (می‌خواهم), ZWJ in emoji and Indic
  // scripts, the direction marks Arabic typing uses (LRM, RLM, ALM).
  it.each([
    ['U+200C zero width non-joiner (Persian)', 'می\u200Cخواهم'],
    ['U+200D zero width joiner (emoji family)', '👨\u200D👩\u200D👧'],
    ['U+200D zero width joiner (Devanagari)', 'क्\u200Dष'],
    ['U+200E left-to-right mark', 'يوسف\u200E (Joe)'],
    ['U+200F right-to-left mark', 'Joe\u200F يوسف'],
    ['U+061C Arabic letter mark', '\u061Cالأحمد'],
    ['Hangul itself', '김민준'],
    ['the flags of England, Scotland and Wales (tag sequences)', 'Sam 🏴󠁧󠁢󠁥󠁮󠁧󠁿 🏴󠁧󠁢󠁳󠁣󠁴󠁿 🏴󠁧󠁢󠁷󠁬󠁳󠁿'],
    ['characters beside the ranges: U+115E, U+1161, U+3165, U+FFA1, U+E0080', 'Sam\u115E\u1161\u3165\uFFA1\u{E0080}'],
    // A variation selector after what it chooses a glyph for.
    ['an emoji with VS16, a keycap, a symbol as text (VS15)', 'Sam ❤\uFE0F 1\uFE0F\u20E3 ☎\uFE0E'],
    ['a Japanese name with an ideographic variation selector', '葛\u{E0100}飾 太郎'],
    ['a CJK compatibility variant (VS1 after an ideograph)', '神\uFE00'],
    ['a mathematical symbol\'s variant (VS1 after ≨)', 'a \u2268\uFE00 b'],
    ['emoji sequences: ZWJ, a skin tone, a flag, the copyright sign', 'Sam 🏳️‍🌈 ❤️‍🔥 👍🏽 🕵️‍♀️ ©️ #️⃣'],
  ])('takes %s', (_label, input) => {
    expect(name.parse(input)).toBe(input);
    expect(notes.parse(input)).toBe(input);
  });

  // The joiners and marks taken above, alone, read as blank: a guardian "named" U+200F gave the organization's notice
  // an empty guardian line, and a required name became optional.
  it.each([
    ['U+200D zero width joiner alone', '\u200D'],
    ['U+200F right-to-left mark alone', '\u200F'],
    ['the three direction marks', '\u200E\u200F\u061C'],
    ['U+200C zero width non-joiner alone', '\u200C'],
    ['U+0301 combining acute accent alone', '\u0301'],
    ['combining marks and joiners', '\u0301\u200D\u0308'],
  ])('refuses %s: nothing visible', (_label, input) => {
    expect(messages(name, input)).toEqual([NOTHING_VISIBLE]);
    expect(messages(notes, input)).toEqual([NOTHING_VISIBLE]);
  });

  it.each([
    ['one letter', 'A'],
    ['a letter and its combining accent', 'A\u0301'],
    ['one Arabic-Indic digit', '\u0663'],
    ['one emoji with its variation selector', '\u263A\uFE0F'],
    ['punctuation', '-'],
  ])('takes %s: something visible', (_label, input) => {
    // Kept in NFC: "A" and its accent are "Á".
    expect(name.parse(input)).toBe(input.normalize('NFC'));
  });

  // An API review: names came back as imported or typed, decomposed, and an app matching names missed them.
  it.each([
    ['a decomposed accent', 'Cafe\u0301', 'Caf\u00E9'],
    ['Arabic marks typed shadda first (NFC puts fatha first)', '\u0639\u0645\u0651\u064E\u0627\u0646', '\u0639\u0645\u064E\u0651\u0627\u0646'],
  ])('keeps %s in NFC', (_label, input, nfc) => {
    expect(name.parse(input)).toBe(nfc);
    expect(notes.parse(input)).toBe(nfc);
  });
});

// Characters that break a line or turn the text after them around: a name with U+2028 read as a line of its own in the
// organization's notice, one with U+202E turned its subject backwards.
describe('control characters and direction controls', () => {
  const CONTROL = 'must not contain control characters';
  const DIRECTION = 'must not contain text direction controls (U+202A to U+202E, U+2066 to U+2069)';
  it.each([
    ['U+2028 line separator in a name', name, 'Sam\u2028Email: x@example.org', CONTROL],
    ['U+2029 paragraph separator in a name', name, 'Sam\u2029Carter', CONTROL],
    ['U+0085 next line in notes', notes, 'line one\u0085line two', CONTROL],
    ['U+009F (the last C1 control) in notes', notes, 'Notes\u009F', CONTROL],
    ['U+202E right-to-left override', name, 'Sam\u202Eretrac', DIRECTION],
    ['U+202A left-to-right embedding', name, 'Sam\u202ACarter', DIRECTION],
    ['U+2067 right-to-left isolate', name, 'Sam\u2067Carter', DIRECTION],
    ['U+2069 pop directional isolate', notes, 'Notes\u2069', DIRECTION],
  ])('refuses %s', (_label, schema, input, message) => {
    expect(messages(schema, input)).toEqual([message]);
  });

  // A form's field left blank (spaces only) is no answer: absent, not "is required".
  it.each([['spaces', '   '], ['a tab and a line break', '\t\n'], ['empty', '']])('takes an optional text of %s as absent', (_label, input) => {
    expect(notes.parse(input)).toBeUndefined();
  });
});

describe('multiline text: line breaks', () => {
  const notes = optionalText(20, { multiline: true });

  // A browser submits a textarea's line breaks as CRLF, and its maxlength counts each as one character.
  it.each([
    ['CRLF', 'a\r\nb\r\nc', 'a\nb\nc'],
    ['a lone CR', 'a\rb', 'a\nb'],
    ['LF', 'a\nb', 'a\nb'],
    ['both, beside each other', 'a\r\n\nb', 'a\n\nb'],
  ])('keeps %s as LF', (_label, input, kept) => {
    expect(notes.parse(input)).toBe(kept);
  });

  it('counts a CRLF as one character against the limit, as a form did', () => {
    const typed = `${'x'.repeat(9)}\n${'y'.repeat(10)}`; // 20 characters in the textarea
    expect(notes.safeParse(typed.replace(/\n/g, '\r\n')).success).toBe(true);
    expect(notes.safeParse(`${typed}z`.replace(/\n/g, '\r\n')).error?.issues[0]?.message).toBe('must be at most 20 characters');
  });

  it('leaves a one-line text alone: a line break there is refused', () => {
    expect(requiredText(20).safeParse('a\r\nb').error?.issues[0]?.message).toBe('must not contain control characters');
  });
});
