// What a follower is told: the changes in the follow's scope since it was last told, grouped by competition,
// each competition with its calendar (webcal, https, Google), in the organization's language and time zone; a
// daily digest, or a prompt alert about the next 48 hours. Every one carries the follow's unsubscribe link.
import { arabicCount, isolatedIn, leftToRight, scopeName, sentence, type Language } from '../../vocabulary/language.js';
import { subscribeLinks } from '../../competitions/subscribe-links.js';
import { formatDateTime } from '../../time/local-time.js';
import { hasResult, type AdjustmentTold, type ChangeKind, type SeenMatch } from '../../updates/changes.js';
import { html, safeUrl } from './html.js';
import { layout, link, t, textBlock, type RenderedEmail } from './layout.js';

export interface ToldChange {
  kind: ChangeKind;
  before: SeenMatch | null;
  after: SeenMatch | null;
  champion?: string | null;
  /** A new competition: how many matches it has (absent: not known, a change recorded before it was), the next's kickoff. */
  matches?: number | undefined;
  nextKickoff?: string | null | undefined;
  /** A team's points added or deducted. */
  adjustment?: AdjustmentTold | undefined;
}

/** A points total with its sign, as a table's adjustment reads: "−3", "+1". */
const signed = (n: number) => `${n < 0 ? '\u2212' : '+'}${Math.abs(n)}`;

export interface ToldCompetition {
  name: string;
  calendarUrl: string;
  changes: ToldChange[];
}

export interface FollowUpdatesInput {
  language: Language;
  timeZone: string;
  kind: 'digest' | 'alert';
  organizationName: string;
  leagueName: string | null;
  competitions: ToldCompetition[];
  unsubscribeUrl: string;
}

