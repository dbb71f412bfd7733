// Names shown to people (emails, pages, calendars) are in the organization's language: the Arabic name
// when the organization speaks Arabic and one was given, else the name.
import type { Language } from './db/schema.js';

export function localizedName(name: string, nameAr: string | null | undefined, language: Language): string {
  return language === 'ar' ? (nameAr ?? name) : name;
}
