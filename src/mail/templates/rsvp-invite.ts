// The invitation to answer for a match: the member, the match, kickoff, venue, and the personal RSVP link.
import { isolatedIn, sentence, type Language } from '../../vocabulary/language.js';
import { formatDateTime, formatShortDay } from '../../time/local-time.js';
import { subscribeLinks } from '../../competitions/subscribe-links.js';
import { matchTeams, rsvpQuestion, toMember } from '../../rsvp/words.js';
import { html, safeUrl } from './html.js';
import { factLines, layout, link, t, textBlock, type RenderedEmail } from './layout.js';

export interface RsvpInviteInput {
  language: Language;
  /** Shown in the header band and the footer; the event name stands in when absent. */
  organizationName?: string | null;
  memberName: string;
  homeName: string;
  awayName: string;
  /** RFC 3339; null while the kickoff is not fixed. */
  kickoffAt: string | null;
  /**
   * The match was postponed after the invitation was made: its stored kickoff no longer holds, so none is shown
   * (the calendar feed's words instead) and the member is told answers wait for the new date.
   */
  postponed?: boolean;
  /** IANA zone the kickoff is shown in (the organization's); UTC when absent. */
  timeZone?: string;
  venue: string | null;
  eventName?: string | null;
  rsvpUrl: string;
  /** When the email is sent: a kickoff ten months or more from it is named with its year in the subject. */
  sentAt?: Date;
  /** The calendar feed (https) offered as webcal, https and Google Calendar; null leaves it out. */
  calendarUrl?: string | null;
  /**
   * Whose matches that feed holds: the invited member's team (every public match of it), or, in invitations queued
   * before the team was recorded, the match's competition (default).
   */
  calendarOf?: 'team' | 'competition';
}

export function rsvpInviteEmail(input: RsvpInviteInput): RenderedEmail {
  const ar = input.language === 'ar';
  const zone = input.timeZone ?? 'UTC';
  const postponed = input.postponed === true;
  const kickoff = postponed ? null : formatDateTime(input.kickoffAt, zone, input.language);
  const day = postponed ? null : formatShortDay(input.kickoffAt, zone, input.language, input.sentAt);
  const name = isolatedIn(input.language);
  const match = matchTeams(input.language, input.homeName, input.awayName, name);
  const tba = ar ? 'سيُعلن لاحقًا' : 'To be announced';
  const sender = input.organizationName || input.eventName || null;
  // The member's name first in the subject and the preview (src/rsvp/words.ts): two children's invitations to one
  // mailbox read apart before they are opened.
  const member = name(input.memberName);
  const s = ar
    ? {
        subject: postponed ? toMember(member, `مؤجلة: ${match}`) : `${rsvpQuestion('ar', member)} ${match}${day ? `، ${day}` : ''}`,
        heading: postponed ? 'مباراة مؤجلة' : 'دعوة إلى مباراة',
        // Beside "موعد الانطلاق" (masculine): "مؤجلة: …" did not agree with it (a native Arabic review).
        when: postponed ? 'مؤجَّل، يُحدَّد موعد جديد لاحقًا' : null,
        hello: `مرحبًا ${name(input.memberName)}،`,
        invited: sentence(`تمت دعوتك للمشاركة في مباراة ${match}`),
        labels: { match: 'المباراة', kickoff: 'موعد الانطلاق', venue: 'الملعب', event: 'البطولة' },
        ask: postponed ? 'أُجّلت المباراة ولم يُحدَّد موعدها الجديد بعد. يمكنك الرد عند تحديده:' : 'يُرجى إبلاغ فريقك إن كان بإمكانك المشاركة:',
        button: postponed ? 'عرض الدعوة' : 'الرد على الدعوة',
        change: postponed ? 'بعد تحديد الموعد الجديد يمكنك تغيير ردّك في أي وقت حتى انطلاق المباراة.' : 'يمكنك تغيير ردّك في أي وقت حتى موعد انطلاق المباراة.',
        personal: 'هذا الرابط خاص بك، فيُرجى عدم مشاركته مع أحد.',
        sentBy: sender ? `أُرسلت هذه الرسالة نيابةً عن ${name(sender)}.` : null,
        calendar: input.calendarOf === 'team' ? 'لإضافة مباريات فريقك إلى تقويمك:' : 'لإضافة مباريات المسابقة إلى تقويمك:', calendarApp: 'تطبيق التقويم', calendarLink: 'رابط التقويم لنسخه في تطبيق تقويم آخر', google: 'تقويم Google',
      }
    : {
        subject: postponed ? toMember(member, `Postponed: ${match}`) : `${rsvpQuestion('en', member)} ${match}${day ? `, ${day}` : ''}`,
        heading: postponed ? 'Your match is postponed' : 'You are invited to a match',
        when: postponed ? 'Postponed: new date to follow' : null,
        hello: `Hello ${input.memberName},`,
        invited: sentence(`You are invited to the match ${match}`),
        labels: { match: 'Match', kickoff: 'Kickoff', venue: 'Venue', event: 'Competition' },
        ask: postponed ? 'The match is postponed and its new date is not set yet. You can answer once it is:' : 'Let your team know whether you can make it:',
        button: postponed ? 'See the invitation' : 'Answer the invitation',
        change: postponed ? 'Once the new date is set, you can change your answer at any time until kickoff.' : 'You can change your answer at any time until kickoff.',
        personal: 'This link is personal: please do not share it.',
        sentBy: sender ? `Sent on behalf of ${sender}.` : null,
        calendar: input.calendarOf === 'team' ? "Add your team's matches to your calendar:" : "Add the competition's matches to your calendar:", calendarApp: 'calendar app', calendarLink: 'Address to paste into another calendar', google: 'Google Calendar',
      };
  const cal = input.calendarUrl ? subscribeLinks(input.calendarUrl) : null;
  const facts: Array<[string, string]> = [
    [s.labels.match, match],
    [s.labels.kickoff, s.when ?? kickoff ?? tba],
    [s.labels.venue, input.venue ?? tba],
    ...(input.eventName ? [[s.labels.event, input.eventName] as [string, string]] : []),
  ];
  return {
    subject: s.subject,
    text: textBlock([
      s.hello,
      '',
      s.invited,
      '',
      ...factLines(facts, input.language),
      '',
      s.ask,
      safeUrl(input.rsvpUrl),
      '',
      s.change,
      s.personal,
      cal && '',
      cal && `${s.calendar} ${safeUrl(cal.webcal)}`,
      cal && `${s.calendarLink}: ${safeUrl(cal.https)}`,
      cal && `${s.google}: ${safeUrl(cal.google)}`,
      s.sentBy && '',
      s.sentBy && '--',
      s.sentBy,
    ]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: toMember(member, `${match} · ${s.when ?? kickoff ?? tba}`),
      organizationName: sender ?? match,
      heading: s.heading,
      intro: [t(s.hello), t(s.invited)],
      facts,
      button: { label: s.button, url: input.rsvpUrl },
      after: [
        t(s.change),
        ...(cal ? [html`${s.calendar} ${link(cal.webcal, s.calendarApp)} · ${link(cal.google, s.google)} · ${link(cal.https, s.calendarLink)}`] : []),
      ],
      fallback: true,
      footer: s.sentBy ? [t(s.personal), t(s.sentBy)] : [t(s.personal)],
    }),
  };
}
