// What an invitation asks and how it names its match, in one place for the invitation email (its subject) and the
// RSVP page (its title and question): a review found the email asking "Will you play?", the page "Are you playing?",
// and several open invitations in one browser whose tabs all read the same.
import type { Language } from '../vocabulary/language.js';

/** The question the email's subject and the page ask. */
export const RSVP_QUESTION: Readonly<Record<Language, string>> = { en: 'Will you play?', ar: 'هل ستشارك؟' };

/** The word between the two teams. */
export const VERSUS: Readonly<Record<Language, string>> = { en: 'vs', ar: 'ضد' };

/** "Home vs Away" ("Home ضد Away"), each name passed through `name`: isolated where the text around it needs. */
export function matchTeams(language: Language, home: string, away: string, name: (n: string) => string): string {
  return `${name(home)} ${VERSUS[language]} ${name(away)}`;
}
