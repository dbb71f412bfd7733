// Every Arabic email speaks to its reader without a gender. Invitations go to players of girls' teams as well as boys',
// or to their mothers and fathers; follow emails and receipts to anyone. The Arabic once said "أنت مدعو" ("you, a
// boy, are invited"), "أخبر فريقك هل ستشارك", "غيّره", "أكِّد": a girl or a mother was addressed as a boy. Written
// unvowelled, the pronoun ـك, passive and impersonal verbs ("تمت دعوتك", "يُرجى الرد"), and "لـ" with a verbal noun
// ("لإضافة …:") read the same to both. This renders each Arabic email, in each of its variants, and fails on a
// masculine second-person form that was removed, so that none comes back.
import { describe, expect, it } from 'vitest';
import type { SeenMatch } from '../../updates/changes.js';
import { followConfirmationEmail } from './follow-confirmation.js';
import { followUpdatesEmail } from './follow-updates.js';
import type { RenderedEmail } from './layout.js';
import { registrationNoticeEmail } from './registration-notice.js';
import { registrationOverflowEmail } from './registration-overflow.js';
import { registrationReceiptEmail } from './registration-receipt.js';
import { rsvpChangeEmail, type RsvpChangeInput } from './rsvp-change.js';
import { rsvpInviteEmail } from './rsvp-invite.js';
import { rsvpWithdrawnEmail } from './rsvp-withdrawn.js';

/** An Arabic word on its own: not inside a longer word (\b does not know Arabic letters). */
const word = (w: string) => new RegExp(`(?<![\\p{L}\\p{M}])${w}(?![\\p{L}\\p{M}])`, 'u');

/** Masculine second-person forms the emails used, and the vowel marks that would fix a reader's gender. */
const MASCULINE: ReadonlyArray<readonly [string, RegExp]> = [
  ['"أنت" (read as a boy)', word('أنت')],
  ['"مدعو" (invited, masculine)', /مدعو/],
  ['"هل ستشارك" (will you, masculine)', /ستشارك/],
  ['"أخبر" (tell, imperative)', word('أخبر')],
  ['"لا تشاركه" (do not share, masculine)', /تشاركه/],
  ['"أضف" (add, imperative)', word('أضف')],
  ['"افتح" (open, imperative)', word('افتح')],
  ['"غيّره" (change it, imperative)', /غيّره/],
  ['"لم تردّ" (you have not answered, masculine)', /لم تردّ|لم ترد على/],
  ['"ردّ على" (reply, imperative)', /(?<![\p{L}\p{M}])ردّ على/u],
  ['"اكتب" (write, imperative)', word('اكتب')],
  ['"اذكر" (mention, imperative)', /(?<![\p{L}\p{M}])و?اذكر(?![\p{L}\p{M}])/u],
  ['"أكِّد" (confirm, imperative)', /أكِّد|أكّد/],
  ['"لم تطلب" (you did not ask, masculine)', /لم تطلب/],
  ['"تجاهل" as an imperative ("فتجاهل")', /فتجاهل/],
  ['"لا تريد" (you do not want, masculine)', /لا تريد/],
  ['"لأنك تتابع" (because you follow, masculine)', /نك تتابع/],
  ['"احتفظ" (keep, imperative)', /(?<![\p{L}\p{M}])ف?احتفظ(?![\p{L}\p{M}])/u],
  ['"لم تقدّم" (you did not submit, masculine)', /لم تقدّم|لم تقدم هذا/],
  ['ـكَ / ـكِ (a vowel mark fixing the gender of "you")', /ك[\u064E\u0650](?![\p{L}\p{M}])/u],
];

