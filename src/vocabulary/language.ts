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
