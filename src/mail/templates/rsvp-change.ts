// To a member invited to a match, when the match changes after their invitation went out: a new kickoff or venue
// (moved, or rescheduled after a postponement), postponed, cancelled, back on after a cancellation, or another
// opponent (a corrected result gave the slot another team). It shows the match as it is when the email
// leaves, what it was before, and the member's answer so far, with their personal link to change it.
import { isolatedIn, sentence, type Language } from '../../vocabulary/language.js';
import type { RsvpAnswer } from '../../vocabulary/enums.js';
import { ANSWER_WORDS, matchTeams, toMember } from '../../rsvp/words.js';
import { undecidedName } from '../../competitions/calendar-feed.js';
import type { ToldMatch } from '../send-time.js';
import { formatDateTime, formatShortDay } from '../../time/local-time.js';
import { safeUrl } from './html.js';
import { factLines, layout, t, textBlock, type RenderedEmail } from './layout.js';

type TeamsTold = { homeId?: string | null | undefined; awayId?: string | null | undefined; homeName: string; awayName: string };

/** Where the match stands when the email leaves: the states an invitee's email is sent in (send-time.ts). */
export type ChangedMatchState = ToldMatch['state'];

export interface RsvpChangeInput {
  language: Language;
  organizationName: string;
  memberName: string;
  homeName: string;
  awayName: string;
  /**
   * The teams' ids now, null for a slot nobody holds yet (named by what decides it: "Winner of Quarter-final 2").
   * Absent (rows queued before they were given): a side is told apart by its name.
   */
  homeId?: string | null | undefined;
  awayId?: string | null | undefined;
  eventName: string | null;
  /** IANA zone the kickoffs are shown in (the organization's). */
  timeZone: string;
  state: ChangedMatchState;
  /** The match now (RFC 3339; null while no kickoff is fixed). */
  kickoffAt: string | null;
  venue: string | null;
  /**
   * The match as the member knew it: their invitation, or the last change they were told (postponed: no kickoff held;
   * cancelled: it would not be played).
   */
  before: { kickoffAt: string | null; venue: string | null; postponed?: boolean; cancelled?: boolean; teams?: TeamsTold | undefined };
  response: RsvpAnswer | null;
  /** The member's link to answer; null for a match that will not be played (nothing is left to answer). */
  rsvpUrl: string | null;
  /** When the email is sent: a kickoff ten months or more from it is named with its year in the subject. */
  sentAt?: Date;
}

