// To a member whose invitation to a match the organization's import withdrew because their team no longer plays it
// (a corrected result gave the slot another team, or the member moved to another team). A season review's player
// had said yes, was never told, and would have come. It names the match as the member knew it and says their answer
// no longer counts; it carries no link, since the invitation and its links are gone.
import { isolatedIn, sentence, type Language } from '../../vocabulary/language.js';
import type { RsvpAnswer } from '../../vocabulary/enums.js';
import { ANSWER_WORDS, matchTeams, toMember } from '../../rsvp/words.js';
import { formatDateTime, formatShortDay } from '../../time/local-time.js';
import { factLines, layout, t, textBlock, type RenderedEmail } from './layout.js';

export interface RsvpWithdrawnInput {
  language: Language;
  organizationName: string;
  memberName: string;
  /** The member's team now; `moved`: they moved to it from a team of the match (else it lost its place in the match). */
  teamName: string;
  moved: boolean;
  /** The match as the member was invited to it; `postponed`: they were told it was (no kickoff held). */
  postponed?: boolean;
  homeName: string;
  awayName: string;
  eventName: string | null;
  timeZone: string;
  kickoffAt: string | null;
  venue: string | null;
  /** Their answer when it was withdrawn. */
  response: RsvpAnswer | null;
  /** The organization's contact address (the email's Reply-To), or null: without one, nobody reads a reply. */
  contact: string | null;
  sentAt?: Date;
}

export function rsvpWithdrawnEmail(input: RsvpWithdrawnInput): RenderedEmail {
  const ar = input.language === 'ar';
  const name = isolatedIn(input.language);
  const match = matchTeams(input.language, input.homeName, input.awayName, name);
  const day = formatShortDay(input.kickoffAt, input.timeZone, input.language, input.sentAt);
  const member = name(input.memberName);
  const team = name(input.teamName);
  const answer = input.response === null ? null : ANSWER_WORDS[input.language][input.response];
  const s = ar
    ? {
        subject: toMember(member, `سُحبت الدعوة: ${match}${day ? `، ${day}` : ''}`),
        heading: 'سُحبت دعوتك',
        hello: `مرحبًا ${name(input.memberName)}،`,
        // Passive: the verb would agree with the organization's name, which may be feminine (أكاديمية) or not (نادي).
        what: input.moved
          ? sentence(`فريقك الآن هو ${team}، وهو ليس طرفًا في مباراة ${match}، لذا سُحبت دعوتك إليها`)
          : sentence(`لم يعد فريق ${team} طرفًا في مباراة ${match} بعد تعديل جدول المباريات، لذا سُحبت دعوتك إليها`),
        // In quotes: "ردّك (لا) محسوبًا" read as "your answer is not counted" (a native review).
        answer: answer ? `لم يعد ردّك «${answer}» محسوبًا، ولا داعي لحضورك هذه المباراة.` : 'لا داعي لحضورك هذه المباراة.',
        next: 'إذا دُعي فريقك إلى مباراة أخرى فستصلك دعوة جديدة.',
        ask: input.contact ? `إذا كان هذا خطأ، فيُرجى الرد على هذه الرسالة أو الكتابة إلى ${name(input.contact)}.` : null,
        labels: { match: 'المباراة', kickoff: 'موعد الانطلاق', venue: 'الملعب', event: 'البطولة' },
        tba: 'سيُعلن لاحقًا',
        postponed: 'مؤجَّل، يُحدَّد موعد جديد لاحقًا',
        sentBy: `أُرسلت هذه الرسالة نيابةً عن ${name(input.organizationName)}.`,
      }
    : {
        subject: toMember(member, `Invitation withdrawn: ${match}${day ? `, ${day}` : ''}`),
        heading: 'Your invitation is withdrawn',
        hello: `Hello ${input.memberName},`,
        what: input.moved
          ? `You are now in ${team}, which does not play in ${match}, so ${input.organizationName} has withdrawn your invitation to it.`
          : `${team} no longer plays in ${match} (the fixtures have changed), so ${input.organizationName} has withdrawn your invitation to it.`,
        answer: answer ? `Your answer (${answer}) no longer counts, and you are not expected at this match.` : 'You are not expected at this match.',
        next: 'If your team is invited to another match, you will get a new invitation.',
        ask: input.contact ? `If this is a mistake, reply to this email or write to ${input.contact}.` : null,
        labels: { match: 'Match', kickoff: 'Kickoff', venue: 'Venue', event: 'Competition' },
        tba: 'To be announced',
        postponed: 'Postponed: new date to follow',
        sentBy: `Sent on behalf of ${input.organizationName}.`,
      };
  const facts: Array<[string, string]> = [
    [s.labels.match, match],
    [s.labels.kickoff, input.postponed ? s.postponed : (formatDateTime(input.kickoffAt, input.timeZone, input.language) ?? s.tba)],
    [s.labels.venue, input.venue ?? s.tba],
    ...(input.eventName ? [[s.labels.event, input.eventName] as [string, string]] : []),
  ];
  return {
    subject: s.subject,
    text: textBlock([s.hello, '', s.what, s.answer, '', ...factLines(facts, input.language), '', s.next, ...(s.ask ? [s.ask] : []), '', '--', s.sentBy]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: toMember(member, `${match} · ${s.heading}`),
      organizationName: input.organizationName,
      heading: s.heading,
      intro: [t(s.hello), t(s.what), t(s.answer)],
      facts,
      after: [t(s.next), ...(s.ask ? [t(s.ask)] : [])],
      footer: [t(s.sentBy)],
    }),
  };
}