const WORDS = {
  en: {
    digestSubject: (scope: string) => `Updates: ${scope}`,
    alertSubject: (scope: string) => `Match changes: ${scope}`,
    digestHeading: 'What changed',
    alertHeading: 'Changes to the next matches',
    intro: (scope: string) => `Here is what changed in ${scope} since we last wrote.`,
    alertIntro: (scope: string) => `Matches of ${scope} in the next two days have changed.`,
    comma: ', ', arrow: '→', aside: (s: string) => ` (${s})`, vs: 'vs', pens: (score: string) => `${score} pens`, aet: 'after extra time', walkover: (team: string) => `walkover: ${team}`, tbd: 'time to be announced',
    result: 'Result', moved: 'Time changed', movedBoth: 'Time and venue changed', newVenue: 'New venue', noVenue: 'venue to be announced', postponed: 'Postponed, new date to follow', cancelled: 'Cancelled', rescheduled: 'New date',
    reinstated: 'Back on, no longer cancelled', resultWithdrawn: 'Result withdrawn', was: (s: string) => `was ${s}`, wasDue: (s: string) => `was due ${s}`,
    newFixture: 'New fixture', champion: (n: string) => `${n} are the champions`,
    newCompetition: 'New competition on the calendar',
    newCompetitionWith: (matches: number, first: string | null) => `New competition on the calendar: ${matches === 1 ? '1 match' : `${matches} matches`}${first ? `, the next on ${first}` : ''}`,
    competitionCancelled: 'The competition is cancelled: its remaining matches will not be played',
    competitionReinstated: 'The competition is back on, no longer cancelled: its remaining matches will be played',
    advances: (team: string, next: string) => `${team} go through to ${next}`,
    // A season review's table lost three points with nothing in any digest to say why.
    adjustment: ({ team, before, after }: AdjustmentTold, reasons: string) => {
      const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;
      if (after === 0) return `Points adjustment withdrawn: ${team} (was ${signed(before)})`;
      if (before === 0) return `${after < 0 ? 'Points deducted' : 'Points awarded'}: ${team}, ${points(Math.abs(after))}${reasons}`;
      return `Points adjustment: ${team}: ${signed(before)} → ${signed(after)} in all${reasons}`;
    },
    reasons: (list: string[]) => (list.length === 0 ? '' : ` (${list.join('; ')})`),
    calendar: "Add this competition's calendar:", calendarLink: 'Address to paste into another calendar', calendarApp: 'calendar app', google: 'Google Calendar',
    unsubscribe: 'Stop these emails:', unsubscribeLink: 'Unsubscribe',
    why: (scope: string) => `You receive this email because you follow ${scope}.`,
  },
  ar: {
    digestSubject: (scope: string) => `مستجدات: ${scope}`,
    alertSubject: (scope: string) => `تغييرات في المباريات: ${scope}`,
    digestHeading: 'ما الجديد',
    alertHeading: 'تغييرات في المباريات القادمة',
    intro: (scope: string) => `إليك ما تغيّر في ${scope} منذ رسالتنا الأخيرة.`,
    alertIntro: (scope: string) => `تغيّرت مباريات في ${scope} خلال اليومين القادمين.`,
    // U+2190: an arrow is not mirrored in right-to-left text, so "before → after" would point back at the before.
    // Not in brackets: an Arabic time ends with its zone in brackets, "(… الساعة 10:00 (GMT+3)، …)" (a review).
    // A walkover names its winner as such: "(انسحاب: ⁨X⁩)" read as X having withdrawn, and penalties say how the score
    // was made, "(بركلات الترجيح 4–3)", not "(4–3 ركلات الترجيح)" (a native Arabic review).
    comma: '، ', arrow: '←', aside: (s: string) => ` — ${s}`, vs: 'ضد', pens: (score: string) => `بركلات الترجيح ${score}`, aet: 'بعد الوقت الإضافي', walkover: (team: string) => `فوز ${team} بالانسحاب`, tbd: 'يحدد الموعد لاحقًا',
    result: 'النتيجة', moved: 'تغيير الموعد', movedBoth: 'تغيير الموعد والملعب', newVenue: 'ملعب جديد', noVenue: 'يحدد الملعب لاحقًا', postponed: 'تأجيل، يحدد موعد جديد لاحقًا', cancelled: 'إلغاء', rescheduled: 'موعد جديد',
    reinstated: 'أُعيدت المباراة بعد إلغائها', resultWithdrawn: 'سُحبت النتيجة', was: (s: string) => `كانت ${s}`, wasDue: (s: string) => `كان موعدها ${s}`,
    // A native Arabic review: the champion's title first, as a label ("⁨X⁩ بطل المسابقة" read unnaturally); a move
    // says what moved ("تغيير الموعد أو الملعب" stood above a new time alone); a competition of one match gives its
    // date ("موعدها"), not the nearest of its matches ("أقربها").
    newFixture: 'مباراة جديدة', champion: (n: string) => `بطل المسابقة: ${n}`,
    newCompetition: 'مسابقة جديدة في التقويم',
    newCompetitionWith: (matches: number, first: string | null) =>
      `مسابقة جديدة في التقويم: ${arabicCount(matches, { one: 'مباراة واحدة', two: 'مباراتان', few: (k) => `${k} مباريات`, many: (k) => `${k} مباراة`, other: (k) => `${k} مباراة` })}${first ? `، ${matches === 1 ? 'موعدها' : 'أقربها'} ${first}` : ''}`,
    competitionCancelled: 'أُلغيت المسابقة: لن تُلعب مبارياتها المتبقية',
    competitionReinstated: 'أُعيدت المسابقة بعد إلغائها: ستُلعب مبارياتها المتبقية',
    // Said of the place, not the team: a verb agrees with its subject's gender, which a team's name does not give
    // ("أكاديمية جبل الحسين يتأهل" read wrong to a review).
    advances: (team: string, next: string) => `المتأهل إلى ${next}: ${team}`,
    // A signed total reads left to right ("−3", not "3−").
    adjustment: ({ team, before, after }: AdjustmentTold, reasons: string) => {
      const points = (n: number) => arabicCount(n, { one: 'نقطة واحدة', two: 'نقطتان', few: (k) => `${k} نقاط`, many: (k) => `${k} نقطة`, other: (k) => `${k} نقطة` });
      if (after === 0) return `إلغاء تعديل النقاط: ${team} — كان ${leftToRight(signed(before))}`;
      if (before === 0) return `${after < 0 ? 'خصم نقاط' : 'إضافة نقاط'}: ${team}، ${points(Math.abs(after))}${reasons}`;
      return `تعديل النقاط: ${team}: ${leftToRight(signed(before))} ← ${leftToRight(signed(after))} في المجموع${reasons}`;
    },
    reasons: (list: string[]) => (list.length === 0 ? '' : ` — ${list.join('؛ ')}`),
    calendar: 'لإضافة تقويمها:', calendarLink: 'رابط التقويم لنسخه في تطبيق تقويم آخر', calendarApp: 'تطبيق التقويم', google: 'تقويم Google',
    unsubscribe: 'لإيقاف هذه الرسائل:', unsubscribeLink: 'إلغاء الاشتراك',
    why: (scope: string) => `تصلك هذه الرسالة لمتابعتك ${scope}.`,
  },
} as const;