export function rsvpChangeEmail(input: RsvpChangeInput): RenderedEmail {
  const ar = input.language === 'ar';
  const zone = input.timeZone;
  const name = isolatedIn(input.language);
  const match = matchTeams(input.language, input.homeName, input.awayName, name);
  const tba = ar ? 'سيُعلن لاحقًا' : 'To be announced';
  const when = (at: string | null) => formatDateTime(at, zone, input.language) ?? tba;
  const open = input.state === 'open';
  const cancelled = input.state === 'cancelled' || input.state === 'competition_cancelled';
  const wasPostponed = input.before.postponed === true;
  // Back on after the member was told it would not be played: said as such, whether or not its kickoff moved (a
  // review's players, told "cancelled", were never told it was played after all).
  const backOn = open && input.before.cancelled === true;
  const newKickoff = open && (wasPostponed || backOn || input.kickoffAt !== input.before.kickoffAt);
  const newVenue = open && input.venue !== input.before.venue;
  // Others play it now: the teams the member was told, beside those of now. Said unless it will not be played.
  const teamsBefore = cancelled ? undefined : input.before.teams;
  const matchBefore = teamsBefore && matchTeams(input.language, teamsBefore.homeName, teamsBefore.awayName, name);
  // The one side that changed, when only one did (the member's team still plays: else the invitation is withdrawn):
  // the opponent now, and the one told, null when it was still to be decided. By team where both ids are known (a
  // slot still undecided is renamed when the bracket is renumbered, and is no news).
  const sideOf = (teams: TeamsTold, s: 'home' | 'away') => ({ id: s === 'home' ? teams.homeId : teams.awayId, name: s === 'home' ? teams.homeName : teams.awayName });
  const sideChanged = (s: 'home' | 'away') => {
    const [was, now] = [sideOf(teamsBefore!, s), sideOf(input, s)];
    return was.id !== undefined && now.id !== undefined ? was.id !== now.id : was.name !== now.name;
  };
  // Null: still to be decided (no team; rows without ids: the name every undecided slot had).
  const known = (t: { id: string | null | undefined; name: string }) =>
    t.id === null || (t.id === undefined && t.name === undecidedName(input.language)) ? null : name(t.name);
  const one = teamsBefore && sideChanged('home') !== sideChanged('away') ? (sideChanged('home') ? 'home' : 'away') : null;
  const opponent = one && { now: known(sideOf(input, one)), was: known(sideOf(teamsBefore!, one)) };
  // What the subject and the first sentence say of it: decided, no longer decided, or another.
  const opponentNews = opponent === null ? 'changed' : opponent.was === null ? 'decided' : opponent.now === null ? 'undecided' : 'changed';
  // Postponed when they were told it was, still postponed: the opponent is the news, not the postponement.
  const stillPostponed = input.state === 'postponed' && wasPostponed;
  const day = formatShortDay(input.kickoffAt, zone, input.language, input.sentAt);
  // The member's name first in the subject and the preview, as in their invitation (src/rsvp/words.ts).
  const member = name(input.memberName);
  const answer = input.response === null ? null : ANSWER_WORDS[input.language][input.response];
  const s = ar
    ? {
        subject: toMember(member, cancelled ? `أُلغيت: ${match}` : matchBefore && (open || stillPostponed) ? `${{ decided: 'تم تحديد المنافس', undecided: 'لم يعد المنافس محدَّدًا', changed: 'منافس جديد' }[opponentNews]}: ${match}${open && day ? `، ${day}` : ''}` : !open ? `مؤجلة: ${match}` : backOn ? `أُعيدت: ${match}${day ? `، ${day}` : ''}` : newKickoff ? `${newVenue ? 'موعد وملعب جديدان' : 'موعد جديد'}: ${match}${day ? `، ${day}` : ''}` : `ملعب جديد: ${match}`),
        heading: cancelled ? 'أُلغيت مباراتك' : matchBefore ? 'تغيّرت مباراتك' : !open ? 'أُجّلت مباراتك' : backOn ? 'أُعيدت مباراتك' : 'تغيّرت مباراتك',
        hello: `مرحبًا ${name(input.memberName)}،`,
        what: input.state === 'competition_cancelled'
          ? sentence(`أُلغيت البطولة، فلن تُلعب مباراة ${match}`)
          : cancelled ? `أُلغيت مباراة ${match}، فلن تُلعب.`
          // Through sentence(): a name ending in a full stop closes it. "تم تحديد", not "تحدّد" (read "you decide" unvowelled),
          // and "موعد المباراة", not "موعدها" (read as the academy's, the feminine name before it): a native review.
          : matchBefore ? `${sentence(!opponent ? `تغيّر منافسك: صارت المباراة ${match}` : opponent.was === null ? `تم تحديد منافسك: ${opponent.now}` : opponent.now === null ? `لم يعد منافسك محدَّدًا (كان ${opponent.was})، وستصلك رسالة عند تحديده` : `تغيّر منافسك: ${opponent.now} بدلًا من ${opponent.was}`)}${!open ? ' كما أن المباراة مؤجلة، وسنبلغك بموعدها الجديد عند تحديده.' : newKickoff && newVenue ? ' كما تغيّر موعد المباراة وملعبها.' : newKickoff ? ' كما تغيّر موعد المباراة.' : newVenue ? ' كما تغيّر ملعب المباراة.' : ''}`
          : !open ? `أُجّلت مباراة ${match} ولم يُحدَّد موعدها الجديد بعد. ستصلك رسالة عند تحديده.`
          : backOn ? `لم تعد مباراة ${match} ملغاة: ستُلعب.`
          : newKickoff && newVenue ? `تغيّر موعد مباراة ${match} وملعبها.` : newKickoff ? sentence(`تغيّر موعد مباراة ${match}`) : sentence(`تغيّر ملعب مباراة ${match}`),
        labels: { match: 'المباراة', kickoff: 'موعد الانطلاق', wasDue: 'كان موعدها', venue: 'الملعب', event: 'البطولة', was: 'بدلًا من' },
        // Not in brackets: an Arabic time ends with its zone in brackets, and an accessibility review read
        // "…الساعة 11:30 (GMT+3) (بدلًا من …، الساعة 10:00 (GMT+3))". The digest's way (follow-updates.ts).
        aside: (text: string) => ` — ${text}`,
        // Said of the kickoff (موعد الانطلاق, masculine) it stands beside, or of the match by name: a native Arabic
        // review read "موعد الانطلاق: مؤجلة: …" and "(كانت مؤجلة)", feminine words under a masculine label.
        postponed: 'مؤجَّل، يُحدَّد موعد جديد لاحقًا',
        // "(بدلًا من مؤجلة)" read "instead of postponed" (a review): the note is its own phrase.
        wasPostponed: 'كان مؤجَّلًا',
        wasCancelled: 'كانت المباراة ملغاة',
        answer: answer ? `ردّك حتى الآن: ${answer}.` : 'لم يُسجَّل ردّك على الدعوة بعد.',
        ask: !open ? (answer ? 'ردّك محفوظ، ويمكنك تغييره بعد تحديد الموعد الجديد:' : 'يمكنك الرد بعد تحديد الموعد الجديد:') : answer ? 'إذا لم يعد ردّك صالحًا، يمكنك تغييره:' : 'يُرجى إبلاغ فريقك إن كان بإمكانك المشاركة:',
        button: open ? (answer ? 'تغيير الرد' : 'الرد على الدعوة') : 'عرض الدعوة',
        personal: 'هذا الرابط خاص بك، فيُرجى عدم مشاركته مع أحد.',
        sentBy: `أُرسلت هذه الرسالة نيابةً عن ${name(input.organizationName)}.`,
      }
    : {
        // Both changed: both in the subject (a review's said only the time, the body both).
        subject: toMember(member, cancelled ? `Cancelled: ${match}` : matchBefore && (open || stillPostponed) ? `${{ decided: 'Opponent confirmed', undecided: 'Opponent no longer confirmed', changed: 'New opponent' }[opponentNews]}: ${match}${open && day ? `, ${day}` : ''}` : !open ? `Postponed: ${match}` : backOn ? `Back on: ${match}${day ? `, ${day}` : ''}` : newKickoff ? `${newVenue ? 'New time and venue' : 'New time'}: ${match}${day ? `, ${day}` : ''}` : `New venue: ${match}`),
        heading: cancelled ? 'Your match is cancelled' : matchBefore ? 'Your match has changed' : !open ? 'Your match is postponed' : backOn ? 'Your match is back on' : 'Your match has changed',
        hello: `Hello ${input.memberName},`,
        what: input.state === 'competition_cancelled'
          ? `The competition is cancelled: ${match} will not be played.`
          : cancelled ? `${match} is cancelled: it will not be played.`
          : matchBefore ? `${sentence(!opponent ? `Your opponent has changed: the match is now ${match}` : opponent.was === null ? `Your opponent has been confirmed: ${opponent.now}` : opponent.now === null ? `Your opponent is no longer confirmed (it was ${opponent.was}); you will be told once it is` : `Your opponent has changed: ${opponent.now} instead of ${opponent.was}`)}${!open ? ' It is postponed: you will be told its new date.' : newKickoff && newVenue ? ' Its kickoff and venue have changed too.' : newKickoff ? ' Its kickoff has changed too.' : newVenue ? ' Its venue has changed too.' : ''}`
          : !open ? `${match} is postponed and its new date is not set yet. You will be told when it is.`
          : backOn ? `${match} is no longer cancelled: it will be played.`
          : newKickoff && newVenue ? `${match} has a new kickoff and a new venue.` : newKickoff ? `${match} has a new kickoff.` : `${match} has a new venue.`,
        labels: { match: 'Match', kickoff: 'Kickoff', wasDue: 'Was to kick off', venue: 'Venue', event: 'Competition', was: 'was' },
        aside: (text: string) => ` (${text})`,
        postponed: 'Postponed: new date to follow',
        wasPostponed: 'was postponed',
        wasCancelled: 'was cancelled',
        answer: answer ? `Your answer so far: ${answer}.` : 'You have not answered yet.',
        ask: !open ? (answer ? 'Your answer is kept; you can change it once the new date is set:' : 'You can answer once the new date is set:') : answer ? 'If your answer no longer holds, change it:' : 'Let your team know whether you can make it:',
        button: open ? (answer ? 'Change your answer' : 'Answer the invitation') : 'See the invitation',
        personal: 'This link is personal: please do not share it.',
        sentBy: `Sent on behalf of ${input.organizationName}.`,
      };
  const changed = (now: string, before: string, differs: boolean) => (differs ? `${now}${s.aside(`${s.labels.was} ${before}`)}` : now);
  const kickoff = !open ? (input.state === 'postponed' ? s.postponed : null)
    : wasPostponed ? `${when(input.kickoffAt)}${s.aside(s.wasPostponed)}`
    : backOn ? `${when(input.kickoffAt)}${s.aside(s.wasCancelled)}`
    : changed(when(input.kickoffAt), when(input.before.kickoffAt), newKickoff);
  const facts: Array<[string, string]> = [
    [s.labels.match, matchBefore ? `${match}${s.aside(`${s.labels.was} ${matchBefore}`)}` : match],
    ...(kickoff === null ? [] : [[s.labels.kickoff, kickoff] as [string, string]]),
    // A cancelled match says when it was to be played: a member with two fixtures against the same team could not tell
    // which one was cancelled (a review).
    ...(cancelled && input.kickoffAt !== null ? [[s.labels.wasDue, when(input.kickoffAt)] as [string, string]] : []),
    ...(cancelled ? [] : [[s.labels.venue, changed(input.venue ?? tba, input.before.venue ?? tba, newVenue)] as [string, string]]),
    ...(input.eventName ? [[s.labels.event, input.eventName] as [string, string]] : []),
  ];
  // A cancelled match has nothing left to answer: no link, no answer.
  const url = cancelled ? null : input.rsvpUrl;
  const ask = url === null ? null : s.ask;
  return {
    subject: s.subject,
    text: textBlock([
      s.hello,
      '',
      s.what,
      '',
      ...factLines(facts, input.language),
      ...(ask && url ? ['', s.answer, ask, safeUrl(url), '', s.personal] : []),
      '',
      '--',
      s.sentBy,
    ]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: toMember(member, `${match} · ${kickoff ?? s.heading}`),
      organizationName: input.organizationName,
      heading: s.heading,
      // The answer before the facts: the button under them says what to do with it.
      intro: ask ? [t(s.hello), t(s.what), t(s.answer)] : [t(s.hello), t(s.what)],
      facts,
      ...(ask && url ? { button: { label: s.button, url }, fallback: true } : {}),
      footer: ask ? [t(s.personal), t(s.sentBy)] : [t(s.sentBy)],
    }),
  };
}
