// What the RSVP page says (src/pages/rsvp.astro), and its script once it has sent an answer (src/scripts/rsvp-form.ts),
// in one place: the page held its words, which state closes answers and why, and what to say after a post, beside its
// markup, and the script a copy of "Your answer is saved." and of the page's query flags (a maintainability review).
// Pure, and small enough for the browser's bundle.
import type { RsvpAnswer } from '../vocabulary/enums.js';
import type { Language } from '../vocabulary/language.js';
import type { RsvpState } from './state.js';
import { ANSWER_WORDS } from './words.js';

/**
 * The query flags of the page a post redirects to (post/redirect/get): `saved`, said while the answer can still
 * change; with it `moved`, the match moved (its kickoff or venue) between the page being drawn and the answer (an RSVP
 * review's player, the page left open, said yes under the old kickoff and read "saved" beside it); `closed`, the
 * answer refused as closed, "not saved" while answers stay closed.
 */
export const PAGE_FLAGS = { saved: 'saved', moved: 'moved', closed: 'closed' } as const;

const WORDS = {
  en: {
    ...ANSWER_WORDS.en, pending: 'No answer yet', saved: 'Your answer is saved.', saving: 'Saving your answer…',
    moved: 'Your answer is saved. This match has moved since you opened the page: check its date, time and place below, and change your answer if it no longer holds.',
    movedTitle: 'Your answer is saved; the match has moved.', notSaved: 'Your answer was not saved.',
    closed: 'Answers closed when the match kicked off.', played: 'Answers are closed: this match has its result.',
    counts: 'Answers so far, both teams', teamCounts: 'Answers so far, your team:',
    postponedWhen: 'Postponed: new date to follow', postponed: 'This match is postponed: you can answer once its new date is set.',
    cancelledWhen: 'Cancelled', cancelled: 'This match is cancelled: answers are closed.',
    competitionCancelled: 'This competition is cancelled: the match will not be played, and answers are closed.',
    choose: 'Choose yes, maybe or no.', hello: 'Hello', yourAnswer: 'The answer recorded:',
  },
  ar: {
    ...ANSWER_WORDS.ar, pending: 'بلا رد', saved: 'تم حفظ ردك.', saving: 'جارٍ حفظ ردك…',
    moved: 'تم حفظ ردك. تغيّر موعد هذه المباراة أو مكانها منذ فتح الصفحة: يُرجى مراجعة التاريخ والوقت والمكان أدناه، وتغيير ردك إن لم يعد مناسبًا.',
    movedTitle: 'تم حفظ ردك، وتغيّر موعد المباراة أو مكانها.', notSaved: 'لم يُحفظ ردك.',
    closed: 'أُغلقت الردود عند انطلاق المباراة.', played: 'أُغلقت الردود: سُجّلت نتيجة هذه المباراة.',
    counts: 'الردود حتى الآن، من الفريقين', teamCounts: 'الردود حتى الآن، من فريقك:',
    postponedWhen: 'مؤجلة: يحدد موعد جديد', postponed: 'أُجّلت هذه المباراة: يمكنك الرد عند تحديد موعدها الجديد.',
    cancelledWhen: 'ملغاة', cancelled: 'أُلغيت هذه المباراة: أُغلقت الردود.',
    competitionCancelled: 'أُلغيت هذه المسابقة: لن تُلعب المباراة، وأُغلقت الردود.',
    choose: 'يُرجى اختيار نعم أو ربما أو لا.', hello: 'مرحبًا', yourAnswer: 'الرد المسجّل:',
  },
} as const;

export type RsvpPageWords = (typeof WORDS)[Language];
export const RSVP_PAGE_WORDS: Readonly<Record<Language, RsvpPageWords>> = WORDS;

/** Why answers are closed, by the match's state (the API's 409 detail is English); '' while open. */
export function closedBecause(words: RsvpPageWords, state: RsvpState): string {
  // A result recorded before its kickoff (a walkover awarded ahead) has not "kicked off".
  const because: Record<RsvpState, string> = {
    open: '', postponed: words.postponed, cancelled: words.cancelled, competition_cancelled: words.competitionCancelled, played: words.played,
    kicked_off: words.closed,
  };
  return because[state];
}

/** What became of the post this page follows: saved, saved as the match moved, refused as closed, no choice sent. */
export type PageNotice = 'saved' | 'moved' | 'refused' | 'choose' | null;

export interface PageTexts {
  /** Said first, above the match (and announced): what became of the answer; '' when nothing is to be said. */
  outcome: string;
  /** The start of the page's title: the outcome, shorter where the outcome is long; '' for none. */
  outcomeTitle: string;
  /** Below the buttons: why answers are closed, and the answer that stands; '' while open. */
  closedNotice: string;
}

/**
 * The page's texts for an invitation in `state` (`closed`: answers closed), `response` the answer recorded, after
 * `notice`. A post without a choice to a closed match is refused for being closed: "choose" would ask for what cannot
 * be given. Answers closed, the answer given is said in words too: the disabled buttons take no focus, so a keyboard
 * or screen reader user could not reach the pressed one to hear it (a browser review). An accessibility review's
 * screen reader, back on the page after an answer refused at kickoff, heard the same title asking "can you make it?":
 * the outcome starts the title.
 */
export function pageTexts(words: RsvpPageWords, view: { state: RsvpState; closed: boolean; response: RsvpAnswer | null }, notice: PageNotice): PageTexts {
  const refused = notice === 'refused' || (notice === 'choose' && view.closed);
  const closedWhy = closedBecause(words, view.state) || words.closed;
  const answerGiven = view.closed && view.response ? ` ${words.yourAnswer} ${words[view.response]}.` : '';
  const outcome = refused ? `${words.notSaved} ${closedWhy}`
    : notice === 'saved' ? words.saved : notice === 'moved' ? words.moved : notice === 'choose' ? words.choose : '';
  return {
    outcome,
    outcomeTitle: notice === 'moved' ? words.movedTitle : refused ? words.notSaved : outcome,
    closedNotice: !view.closed ? '' : refused ? answerGiven.trim() : `${closedWhy}${answerGiven}`,
  };
}