type Words = (typeof WORDS)[Language];

function winnerOf(m: SeenMatch): string | null {
  // The bracket's word (over both legs of a tie) when it has one; else the match's own result.
  if (m.winner) return m.winner;
  if (m.walkover) return m.walkover === 'home' ? m.home : m.away;
  if (m.home_score === null || m.away_score === null) return null;
  if (m.home_score !== m.away_score) return m.home_score > m.away_score ? m.home : m.away;
  if (m.home_penalties === null || m.away_penalties === null || m.home_penalties === m.away_penalties) return null;
  return m.home_penalties > m.away_penalties ? m.home : m.away;
}

/** One line per change, as a person reads it. */
export function changeLine(c: ToldChange, w: Words, when: (at: string | null) => string): string {
  const m = c.after ?? c.before;
  if (c.kind === 'champion') return w.champion(c.champion ?? '');
  if (c.kind === 'adjustment') return c.adjustment ? w.adjustment(c.adjustment, w.reasons(c.adjustment.reasons)) : '';
  if (c.kind === 'competition_cancelled') return w.competitionCancelled;
  if (c.kind === 'competition_reinstated') return w.competitionReinstated;
  if (c.kind === 'new_competition' && c.matches) return w.newCompetitionWith(c.matches, c.nextKickoff ? when(c.nextKickoff) : null);
  if (c.kind === 'new_competition' || !m) return w.newCompetition;
  const fixture = `${m.home} ${w.vs} ${m.away}`;
  const place = (x: SeenMatch) => [when(x.kickoff_at), x.venue].filter(Boolean).join(w.comma);
  // A result as it stood before (a correction, a result withdrawn): "2–1", "2–2 (4–3 pens)", "walkover: Team"
  // ("فوز ⁨Team⁩ بالانسحاب").
  const scoreOf = (x: SeenMatch) => x.walkover ? w.walkover(winnerOf(x) ?? '')
    : `${x.home_score}–${x.away_score}${x.home_penalties !== null && x.away_penalties !== null ? ` (${w.pens(`${x.home_penalties}–${x.away_penalties}`)})` : ''}`;
  const hadResult = (x: SeenMatch | null): x is SeenMatch => x !== null && hasResult(x);
  switch (c.kind) {
    case 'result': {
      // A result corrected says what it was: a follower told 1–4 reads 2–4 as news, not as a second match.
      const was = hadResult(c.before) ? w.aside(w.was(scoreOf(c.before))) : '';
      if (m.walkover) return `${w.result}: ${fixture} (${w.walkover(winnerOf(m) ?? '')})${was}`;
      const pens = m.home_penalties !== null && m.away_penalties !== null ? ` (${w.pens(`${m.home_penalties}–${m.away_penalties}`)})` : '';
      const aet = m.after_extra_time ? ` (${w.aet})` : '';
      const score = `${w.result}: ${m.home} ${m.home_score}–${m.away_score} ${m.away}${aet}${pens}${was}`;
      const winner = winnerOf(m);
      return winner && m.next_label ? `${sentence(score)} ${w.advances(winner, m.next_label)}` : score;
    }
    case 'result_withdrawn': {
      // Taken back with a new kickoff or venue (to be replayed): where and when too, which no other line tells.
      const moved = c.before !== null && (c.before.kickoff_at !== m.kickoff_at || c.before.venue !== m.venue);
      return `${w.resultWithdrawn}: ${fixture}${hadResult(c.before) ? w.aside(w.was(scoreOf(c.before))) : ''}${moved ? `: ${place(m)}` : ''}`;
    }
    case 'reinstated':
      return `${w.reinstated}: ${fixture}: ${place(m)}`;
    case 'moved': {
      // Only what moved goes either side of the arrow: a venue unchanged beside both times read as a move of venue
      // too (a review), and a time unchanged beside both venues as a move of time.
      const before = c.before!;
      if (before.venue === m.venue) return `${w.moved}: ${fixture}: ${when(before.kickoff_at)} ${w.arrow} ${when(m.kickoff_at)}${m.venue ? `${w.comma}${m.venue}` : ''}`;
      if (before.kickoff_at === m.kickoff_at) return `${w.newVenue}: ${fixture}: ${before.venue ?? w.noVenue} ${w.arrow} ${m.venue ?? w.noVenue}${w.comma}${when(m.kickoff_at)}`;
      return `${w.movedBoth}: ${fixture}: ${place(before)} ${w.arrow} ${place(m)}`;
    }
    case 'postponed':
      // The date it was due, said as such: a review read "Postponed: … (Sunday 29 November …)" as the new date.
      return `${w.postponed}: ${fixture}${w.aside(w.wasDue(place(c.before ?? m)))}`;
    case 'cancelled':
      return `${w.cancelled}: ${fixture}${w.aside(place(c.before ?? m))}`;
    case 'rescheduled':
      return `${w.rescheduled}: ${fixture}: ${place(m)}`;
    case 'new_fixture':
      return `${w.newFixture}: ${fixture}${w.comma}${place(m)}`;
  }
}