const seen: SeenMatch = {
  label: 'Semi-final', home: 'Riverside', away: 'Hillside', kickoff_at: '2026-03-07T18:30:00Z', venue: 'North Park', status: 'completed',
  home_score: 1, away_score: 0, home_penalties: null, away_penalties: null, walkover: null, after_extra_time: false, winner: 'Hillside', next_label: 'Final',
};
const planned: SeenMatch = { ...seen, status: 'scheduled', home_score: null, away_score: null, after_extra_time: false, winner: null, next_label: null };
const invite = {
  language: 'ar' as const, organizationName: 'أكاديمية جبل الحسين', memberName: 'ليان', homeName: 'Riverside', awayName: 'Hillside',
  kickoffAt: '2026-03-07T18:30:00Z', timeZone: 'Asia/Amman', venue: 'ملعب المدينة', eventName: 'دوري الناشئات', rsvpUrl: 'https://competitions.example/rsvp?token=t',
  sentAt: new Date('2026-03-01T09:00:00Z'),
};
const change: RsvpChangeInput = {
  ...invite, state: 'open', kickoffAt: '2026-03-08T15:00:00Z',
  before: { kickoffAt: '2026-03-07T18:30:00Z', venue: 'ملعب المدينة' }, response: 'yes',
};
const withdrawn = {
  language: 'ar' as const, organizationName: 'أكاديمية جبل الحسين', memberName: 'ليان', teamName: 'Old Mill', moved: false, homeName: 'Riverside', awayName: 'Old Mill',
  eventName: 'دوري الناشئات', timeZone: 'Asia/Amman', kickoffAt: '2026-03-07T18:30:00Z', venue: 'ملعب المدينة', response: 'yes' as const, contact: 'info@academy.example',
};
const updates = {
  language: 'ar' as const, timeZone: 'Asia/Amman', organizationName: 'أكاديمية جبل الحسين', leagueName: 'دوري الناشئات', unsubscribeUrl: 'https://competitions.example/follow/unsubscribe?token=u',
};
const notice = {
  language: 'ar' as const, organizationId: 'amman-yfa', organizationName: 'أكاديمية جبل الحسين', divisionName: 'تحت 12 سنة', registrationId: 'reg_abc',
  submittedAt: '2026-05-01T19:00:00Z', timeZone: 'Asia/Amman', playerName: 'Layan Haddad', playerNameAr: 'ليان حداد', email: 'mother@example.org',
  phone: '0791234567', dateOfBirth: '2015-03-04', guardianName: 'سلمى حداد', guardianPhone: '0797654321', hasNotes: true,
};
const receipt = {
  language: 'ar' as const, organizationName: 'أكاديمية جبل الحسين', divisionName: 'تحت 12 سنة', registrationId: 'reg_abc', submittedAt: '2026-05-01T19:00:00Z',
  timeZone: 'Asia/Amman', contact: 'info@academy.example',
};

