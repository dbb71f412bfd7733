// What an invitation asks and how it names its match, in one place for the invitation email (its subject) and the
// RSVP page (its title and question): a review found the email asking "Will you play?", the page "Are you playing?",
// and several open invitations in one browser whose tabs all read the same.
//
// Each names the invited member first: an RSVP review found a parent with two children in one team given two
// invitations alike in subject, preview and page title ("Will you play? Old Mill Athletic vs Crown & Anchor FC,
// 6 Dec"), told apart only by the body's "Hello Ella Lowe"; the parent answered one and took the other for a
// duplicate. Always, not only when a mailbox is shared: a player forwarded a link reads whose it is.
import type { RsvpAnswer } from '../vocabulary/enums.js';
import type { Language } from '../vocabulary/language.js';

/**
 * The question the email's subject and the page ask, put to the member by name, which comes first: "Ella Lowe, can
 * you make it?" / "إيلا لو، هل يمكنك المشاركة؟" (a copy review: "will you play?" was put to a team's coach too).
 * `member` is passed as it is to be shown (isolated where the text needs it).
 * The Arabic asks without a gender: "هل ستشارك؟" put the question to a boy, and girls' teams are invited too; "يمكنك"
 * reads the same to both, unvowelled.
 */
export function rsvpQuestion(language: Language, member: string): string {
  return language === 'ar' ? `${member}، هل يمكنك المشاركة؟` : `${member}, can you make it?`;
}

/**
 * The subject or preview of any other email to an invitee about their match ("Postponed: …", "New time: …", the
 * facts a preview shows) with the member's name first: "Ella Lowe · Postponed: Home vs Away". The middle dot reads
 * the same in both languages, and is the preview's own separator already.
 */
export function toMember(member: string, text: string): string {
  return `${member} · ${text}`;
}

/** The word between the two teams. */
export const VERSUS: Readonly<Record<Language, string>> = { en: 'vs', ar: 'ضد' };

/** "Home vs Away" ("Home ضد Away"), each name passed through `name`: isolated where the text around it needs. */
export function matchTeams(language: Language, home: string, away: string, name: (n: string) => string): string {
  return `${name(home)} ${VERSUS[language]} ${name(away)}`;
}

/** An answer as the emails to an invitee name it ("Your answer so far: Yes."). */
export const ANSWER_WORDS: Readonly<Record<Language, Readonly<Record<RsvpAnswer, string>>>> = {
  en: { yes: 'Yes', no: 'No', maybe: 'Maybe' },
  ar: { yes: 'نعم', no: 'لا', maybe: 'ربما' },
};
