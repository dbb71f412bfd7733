// The languages people read: every organization speaks one (its emails, pages and calendars), and names
// shown to people are in it: the Arabic name when the organization speaks Arabic and one was given.
import { z } from 'zod';

export const LANGUAGES = ['en', 'ar'] as const;
export const languageSchema = z.enum(LANGUAGES);
export type Language = z.output<typeof languageSchema>;

export function isRightToLeft(language: Language): boolean {
  return language === 'ar';
}

export function localizedName(name: string, nameAr: string | null | undefined, language: Language): string {
  return language === 'ar' ? (nameAr ?? name) : name;
}

/**
 * `name` isolated from the text around it (U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL ISOLATE), as HTML's
 * <bdi> does, for a name put into a sentence: a Latin name ending in a full stop ("Nizar Smadi Jr.") inside Arabic
 * text showed its stop before its first letter. Names hold no isolates of their own (src/http/fields.ts refuses
 * direction controls), so the pair stays balanced.
 */
export function isolated(name: string): string {
  return `\u2068${name}\u2069`;
}

/**
 * Text that reads left to right (an address, code, code points, a list of symbols) inside an Arabic sentence: isolated
 * left to right (U+2066 LEFT-TO-RIGHT ISOLATE … U+2069). First-strong isolation (`isolated`) laid a list of symbols
 * alone, with no letter to decide it, right to left ("! # $" showed as "$ # !"), and code unisolated lost its quotes'
 * order ('method="post"؛' drawn as '"method="post').
 */
export function leftToRight(text: string): string {
  return `\u2066${text}\u2069`;
}

const LISTS: Record<Language, Intl.ListFormat> = {
  // British English, as the rest of the English text: "A, B and C".
  en: new Intl.ListFormat('en-GB', { type: 'conjunction' }),
  ar: new Intl.ListFormat('ar', { type: 'conjunction' }),
};

/**
 * `items` as one phrase in `language`: "A, B and C", "A وB وC" (CLDR's conjunction, through Intl). A native Arabic review
 * read a list joined with "، " alone, with no و before its last item.
 */
export function listIn(language: Language, items: readonly string[]): string {
  return LISTS[language].format(items);
}

/** The forms of a counted Arabic noun: "ساعة واحدة", "ساعتان", "3 ساعات", "11 ساعة", "100 ساعة". */
export interface ArabicCountForms {
  one: string;
  two: string;
  /** 3 to 10 (and 103 to 110, …): the plural after the number. */
  few: (n: number) => string;
  /** 11 to 99 (and 111 to 199, …): the singular, accusative, after the number. */
  many: (n: number) => string;
  /** 0, 100, 101, 102, 200, …: the singular, genitive, after the number. */
  other: (n: number) => string;
}

const ARABIC_PLURAL = new Intl.PluralRules('ar');

/**
 * `n` and its noun as Arabic counts them (CLDR's Arabic plural rules, through Intl): a review read "(الحد 200 إشعارًا)",
 * the form for 11 to 99, under the default cap of 200.
 */
export function arabicCount(n: number, forms: ArabicCountForms): string {
  const category = ARABIC_PLURAL.select(n);
  if (category === 'one') return forms.one;
  if (category === 'two') return forms.two;
  if (category === 'few') return forms.few(n);
  if (category === 'many') return forms.many(n);
  return forms.other(n);
}

/**
 * `text` ended with a full stop, unless it ends with one already (a name such as "Al-Salt S.C." closing it, isolated
 * or not): a review read "… ضد Al-Salt S.C.." in an email.
 */
export function sentence(text: string): string {
  return /[.!?؟…]\u2069?$/u.test(text) ? text : `${text}.`;
}

/**
 * `isolated` in an email of the language where names need it: an Arabic email's sentences, which put Latin names
 * ("Al-Salt S.C.", "Muath Masri Jr.") into right-to-left text, where their final full stop showed before their first
 * letter (a review measured it in Chromium, subjects and bodies alike). An English email's are left as they are.
 */
export function isolatedIn(language: Language): (name: string) => string {
  return language === 'ar' ? isolated : (name) => name;
}

/**
 * What a follow or a registration is of, in a sentence: "League (Organization)", or the organization alone, each
 * name passed through `name`: isolated on the pages (the follow pages, and those a form on another site is answered
 * with), isolatedIn(language) in emails.
 */
export function scopeName(organization: string, within: string | null, name: (name: string) => string = isolated): string {
  return within ? `${name(within)} (${name(organization)})` : name(organization);
}