const EMAILS: ReadonlyArray<readonly [string, () => RenderedEmail]> = [
  ['follow confirmation', () => followConfirmationEmail({ language: 'ar', organizationName: 'أكاديمية جبل الحسين', leagueName: 'دوري الناشئات', confirmUrl: 'https://competitions.example/follow/confirm?token=c', unsubscribeUrl: updates.unsubscribeUrl })],
  ['follow digest', () => followUpdatesEmail({ ...updates, kind: 'digest', competitions: [{ name: 'كأس الربيع', calendarUrl: 'https://competitions.example/api/v0/calendar/cup', changes: [{ kind: 'result', before: null, after: seen }] }] })],
  ['follow alert', () => followUpdatesEmail({ ...updates, kind: 'alert', competitions: [{ name: 'كأس الربيع', calendarUrl: 'https://competitions.example/api/v0/calendar/cup', changes: [{ kind: 'moved', before: planned, after: { ...planned, kickoff_at: '2026-03-08T18:30:00Z' } }] }] })],
  ['registration notice (to the organization)', () => registrationNoticeEmail(notice)],
  ['registration notice, the last before the cap', () => registrationNoticeEmail({ ...notice, lastBeforeCap: 200 })],
  ['registration summary past the cap', () => registrationOverflowEmail({ language: 'ar', organizationId: 'amman-yfa', organizationName: 'أكاديمية جبل الحسين', timeZone: 'Asia/Amman', since: '2026-05-01T19:00:00Z', count: 11, cap: 200 })],
  ['registration receipt, with a contact', () => registrationReceiptEmail(receipt)],
  ['registration receipt, without a contact', () => registrationReceiptEmail({ ...receipt, contact: null, divisionName: null })],
  ['RSVP invitation, team calendar', () => rsvpInviteEmail({ ...invite, calendarUrl: 'https://competitions.example/api/v0/calendar/team/t', calendarOf: 'team' })],
  ['RSVP invitation, competition calendar', () => rsvpInviteEmail({ ...invite, calendarUrl: 'https://competitions.example/api/v0/calendar/cup' })],
  ['RSVP invitation, postponed', () => rsvpInviteEmail({ ...invite, postponed: true })],
  ['RSVP change, new kickoff, answered', () => rsvpChangeEmail(change)],
  ['RSVP change, new kickoff and venue, not answered', () => rsvpChangeEmail({ ...change, venue: 'North Park', response: null })],
  ['RSVP change, postponed, answered', () => rsvpChangeEmail({ ...change, state: 'postponed', kickoffAt: null })],
  ['RSVP change, postponed, not answered', () => rsvpChangeEmail({ ...change, state: 'postponed', kickoffAt: null, response: null })],
  ['RSVP change, cancelled', () => rsvpChangeEmail({ ...change, state: 'cancelled' })],
  ['RSVP change, competition cancelled', () => rsvpChangeEmail({ ...change, state: 'competition_cancelled' })],
  ['RSVP change, back on', () => rsvpChangeEmail({ ...change, before: { ...change.before, cancelled: true } })],
  ['RSVP change, another opponent', () => rsvpChangeEmail({ ...change, before: { ...change.before, teams: { homeName: 'Riverside', awayName: 'Old Mill' } } })],
  ['RSVP change, opponent decided', () => rsvpChangeEmail({ ...change, before: { ...change.before, teams: { homeName: 'Riverside', awayName: 'يحدد لاحقًا' } } })],
  ['RSVP invitation withdrawn, the team out of the match', () => rsvpWithdrawnEmail(withdrawn)],
  ['RSVP invitation withdrawn, the member moved, no answer', () => rsvpWithdrawnEmail({ ...withdrawn, moved: true, teamName: 'Hillside', response: null })],
  ['RSVP invitation withdrawn, no contact, postponed', () => rsvpWithdrawnEmail({ ...withdrawn, contact: null, postponed: true, kickoffAt: null })],
];

describe('Arabic emails address their reader without a gender', () => {
  it.each(EMAILS)('%s', (_, render) => {
    const mail = render();
    // Not vacuous: an Arabic email, with its text and HTML.
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).toMatch(/[\u0600-\u06ff]/);
      const found = MASCULINE.filter(([, pattern]) => pattern.test(part)).map(([what]) => what);
      expect(found, part).toEqual([]);
    }
  });

  // The guard catches what it is meant to: each pattern against the wording it replaced.
  it.each([
    'أنت مدعو للمشاركة في مباراة',
    '⁨ليان⁩، هل ستشارك؟',
    'أخبر فريقك هل ستشارك:',
    'هذا الرابط خاص بك، فلا تشاركه مع أحد.',
    'أضف مباريات فريقك إلى تقويمك:',
    'إذا لم يُفتح «الرد على الدعوة»، افتح هذا العنوان في المتصفح:',
    'إذا لم يعد ردّك صالحًا، غيّره:',
    'لم تردّ على الدعوة بعد.',
    'إذا كان هذا خطأ، ردّ على هذه الرسالة أو اكتب إلى ⁨info@academy.example⁩.',
    'أكِّد متابعتك',
    'طلب أحدهم (ونأمل أن تكون أنت) متابعة',
    'إذا لم تطلب ذلك فتجاهل هذه الرسالة',
    'لا تريد رسائل منا؟',
    'تصلك هذه الرسالة لأنك تتابع ⁨دوري الناشئات⁩.',
    'احتفظ برقم الطلب إذا راسلتهم.',
    'إذا لم تقدّم هذا الطلب، يمكنك تجاهل هذه الرسالة',
    'شكرًا لكَ',
  ])('would catch %s', (old) => {
    expect(MASCULINE.some(([, pattern]) => pattern.test(old))).toBe(true);
  });
});