/** The change with each name in it passed through `name` (isolatedIn): teams, the winner, the next match, the venue. */
function namesOf(c: ToldChange, name: (s: string) => string): ToldChange {
  const seen = (m: SeenMatch | null): SeenMatch | null =>
    m && {
      ...m, home: name(m.home), away: name(m.away), venue: m.venue === null ? null : name(m.venue),
      winner: m.winner === null ? null : name(m.winner), next_label: m.next_label === null ? null : name(m.next_label),
    };
  const adjustment = c.adjustment && { ...c.adjustment, team: name(c.adjustment.team), reasons: c.adjustment.reasons.map(name) };
  return { ...c, before: seen(c.before), after: seen(c.after), champion: c.champion ? name(c.champion) : c.champion, ...(adjustment ? { adjustment } : {}) };
}

export function followUpdatesEmail(input: FollowUpdatesInput): RenderedEmail {
  const w = WORDS[input.language];
  const name = isolatedIn(input.language);
  const scope = scopeName(input.organizationName, input.leagueName ?? null, name);
  const when = (at: string | null) => formatDateTime(at, input.timeZone, input.language) ?? w.tbd;
  const subject = input.kind === 'alert' ? w.alertSubject(scope) : w.digestSubject(scope);
  const intro = input.kind === 'alert' ? w.alertIntro(scope) : w.intro(scope);
  const sections = input.competitions.map((c) => ({
    ...c,
    lines: c.changes.map((x) => changeLine(namesOf(x, name), w, when)),
    // A cancelled competition has nothing left to put in a calendar: no invitation to subscribe to it.
    links: c.changes.some((x) => x.kind === 'competition_cancelled') ? null : subscribeLinks(c.calendarUrl),
  }));
  return {
    subject,
    text: textBlock([
      intro,
      ...sections.flatMap((s) => [
        '',
        s.name,
        ...s.lines.map((l) => `- ${l}`),
        ...(s.links
          ? [`${w.calendar} ${safeUrl(s.links.webcal)}`, `${w.calendarLink}: ${safeUrl(s.links.https)}`, `${w.google}: ${safeUrl(s.links.google)}`]
          : []),
      ]),
      '',
      '--',
      `${w.unsubscribe} ${safeUrl(input.unsubscribeUrl)}`,
      w.why(scope),
    ]),
    html: layout({
      language: input.language,
      subject,
      preheader: intro,
      organizationName: input.organizationName,
      heading: input.kind === 'alert' ? w.alertHeading : w.digestHeading,
      intro: [t(intro)],
      sections: sections.map((s) => ({
        heading: s.name,
        items: s.lines.map((l) => html`${l}`),
        // In the order of the text part: the calendar app's link, the feed's, Google's. Named as the text part names
        // them: an accessibility review's links list read "link" once for each competition.
        closing: s.links ? html`${w.calendar} ${link(s.links.webcal, w.calendarApp)} · ${link(s.links.https, w.calendarLink)} · ${link(s.links.google, w.google)}` : null,
      })),
      footer: [html`${w.unsubscribe} ${link(input.unsubscribeUrl, w.unsubscribeLink)}`, t(w.why(scope))],
    }),
  };
}
