// The emails' content: language, direction, escaping, links, and nothing loaded from elsewhere.
import type { SeenMatch } from '../../updates/changes.js';
import { describe, expect, it } from 'vitest';
import { followConfirmationEmail } from './follow-confirmation.js';
import { followUpdatesEmail } from './follow-updates.js';
import type { RenderedEmail } from './layout.js';
import { exportSinceDay, registrationNoticeEmail } from './registration-notice.js';
import { registrationOverflowEmail } from './registration-overflow.js';
import { registrationReceiptEmail } from './registration-receipt.js';
import { rsvpChangeEmail, type RsvpChangeInput } from './rsvp-change.js';
import { rsvpWithdrawnEmail } from './rsvp-withdrawn.js';
import { rsvpInviteEmail } from './rsvp-invite.js';

const CONFIRM = 'https://competitions.example/follow/confirm?token=abc123&lang=en';
const UNSUB = 'https://competitions.example/follow/unsubscribe?token=def456';
const RSVP = 'https://competitions.example/rsvp?token=ghi789';
const NASTY = `<script>alert("x")</script> & 'Co'`;
const ARABIC = /[\u0600-\u06ff]/;

/** Nothing in the HTML fetches anything: no images, stylesheets, fonts, frames or scripts. */
function expectSelfContained(html: string) {
  expect(html).not.toMatch(/<(img|link|script|iframe|object|embed|video|audio|source|style)\b/i);
  expect(html).not.toMatch(/\bsrc\s*=/i);
  expect(html).not.toMatch(/url\(|@import/i);
}

function expectWellFormedShell(mail: RenderedEmail, lang: 'en' | 'ar') {
  expect(mail.html).toMatch(/^<!DOCTYPE html>\n/);
  expect(mail.html).toContain(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">`);
  expect(mail.html).toContain('<meta charset="utf-8">');
  expect(mail.html).toContain(`<title>`);
  expect(mail.text.endsWith('\n')).toBe(true);
  expectSelfContained(mail.html);
}

describe('follow confirmation', () => {
  it('in English: names the scope, links confirm and unsubscribe, says ignoring is safe', () => {
    const mail = followConfirmationEmail({
      language: 'en',
      organizationName: 'Riverside FA',
      leagueName: 'Sunday League',
      confirmUrl: CONFIRM,
      unsubscribeUrl: UNSUB,
    });
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('Confirm you want to follow Sunday League (Riverside FA)');
    expect(mail.html).toContain(`href="${CONFIRM.replace('&', '&amp;')}"`);
    expect(mail.html).toContain(`href="${UNSUB}"`);
    expect(mail.html).toContain('Confirm follow');
    expect(mail.html).toContain('you will not be signed up');
    // The text part has no button: it says to open the link (a review read "confirm with the button below" there).
    expect(mail.text).toContain(`To start following, open this link and confirm:\n${CONFIRM}\n`);
    expect(mail.text).not.toContain('button');
    expect(mail.text).toContain(`Unsubscribe: ${UNSUB}`);
    // Not "you will not hear from us again": anyone can type the address into the form again (a review's finding).
    expect(mail.text).toContain('If you did not ask for this, ignore this email: you will not be signed up. If you keep getting these requests, the Unsubscribe link below stops them for 30 days.');
    expect(mail.text).not.toMatch(/<[a-z]/i);
  });

  it('in Arabic: right to left, Arabic text in both parts', () => {
    const mail = followConfirmationEmail({
      language: 'ar',
      organizationName: 'نادي الشارقة',
      leagueName: null,
      confirmUrl: CONFIRM,
      unsubscribeUrl: UNSUB,
    });
    expectWellFormedShell(mail, 'ar');
    expect(mail.subject).toBe('تأكيد متابعة \u2068نادي الشارقة\u2069');
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.html).toContain('text-align:right');
    expect(mail.html).not.toContain('text-align:left');
    expect(mail.html).toContain('تأكيد المتابعة');
    expect(mail.html).toContain('إلغاء الاشتراك');
    expect(mail.text).toMatch(ARABIC);
    expect(mail.text).toContain('لن تُفعَّل أي متابعة');
    expect(mail.text).not.toContain('الزر');
    expect(mail.text).toContain(CONFIRM);
    expect(mail.text).toContain(UNSUB);
    // No English sentences left in the Arabic mail (URLs and "UTC" aside).
    expect(mail.text.replace(/https?:\/\/\S+/g, '')).not.toMatch(/\b(the|you|confirm|follow)\b/i);
  });

  it('escapes names in the HTML and keeps them as typed in the text', () => {
    const mail = followConfirmationEmail({
      language: 'en',
      organizationName: NASTY,
      leagueName: 'A "B" & C',
      confirmUrl: CONFIRM,
      unsubscribeUrl: UNSUB,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;');
    expect(mail.html).toContain('A &quot;B&quot; &amp; C');
    expect(mail.text).toContain(NASTY);
    expectSelfContained(mail.html);
  });

  it('refuses links that are not http(s)', () => {
    expect(() =>
      followConfirmationEmail({ language: 'en', organizationName: 'X', confirmUrl: 'javascript:alert(1)', unsubscribeUrl: UNSUB }),
    ).toThrow();
  });
});

describe('RSVP invitation', () => {
  const base = {
    memberName: 'Sam',
    homeName: 'Riverside',
    awayName: 'Hillside',
    kickoffAt: '2026-03-07T18:30:00Z',
    venue: 'North Park, pitch 2',
    eventName: 'Spring Cup',
    rsvpUrl: RSVP,
  };

  it('in English: member, match, kickoff in UTC with the date, venue, link', () => {
    const mail = rsvpInviteEmail({ language: 'en', organizationName: 'Riverside FA', ...base });
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('Sam, can you make it? Riverside vs Hillside, 7 Mar');
    expect(mail.text).toContain('Hello Sam,');
    expect(mail.text).toContain('Match: Riverside vs Hillside');
    expect(mail.text).toContain('Kickoff: Saturday 7 March 2026, 18:30 UTC');
    expect(mail.text).toContain('Venue: North Park, pitch 2');
    expect(mail.text).toContain('Competition: Spring Cup');
    expect(mail.text).toContain(`\n${RSVP}\n`);
    expect(mail.html).toContain(`href="${RSVP}"`);
    expect(mail.html).toContain('Saturday 7 March 2026, 18:30 UTC');
    expect(mail.html).toContain('Riverside FA');
  });

  it('in Arabic: right to left, Arabic date words', () => {
    const mail = rsvpInviteEmail({ language: 'ar', organizationName: 'نادي الشارقة', ...base, memberName: 'سامي', venue: null });
    expectWellFormedShell(mail, 'ar');
    expect(mail.subject).toBe('\u2068سامي\u2069، هل يمكنك المشاركة؟ \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 7 مارس');
    expect(mail.text).toContain('مرحبًا \u2068سامي\u2069،');
    expect(mail.text).toContain('موعد الانطلاق: \u2068السبت 7 مارس 2026، الساعة 18:30 (UTC)\u2069');
    expect(mail.text).toContain('الملعب: \u2068سيُعلن لاحقًا\u2069');
    expect(mail.html).toContain('<bdi>\u2068Riverside\u2069 ضد \u2068Hillside\u2069</bdi>');
  });

  // A review's "Muath Masri Jr." and "Al-Salt S.C." showed their final full stop before their first letter in Arabic
  // emails: each name in an Arabic sentence is isolated (FSI … PDI), in the subject, the text and the HTML alike.
  it('in Arabic, isolates each name in its sentences; in English, leaves them as they are', () => {
    const names = { memberName: 'Muath Masri Jr.', awayName: 'Al-Salt S.C.' };
    const ar = rsvpInviteEmail({ language: 'ar', organizationName: 'نادي الشارقة', ...base, ...names });
    expect(ar.subject).toBe('\u2068Muath Masri Jr.\u2069، هل يمكنك المشاركة؟ \u2068Riverside\u2069 ضد \u2068Al-Salt S.C.\u2069، 7 مارس');
    expect(ar.text).toContain('مرحبًا \u2068Muath Masri Jr.\u2069،');
    expect(ar.html).toContain('مرحبًا \u2068Muath Masri Jr.\u2069،');
    const en = rsvpInviteEmail({ language: 'en', organizationName: 'Riverside FA', ...base, ...names });
    expect(en.subject + en.text + en.html).not.toMatch(/[\u2068\u2069]/);
    // A name closing a sentence with its own full stop gets no second one (a review read "Al-Salt S.C..").
    expect(en.text).toContain('You are invited to the match Riverside vs Al-Salt S.C.\n');
    expect(ar.text).toContain('تمت دعوتك للمشاركة في مباراة \u2068Riverside\u2069 ضد \u2068Al-Salt S.C.\u2069\n');
  });

  // An RSVP review: a parent with two children in one team got two invitations alike in subject, preview and title
  // ("Will you play? Old Mill Athletic vs Crown & Anchor FC, 6 Dec"), answered one and took the other for a duplicate.
  // The member's name comes first in each, always, in both languages (isolated in Arabic, as in the body).
  it("puts the member's name first in the subject, the preview and the HTML title, in both languages", () => {
    const preview = (html: string) => /<div style="display:none;[^"]*">([^<]*)<\/div>/.exec(html)![1]!;
    const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)![1];
    const ella = rsvpInviteEmail({ language: 'en', organizationName: 'Riverside FA', ...base, memberName: 'Ella Lowe' });
    const noah = rsvpInviteEmail({ language: 'en', organizationName: 'Riverside FA', ...base, memberName: 'Noah Lowe' });
    expect(ella.subject).toBe('Ella Lowe, can you make it? Riverside vs Hillside, 7 Mar');
    expect(noah.subject).toBe('Noah Lowe, can you make it? Riverside vs Hillside, 7 Mar');
    expect(preview(ella.html)).toBe('Ella Lowe · Riverside vs Hillside · Saturday 7 March 2026, 18:30 UTC');
    expect(preview(noah.html)).toMatch(/^Noah Lowe · /);
    expect(title(ella.html)).toBe(ella.subject);
    const ar = rsvpInviteEmail({ language: 'ar', organizationName: 'نادي الشارقة', ...base, memberName: 'إيلا لو' });
    expect(ar.subject).toBe('\u2068إيلا لو\u2069، هل يمكنك المشاركة؟ \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 7 مارس');
    expect(preview(ar.html)).toMatch(/^\u2068إيلا لو\u2069 · \u2068Riverside\u2069 ضد /);
    // Every later email about the match, to each of them, too.
    const change = { ...base, organizationName: 'Riverside FA', eventName: 'Spring Cup', timeZone: 'UTC', before: { kickoffAt: base.kickoffAt, venue: base.venue }, response: null };
    const moved = rsvpChangeEmail({ ...change, language: 'en', memberName: 'Ella Lowe', state: 'open', kickoffAt: '2026-03-08T15:00:00Z' });
    expect(moved.subject).toBe('Ella Lowe · New time: Riverside vs Hillside, 8 Mar');
    expect(preview(moved.html)).toMatch(/^Ella Lowe · Riverside vs Hillside · Sunday 8 March 2026, 15:00 UTC/);
    const cancelled = rsvpChangeEmail({ ...change, language: 'ar', memberName: 'إيلا لو', state: 'cancelled' });
    expect(cancelled.subject).toBe('\u2068إيلا لو\u2069 · أُلغيت: \u2068Riverside\u2069 ضد \u2068Hillside\u2069');
    expect(preview(cancelled.html)).toMatch(/^\u2068إيلا لو\u2069 · /);
  });

  // "7 Mar" for a match eleven months after the email reads as the coming 7 March: the year is said, in both emails.
  it('names the year in the subject of a match ten months or more after the email is sent', () => {
    const sentAt = new Date('2025-04-01T09:00:00Z');
    expect(rsvpInviteEmail({ language: 'en', ...base, sentAt }).subject).toBe('Sam, can you make it? Riverside vs Hillside, 7 Mar 2026');
    expect(rsvpInviteEmail({ language: 'ar', ...base, sentAt }).subject).toBe('\u2068Sam\u2069، هل يمكنك المشاركة؟ \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 7 مارس 2026');
    expect(rsvpInviteEmail({ language: 'en', ...base, sentAt: new Date('2025-11-01T09:00:00Z') }).subject).toBe('Sam, can you make it? Riverside vs Hillside, 7 Mar');
    const change = { ...base, organizationName: 'Riverside FA', timeZone: 'UTC', before: { kickoffAt: '2026-03-01T18:30:00Z', venue: base.venue }, response: null, state: 'open' as const };
    expect(rsvpChangeEmail({ ...change, language: 'en', sentAt }).subject).toBe('Sam · New time: Riverside vs Hillside, 7 Mar 2026');
  });

  it('postponed since it was queued: says so in English and Arabic, and shows no kickoff (the old one no longer holds)', () => {
    const en = rsvpInviteEmail({ language: 'en', organizationName: 'Riverside FA', ...base, postponed: true });
    expectWellFormedShell(en, 'en');
    expect(en.subject).toBe('Sam · Postponed: Riverside vs Hillside');
    expect(en.text).toContain('Kickoff: Postponed: new date to follow');
    expect(en.text).toContain('The match is postponed and its new date is not set yet. You can answer once it is:');
    expect(en.text + en.html).not.toMatch(/7 March|18:30/);
    const ar = rsvpInviteEmail({ language: 'ar', organizationName: 'نادي الشارقة', ...base, postponed: true });
    expectWellFormedShell(ar, 'ar');
    expect(ar.subject).toBe('\u2068Sam\u2069 · مؤجلة: \u2068Riverside\u2069 ضد \u2068Hillside\u2069');
    // Agreeing with its masculine label (a native Arabic review read "موعد الانطلاق: مؤجلة: …").
    expect(ar.text).toContain('موعد الانطلاق: \u2068مؤجَّل، يُحدَّد موعد جديد لاحقًا\u2069');
    expect(ar.text).toContain('أُجّلت المباراة ولم يُحدَّد موعدها الجديد بعد. يمكنك الرد عند تحديده:');
    expect(ar.text + ar.html).not.toMatch(/7 مارس|18:30/);
    // The organization's name isolated, as in the follow emails (a review: a Latin name ending in "S.C." read wrong).
    expect(ar.text).toContain('أُرسلت هذه الرسالة نيابةً عن \u2068نادي الشارقة\u2069.');
  });

  it("offers the competition's calendar as webcal, https and Google Calendar", () => {
    const feed = 'https://competitions.example/api/v0/calendar/spring-cup';
    const mail = rsvpInviteEmail({ language: 'en', ...base, calendarUrl: feed });
    expect(mail.text).toContain("Add the competition's matches to your calendar: webcal://competitions.example/api/v0/calendar/spring-cup");
    expect(mail.text).toContain(`Address to paste into another calendar: ${feed}`);
    expect(mail.text).toContain('Google Calendar: https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2Fcompetitions.example%2Fapi%2Fv0%2Fcalendar%2Fspring-cup');
    expect(mail.html).toContain('href="webcal://competitions.example/api/v0/calendar/spring-cup"');
    expect(rsvpInviteEmail({ language: 'en', ...base }).text).not.toContain('webcal:');
    // The member's team's feed, as invitations queue it now.
    const team = 'https://competitions.example/api/v0/teams/hillside/calendar';
    expect(rsvpInviteEmail({ language: 'en', ...base, calendarUrl: team, calendarOf: 'team' }).text).toContain(`Add your team's matches to your calendar: webcal://competitions.example/api/v0/teams/hillside/calendar`);
    expect(rsvpInviteEmail({ language: 'ar', ...base, calendarUrl: team, calendarOf: 'team' }).text).toContain('لإضافة مباريات فريقك إلى تقويمك:');
  });

  it("shows the kickoff in the organization's time zone, the subject's day included", () => {
    const mail = rsvpInviteEmail({ language: 'ar', ...base, kickoffAt: '2026-03-07T22:30:00Z', timeZone: 'Asia/Amman' });
    expect(mail.subject).toBe('\u2068Sam\u2069، هل يمكنك المشاركة؟ \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 8 آذار');
    expect(mail.text).toContain('موعد الانطلاق: \u2068الأحد 8 آذار 2026، الساعة 01:30 (GMT+3)\u2069');
  });

  it('says "to be announced" without a kickoff, and works without an organization name', () => {
    const mail = rsvpInviteEmail({ language: 'en', ...base, kickoffAt: null, eventName: null });
    expect(mail.subject).toBe('Sam, can you make it? Riverside vs Hillside');
    expect(mail.text).toContain('Kickoff: To be announced');
    expect(mail.text).not.toContain('Competition:');
    expect(mail.text).not.toContain('undefined');
    expect(mail.html).not.toContain('undefined');
    expect(mail.html).not.toContain('null');
  });

  it('escapes every name', () => {
    const mail = rsvpInviteEmail({ language: 'en', ...base, memberName: NASTY, homeName: '<b>H</b>', venue: '"V" & <i>' });
    expect(mail.html).not.toMatch(/<script>|<b>H|<i>/);
    expect(mail.html).toContain('&lt;b&gt;H&lt;/b&gt;');
    expect(mail.html).toContain('&quot;V&quot; &amp; &lt;i&gt;');
    expect(mail.text).toContain(`Hello ${NASTY},`);
  });
});

describe('registration receipt', () => {
  const base = { divisionName: 'Under 12', registrationId: 'reg_01HXYZ', submittedAt: '2026-03-07T22:30:00.000Z', timeZone: 'Asia/Amman', contact: null };

  it('in English: organization, division, reference, local date, next steps; no player name', () => {
    const mail = registrationReceiptEmail({ language: 'en', organizationName: 'Riverside FA', ...base });
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('Registration received: Riverside FA');
    for (const line of ['Organization: Riverside FA', 'Division: Under 12', 'Reference: reg_01HXYZ', 'Submitted: Sunday 8 March 2026, 01:30 GMT+3', 'What happens next?']) {
      expect(mail.text).toContain(line);
    }
    expect(mail.text).not.toMatch(/Player/);
    expect(mail.html).toContain('<bdi>reg_01HXYZ</bdi>');
    expect(mail.html).not.toContain('href=');
  });

  it('in Arabic, without a division', () => {
    const mail = registrationReceiptEmail({ language: 'ar', organizationName: 'نادي الشارقة', ...base, divisionName: null });
    expectWellFormedShell(mail, 'ar');
    expect(mail.text).toContain('الفئة: \u2068غير محددة\u2069');
    expect(mail.text).toContain('رقم الطلب: \u2068reg_01HXYZ\u2069');
    expect(mail.text).toContain('التاريخ: \u2068الأحد 8 آذار 2026، الساعة 01:30 (GMT+3)\u2069');
    expect(mail.text).toContain('ماذا بعد؟');
  });

  it('leaves the date out of a row queued before it was recorded', () => {
    const mail = registrationReceiptEmail({ language: 'en', organizationName: 'O', ...base, submittedAt: null });
    expect(mail.text).not.toContain('Submitted:');
  });

  // A parent's receipt said to keep the reference "if you write to them", and named no address: the organization's
  // contact_email, when it gave one, is where to write (and the Reply-To: src/mail/compose.ts).
  it.each([
    ['en', null, 'If you write to them, quote the reference above.', 'or let the organization know, quoting the reference.'],
    ['en', 'hello@riverside.example', 'To write to them (a correction, a question), reply to this email or write to hello@riverside.example, with the reference.',
      'or let the organization know, quoting the reference at hello@riverside.example.'],
    ['ar', null, 'يُرجى الاحتفاظ برقم الطلب لذكره عند مراسلتهم.', 'أو إبلاغ الجهة المنظِّمة برقم الطلب.'],
    ['ar', 'info@amman-yfa.example', 'لمراسلتهم (لتصحيح أو سؤال)، يُرجى الرد على هذه الرسالة أو الكتابة إلى \u2068info@amman-yfa.example\u2069، مع ذكر رقم الطلب.',
      'أو إبلاغ الجهة المنظِّمة برقم الطلب على \u2068info@amman-yfa.example\u2069.'],
  ] as const)('in %s with contact %s: where to write', (language, contact, next, notYou) => {
    const mail = registrationReceiptEmail({ language, organizationName: 'O', ...base, contact });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain(next);
      expect(part).toContain(notYou);
    }
  });
});

describe('registration summary past the cap', () => {
  const input = { language: 'en' as const, organizationId: 'amman-yfa', organizationName: 'Amman Youth FA', timeZone: 'Asia/Amman', since: '2026-05-02T10:01:00.250Z', count: 14, cap: 200 };
  it('says how many since when, in the organization\'s zone, and the export command from that instant', () => {
    const mail = registrationOverflowEmail(input);
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('More registrations: 14 since Saturday 2 May 2026, 13:01 GMT+3');
    expect(mail.text).toContain('Amman Youth FA has had 14 more registrations since Saturday 2 May 2026, 13:01 GMT+3.');
    expect(mail.text).toContain('  npm run registrations -- --org amman-yfa --since 2026-05-02T10:01:00.250Z --output registrations-amman-yfa-2026-05-02T100100Z.csv\n');
    expect(registrationOverflowEmail({ ...input, count: 1 }).text).toContain('has had 1 more registration since');
  });

  it('in Arabic, right to left, the count as Arabic counts it', () => {
    const mail = registrationOverflowEmail({ ...input, language: 'ar', organizationName: 'اتحاد عمّان' });
    expectWellFormedShell(mail, 'ar');
    expect(mail.text).toContain('وصل إلى \u2068اتحاد عمّان\u2069 14 طلبًا منذ');
    expect(registrationOverflowEmail({ ...input, language: 'ar', count: 2 }).subject).toMatch(/^طلبات تسجيل أخرى: طلبان منذ /);
  });
});

describe('registration notice', () => {
  const base = {
    organizationId: 'riverside', organizationName: 'Riverside FA', divisionName: 'Under 12', registrationId: 'reg_01HXYZ',
    submittedAt: '2026-03-07T22:30:00.000Z', timeZone: 'Asia/Amman', playerName: 'Alex Doe', playerNameAr: null,
    email: 'parent@example.org', phone: '+962 79 000 0000', dateOfBirth: '2014-05-06', guardianName: 'Sam Doe', guardianPhone: '+962 79 111 1111',
    hasNotes: true,
  };

  it('in English: everything the organization acts on, and the export command', () => {
    const mail = registrationNoticeEmail({ language: 'en', ...base });
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('New registration: Alex Doe, Under 12');
    for (const line of [
      'Player: Alex Doe', 'Division: Under 12', 'Email (as entered, not checked; replies go to it): parent@example.org', 'Phone: +962 79 000 0000', 'Date of birth: 6 May 2014',
      'Guardian: Sam Doe', "Guardian's phone: +962 79 111 1111", 'Reference: reg_01HXYZ', 'Received: Sunday 8 March 2026, 01:30 GMT+3',
      // 22:30Z on 7 March is 01:30 on 8 March in Amman: the command names the organization's day.
      'The person who registered added notes: they are not in this email, but are in the export the command below writes.', 'npm run registrations -- --org riverside --since 2026-03-08 --output registrations-riverside-2026-03-08.csv',
    ]) {
      expect(mail.text).toContain(line);
    }
  });

  it('in Arabic, leaving out what was not given, escaping the submitted text', () => {
    const mail = registrationNoticeEmail({
      language: 'ar', ...base, playerName: NASTY, playerNameAr: 'أحمد', phone: null, guardianName: null, guardianPhone: null, hasNotes: false,
    });
    expectWellFormedShell(mail, 'ar');
    // The Arabic name first, as every Arabic email names a person (the mail review), the name as typed after it.
    expect(mail.subject).toBe('طلب تسجيل جديد: \u2068أحمد\u2069، \u2068Under 12\u2069');
    expect(mail.text).toContain('اللاعب: \u2068أحمد\u2069');
    expect(mail.text).toContain('الاسم كما كُتب في خانة الاسم: \u2068');
    expect(mail.text).not.toContain('الاسم بالعربية');
    expect(mail.text).not.toContain('الهاتف:');
    expect(mail.text).not.toContain('وليّ الأمر');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).toContain('<code dir="ltr" style="overflow-wrap:anywhere;">npm run registrations -- --org riverside --since 2026-03-08 --output registrations-riverside-2026-03-08.csv</code>');
  });

  it.each([
    ['Arabic, both names given: the Arabic one leads', 'ar', 'يزن حداد', 'طلب تسجيل جديد: \u2068يزن حداد\u2069، \u2068Under 12\u2069',
      ['اللاعب: \u2068يزن حداد\u2069', 'الاسم كما كُتب في خانة الاسم: \u2068Yazan Haddad\u2069']],
    ['Arabic, no Arabic name: the name as typed', 'ar', null, 'طلب تسجيل جديد: \u2068Yazan Haddad\u2069، \u2068Under 12\u2069', ['اللاعب: \u2068Yazan Haddad\u2069']],
    ['English, both names given: the name, then the Arabic one', 'en', 'يزن حداد', 'New registration: Yazan Haddad, Under 12',
      ['Player: Yazan Haddad', 'Name in Arabic: يزن حداد']],
  ] as const)('names the player: %s', (_label, language, playerNameAr, subject, lines) => {
    const mail = registrationNoticeEmail({ language, ...base, playerName: 'Yazan Haddad', playerNameAr });
    expect(mail.subject).toBe(subject);
    for (const line of lines) expect(mail.text).toContain(line);
    expect(mail.text.match(/^(اللاعب|Player|الاسم|Name in)/gm)).toHaveLength(lines.length);
  });

  it('the last notice before the daily cap says so, in English and Arabic, in text and HTML', () => {
    const en = registrationNoticeEmail({ language: 'en', ...base, lastBeforeCap: 200 });
    const line = 'This is the last single notice this address gets until fewer than 200 have gone to it in 24 hours (its limit). Registrations after it are kept, and a summary of how many came is sent at most once an hour; the export command below lists them.';
    expect(en.text).toContain(line);
    expect(en.html).toContain(line);
    const ar = registrationNoticeEmail({ language: 'ar', ...base, lastBeforeCap: 200 });
    expect(ar.text).toContain('هذا آخر إشعار يصل إلى هذا العنوان خلال 24 ساعة (الحد 200 إشعار).');
    expect(registrationNoticeEmail({ language: 'en', ...base }).text).not.toContain('last notice');
  });

  // A registrations review's secretary found three registrations of one child in the export, weeks later.
  it('a repeat of an earlier registration names it and what the two share, in English and Arabic, in text and HTML', () => {
    const repeatOf = { id: 'reg_FIRST', submittedAt: '2026-03-01T09:15:00.000Z', by: 'date_of_birth' as const };
    const en = registrationNoticeEmail({ language: 'en', ...base, repeatOf });
    const line = 'This may be the same player as registration reg_FIRST, received on Sunday 1 March 2026, 12:15 GMT+3: the same name and date of birth. The export\'s same_player_as column names it too; the two were not merged.';
    expect(en.text).toContain(line);
    expect(en.html).toContain(line.replace("'", '&#39;'));
    expect(registrationNoticeEmail({ language: 'en', ...base, repeatOf: { ...repeatOf, by: 'email' } }).text).toContain('the same name and email address.');
    const ar = registrationNoticeEmail({ language: 'ar', ...base, repeatOf });
    expect(ar.text).toContain('قد يكون هذا الطلب للاعب نفسه في الطلب \u2068reg_FIRST\u2069 الذي وصل يوم ');
    expect(ar.text).toContain(': الاسم وتاريخ الميلاد متطابقان.');
    for (const none of [undefined, null]) expect(registrationNoticeEmail({ language: 'en', ...base, repeatOf: none }).text).not.toContain('same player');
  });

  // The command's --since is read as a day in the organization's zone (src/registrations/export.ts), so it must be
  // the registration's local day there: the UTC date missed evening registrations west of UTC.
  it.each([
    ['2026-05-02T02:00:00.000Z', 'America/New_York', '2026-05-01'], // 22:00 the day before (EDT)
    ['2026-01-02T04:59:59.999Z', 'America/New_York', '2026-01-01'], // 23:59:59 (EST)
    ['2026-01-02T05:00:00.000Z', 'America/New_York', '2026-01-02'], // midnight
    ['2026-03-07T22:30:00.000Z', 'Asia/Amman', '2026-03-08'], // east: the next day
    ['2026-03-07T22:30:00.000Z', 'UTC', '2026-03-07'],
    ['2026-06-30T23:30:00.000Z', 'Europe/London', '2026-07-01'], // BST
    ['2026-12-31T10:30:00.000Z', 'Pacific/Kiritimati', '2027-01-01'], // UTC+14: a new year already
    ['2026-01-01T10:30:00.000Z', 'Pacific/Pago_Pago', '2025-12-31'], // UTC−11: the old one still
    ['not a date', 'UTC', 'not a date'.slice(0, 10)], // a row that cannot be read keeps its own first ten characters
  ])('%s in %s → --since %s', (submittedAt, timeZone, day) => {
    expect(exportSinceDay(submittedAt, timeZone)).toBe(day);
  });
});

describe('follow updates', () => {
  const seen = {
    label: 'Semi-final', home: 'Riverside', away: 'Hillside', kickoff_at: '2026-03-07T18:30:00Z', venue: 'North Park', status: 'completed' as const,
    home_score: 1, away_score: 0, home_penalties: null, away_penalties: null, walkover: null, after_extra_time: true, winner: 'Hillside', next_label: 'Final',
  };
  const input = {
    language: 'en' as const, timeZone: 'Asia/Amman', kind: 'digest' as const, organizationName: 'Riverside FA', leagueName: null,
    unsubscribeUrl: UNSUB,
    competitions: [{ name: 'Spring Cup', calendarUrl: 'https://competitions.example/api/v0/calendar/spring-cup', changes: [{ kind: 'result' as const, before: null, after: seen }] }],
  };

  it("says extra time, and who goes through by the bracket's word (a second leg won 1-0 can lose the tie)", () => {
    const mail = followUpdatesEmail(input);
    expectWellFormedShell(mail, 'en');
    expect(mail.text).toContain('- Result: Riverside 1–0 Hillside (after extra time). Hillside go through to Final');
    expect(mail.text).toContain(`Stop these emails: ${UNSUB}`);
  });

  // A season review's table lost three points with nothing in any digest to say why.
  it.each([
    ['en', 0, -3, ['Fielded an ineligible player'], '- Points deducted: Dunmore, 3 points (Fielded an ineligible player)'],
    ['en', 0, 1, [], '- Points awarded: Dunmore, 1 point'],
    ['en', -3, -5, ['a', 'b'], '- Points adjustment: Dunmore: \u22123 → \u22125 in all (a; b)'],
    ['en', -3, 0, [], '- Points adjustment withdrawn: Dunmore (was \u22123)'],
    ['ar', 0, -3, ['إشراك لاعب غير مؤهل'], '- خصم نقاط: \u2068Dunmore\u2069، 3 نقاط — \u2068إشراك لاعب غير مؤهل\u2069'],
    ['ar', 0, -1, [], '- خصم نقاط: \u2068Dunmore\u2069، نقطة واحدة'],
    ['ar', -3, -5, [], '- تعديل النقاط: \u2068Dunmore\u2069: \u2066\u22123\u2069 ← \u2066\u22125\u2069 في المجموع'],
    ['ar', -3, 0, [], '- إلغاء تعديل النقاط: \u2068Dunmore\u2069 — كان \u2066\u22123\u2069'],
  ] as const)('a points adjustment in %s: %i → %i', (language, before, after, reasons, line) => {
    const adjustment = { team: 'Dunmore', before, after, reasons: [...reasons] };
    const mail = followUpdatesEmail({ ...input, language, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'adjustment', before: null, after: null, adjustment }] }] });
    expect(mail.text).toContain(line);
  });

  it('in Arabic, with the kickoff in the organization time zone', () => {
    const mail = followUpdatesEmail({ ...input, language: 'ar', competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'moved', before: seen, after: { ...seen, kickoff_at: '2026-03-08T18:30:00Z' } }] }] });
    expectWellFormedShell(mail, 'ar');
    // The venue did not move: said once, after the new time.
    expect(mail.text).toContain('- تغيير الموعد: \u2068Riverside\u2069 ضد \u2068Hillside\u2069: السبت 7 آذار 2026، الساعة 21:30 (GMT+3) ← الأحد 8 آذار 2026، الساعة 21:30 (GMT+3)، \u2068North Park\u2069\n');
  });

  // U+2192 is not mirrored (Unicode Bidi_Mirrored=No): in a right-to-left line "before → after" is shown with the
  // before on the right and the arrow pointing back at it, so an Arabic reader sees the change the wrong way round.
  it('in Arabic, a move points from before to after as read right to left (←), in the text and the HTML', () => {
    const mail = followUpdatesEmail({ ...input, language: 'ar', competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'moved', before: seen, after: { ...seen, kickoff_at: '2026-03-08T18:30:00Z' } }] }] });
    expect(mail.text).not.toContain('→');
    expect(mail.html).not.toContain('→');
    expect(mail.html).toContain('(GMT+3) ← الأحد 8 آذار 2026');
    const en = followUpdatesEmail({ ...input, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'moved', before: seen, after: { ...seen, kickoff_at: '2026-03-08T18:30:00Z' } }] }] });
    expect(en.text).toContain('- Time changed: Riverside vs Hillside: Saturday 7 March 2026, 21:30 GMT+3 → Sunday 8 March 2026, 21:30 GMT+3, North Park\n');
  });

  // A review read "Moved:" lines that repeated an unchanged venue (or time) on both sides, and took a new venue for a
  // new time too.
  it('a move says only what moved: the venue alone, or both', () => {
    const told = (after: Partial<typeof seen>) =>
      followUpdatesEmail({ ...input, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'moved', before: seen, after: { ...seen, ...after } }] }] }).text;
    expect(told({ venue: 'Harbour Park' })).toContain('- New venue: Riverside vs Hillside: North Park → Harbour Park, Saturday 7 March 2026, 21:30 GMT+3\n');
    expect(told({ venue: 'Harbour Park', kickoff_at: '2026-03-08T18:30:00Z' }))
      .toContain('- Time and venue changed: Riverside vs Hillside: Saturday 7 March 2026, 21:30 GMT+3, North Park → Sunday 8 March 2026, 21:30 GMT+3, Harbour Park\n');
    // In Arabic, the title says which moved: a native Arabic review read "تغيير الموعد أو الملعب" above a new time alone.
    const toldAr = (after: Partial<typeof seen>) =>
      followUpdatesEmail({ ...input, language: 'ar', competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'moved', before: seen, after: { ...seen, ...after } }] }] }).text;
    expect(toldAr({ kickoff_at: '2026-03-08T18:30:00Z' })).toContain('- تغيير الموعد: \u2068Riverside\u2069 ضد \u2068Hillside\u2069: السبت');
    expect(toldAr({ venue: 'Harbour Park' })).toContain('- ملعب جديد: \u2068Riverside\u2069 ضد \u2068Hillside\u2069: \u2068North Park\u2069 ← \u2068Harbour Park\u2069، السبت');
    expect(toldAr({ venue: 'Harbour Park', kickoff_at: '2026-03-08T18:30:00Z' }))
      .toContain('- تغيير الموعد والملعب: \u2068Riverside\u2069 ضد \u2068Hillside\u2069: السبت 7 آذار 2026، الساعة 21:30 (GMT+3)، \u2068North Park\u2069 ← الأحد 8 آذار 2026، الساعة 21:30 (GMT+3)، \u2068Harbour Park\u2069\n');
    for (const after of [{ kickoff_at: '2026-03-08T18:30:00Z' }, { venue: 'Harbour Park' }, { venue: 'Harbour Park', kickoff_at: '2026-03-08T18:30:00Z' }]) {
      expect(toldAr(after)).not.toContain('أو الملعب');
    }
  });

  // A review read "(الجمعة 27 تشرين الثاني 2026، الساعة 10:00 (GMT+3)، ستاد …)": brackets inside brackets.
  it('in Arabic, a postponed or cancelled match gives its time after a dash, not in brackets around the zone\'s', () => {
    for (const kind of ['postponed', 'cancelled'] as const) {
      const mail = followUpdatesEmail({ ...input, language: 'ar', competitions: [{ ...input.competitions[0]!, changes: [{ kind, before: seen, after: { ...seen, status: kind } }] }] });
      const was = kind === 'postponed' ? 'كان موعدها ' : '';
      expect(mail.text).toContain(`\u2068Hillside\u2069 — ${was}السبت 7 آذار 2026، الساعة 21:30 (GMT+3)، \u2068North Park\u2069\n`);
      const en = followUpdatesEmail({ ...input, competitions: [{ ...input.competitions[0]!, changes: [{ kind, before: seen, after: { ...seen, status: kind } }] }] });
      expect(en.text).toContain(`Riverside vs Hillside (${kind === 'postponed' ? 'was due ' : ''}Saturday 7 March 2026, 21:30 GMT+3, North Park)\n`);
    }
  });

  // A review read "Postponed: … (Sunday 29 November …)" as the new date.
  it('a postponement says a new date is to follow, and the date it was due as such', () => {
    const told = (language: 'en' | 'ar') => followUpdatesEmail({ ...input, language, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'postponed', before: seen, after: { ...seen, status: 'postponed' } }] }] }).text;
    expect(told('en')).toContain('- Postponed, new date to follow: Riverside vs Hillside (was due Saturday 7 March 2026, 21:30 GMT+3, North Park)\n');
    expect(told('ar')).toContain('- تأجيل، يحدد موعد جديد لاحقًا: \u2068Riverside\u2069 ضد \u2068Hillside\u2069 — كان موعدها السبت 7 آذار 2026');
  });

  // A review: a match put back on, a result withdrawn and a result corrected read as nothing, nothing and a new result.
  it('a match back on, a result withdrawn, a result corrected: each says what it was, in both languages', () => {
    const told = (language: 'en' | 'ar', kind: 'reinstated' | 'result_withdrawn' | 'result', before: SeenMatch, after: SeenMatch) =>
      followUpdatesEmail({ ...input, language, competitions: [{ ...input.competitions[0]!, changes: [{ kind, before, after }] }] }).text;
    const open: SeenMatch = { ...seen, status: 'scheduled', home_score: null, away_score: null, after_extra_time: false, winner: null };
    expect(told('en', 'reinstated', { ...open, status: 'cancelled' }, open))
      .toContain('- Back on, no longer cancelled: Riverside vs Hillside: Saturday 7 March 2026, 21:30 GMT+3, North Park\n');
    expect(told('ar', 'reinstated', { ...open, status: 'cancelled' }, open))
      .toContain('- أُعيدت المباراة بعد إلغائها: \u2068Riverside\u2069 ضد \u2068Hillside\u2069: السبت 7 آذار 2026، الساعة 21:30 (GMT+3)، \u2068North Park\u2069\n');
    const played: SeenMatch = { ...open, status: 'completed', home_score: 2, away_score: 1 };
    expect(told('en', 'result_withdrawn', played, open)).toContain('- Result withdrawn: Riverside vs Hillside (was 2–1)\n');
    // Taken back to be replayed elsewhere and later: where and when.
    expect(told('en', 'result_withdrawn', played, { ...open, kickoff_at: '2026-03-14T18:30:00Z', venue: 'South Park' }))
      .toContain('- Result withdrawn: Riverside vs Hillside (was 2–1): Saturday 14 March 2026, 21:30 GMT+3, South Park\n');
    expect(told('ar', 'result_withdrawn', played, open)).toContain('- سُحبت النتيجة: \u2068Riverside\u2069 ضد \u2068Hillside\u2069 — كانت 2–1\n');
    expect(told('en', 'result_withdrawn', { ...open, status: 'completed', walkover: 'away' }, open)).toContain('- Result withdrawn: Riverside vs Hillside (was walkover: Hillside)\n');
    // A native Arabic review read "(انسحاب: ⁨Hillside⁩)" as Hillside having withdrawn: the winner is said as such.
    const walkover: SeenMatch = { ...open, status: 'completed', walkover: 'away' };
    expect(told('ar', 'result_withdrawn', walkover, open)).toContain('- سُحبت النتيجة: \u2068Riverside\u2069 ضد \u2068Hillside\u2069 — كانت فوز \u2068Hillside\u2069 بالانسحاب\n');
    expect(told('ar', 'result', open, walkover)).toContain('- النتيجة: \u2068Riverside\u2069 ضد \u2068Hillside\u2069 (فوز \u2068Hillside\u2069 بالانسحاب)\n');
    expect(told('en', 'result', open, walkover)).toContain('- Result: Riverside vs Hillside (walkover: Hillside)\n');
    expect(told('en', 'result', played, { ...played, home_score: 1, away_score: 1, home_penalties: 4, away_penalties: 3 }))
      .toContain('- Result: Riverside 1–1 Hillside (4–3 pens) (was 2–1). Riverside go through to Final\n');
    // A native Arabic review read "(4–3 ركلات الترجيح)" as a count of kicks.
    expect(told('ar', 'result', played, { ...played, home_score: 1, away_score: 1, home_penalties: 4, away_penalties: 3 }))
      .toContain('- النتيجة: \u2068Riverside\u2069 1–1 \u2068Hillside\u2069 (بركلات الترجيح 4–3) — كانت 2–1. ');
    expect(told('ar', 'result_withdrawn', { ...played, home_score: 1, away_score: 1, home_penalties: 4, away_penalties: 3 }, open))
      .toContain('— كانت 1–1 (بركلات الترجيح 4–3)\n');
    // A first result says nothing of a before.
    expect(told('en', 'result', open, played)).toContain('- Result: Riverside 2–1 Hillside. Riverside go through to Final\n');
  });

  it('a new competition: how many matches, and when the next is, in both languages', () => {
    const told = (language: 'en' | 'ar', matches: number, nextKickoff: string | null) =>
      followUpdatesEmail({ ...input, language, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'new_competition', before: null, after: null, matches, nextKickoff }] }] }).text;
    expect(told('en', 12, '2026-03-07T07:00:00Z')).toContain('- New competition on the calendar: 12 matches, the next on Saturday 7 March 2026, 10:00 GMT+3\n');
    expect(told('en', 1, null)).toContain('- New competition on the calendar: 1 match\n');
    expect(told('ar', 12, '2026-03-07T07:00:00Z')).toContain('- مسابقة جديدة في التقويم: 12 مباراة، أقربها السبت 7 آذار 2026، الساعة 10:00 (GMT+3)\n');
    expect(told('ar', 2, null)).toContain('- مسابقة جديدة في التقويم: مباراتان\n');
    // One match: its date, not "the nearest of them" (a native Arabic review).
    expect(told('ar', 1, '2026-03-07T07:00:00Z')).toContain('- مسابقة جديدة في التقويم: مباراة واحدة، موعدها السبت 7 آذار 2026، الساعة 10:00 (GMT+3)\n');
    expect(told('en', 1, '2026-03-07T07:00:00Z')).toContain('- New competition on the calendar: 1 match, the next on Saturday 7 March 2026, 10:00 GMT+3\n');
    // A change recorded before its size was: as before.
    expect(followUpdatesEmail({ ...input, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'new_competition', before: null, after: null }] }] }).text).toContain('- New competition on the calendar\n');
  });

  // A native Arabic review read "⁨X⁩ بطل المسابقة" as unnatural: the title first, as a label.
  it('the champion, in both languages', () => {
    const told = (language: 'en' | 'ar') =>
      followUpdatesEmail({ ...input, language, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'champion', before: null, after: null, champion: 'Hillside' }] }] }).text;
    expect(told('en')).toContain('- Hillside are the champions\n');
    expect(told('ar')).toContain('- بطل المسابقة: \u2068Hillside\u2069\n');
  });

  it('a competition cancelled: one line saying so, in both languages', () => {
    const cancelled = (language: 'en' | 'ar') => followUpdatesEmail({ ...input, language, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'competition_cancelled', before: null, after: null }] }] });
    expect(cancelled('en').text).toContain('Spring Cup\n- The competition is cancelled: its remaining matches will not be played\n');
    expect(cancelled('ar').text).toContain('Spring Cup\n- أُلغيت المسابقة: لن تُلعب مبارياتها المتبقية\n');
    // Put back on: one line too, and its calendar offered again.
    const back = (language: 'en' | 'ar') => followUpdatesEmail({ ...input, language, competitions: [{ ...input.competitions[0]!, changes: [{ kind: 'competition_reinstated', before: null, after: null }] }] });
    expect(back('en').text).toContain('Spring Cup\n- The competition is back on, no longer cancelled: its remaining matches will be played\nAdd this competition\'s calendar: webcal://');
    expect(back('ar').text).toContain('Spring Cup\n- أُعيدت المسابقة بعد إلغائها: ستُلعب مبارياتها المتبقية\n');
    // A review: its section still offered to add its calendar. The other competitions of the digest keep theirs.
    const both = followUpdatesEmail({ ...input, competitions: [
      { ...input.competitions[0]!, changes: [{ kind: 'competition_cancelled', before: null, after: null }] },
      { ...input.competitions[0]!, name: 'Autumn League', calendarUrl: 'https://competitions.example/api/v0/calendar/autumn.ics', changes: [{ kind: 'new_competition', before: null, after: null }] },
    ] });
    for (const part of [both.text, both.html]) {
      expect(part).not.toContain(input.competitions[0]!.calendarUrl.replace('https://', ''));
      expect(part).toContain('competitions.example/api/v0/calendar/autumn.ics');
    }
    // An accessibility review: the changes were one paragraph of lines joined by <br>. Each competition is a heading
    // and a list, one item per change, as the text part's "- " bullets.
    expect(both.html.match(/<h2[^>]*>[^<]*<\/h2><ul[^>]*><li[^>]*>/g)).toHaveLength(2);
    expect(both.html).toMatch(/<h2[^>]*>Autumn League<\/h2><ul[^>]*><li[^>]*>New competition[^<]*<\/li><\/ul>/);
    expect(both.html).not.toMatch(/<br>\s*(New competition|The competition is cancelled)/);
  });
});

// An accessibility review of every email, rendered in Chromium at 320 px and with text at 200%, read by a screen reader.
describe('emails read with assistive technology and enlarged text', () => {
  const inviteBase = {
    organizationName: 'Riverside FA', memberName: 'Sam', homeName: 'Riverside', awayName: 'Hillside', kickoffAt: '2026-03-07T18:30:00Z',
    venue: 'North Park, pitch 2', eventName: 'Spring Cup', rsvpUrl: RSVP,
  };
  const updatesInput = {
    language: 'en' as const, timeZone: 'UTC', kind: 'digest' as const, organizationName: 'Riverside FA', leagueName: null, unsubscribeUrl: UNSUB,
    competitions: [{ name: 'Spring Cup', calendarUrl: 'https://competitions.example/api/v0/calendar/spring-cup', changes: [] }],
  };

  it('gives each fact its own lines, the label above its value, wrapping a long value', () => {
    const mail = registrationReceiptEmail({ language: 'en', organizationName: 'Riverside FA', divisionName: 'Under 12', registrationId: 'reg_kvpoMPH9l9d7YDFA', submittedAt: null, timeZone: 'UTC', contact: null });
    // Side by side, "Organization" ran into "Riverside FA" and the reference widened the email past a phone's screen.
    expect(mail.html).not.toContain('width:38%');
    expect(mail.html).toMatch(/<div style="[^"]*">Reference<\/div><div style="[^"]*overflow-wrap:anywhere;[^"]*"><bdi>reg_kvpoMPH9l9d7YDFA<\/bdi><\/div>/);
    // The reference a parent quotes in a monospace font, where l, I and 1 differ; nothing else is.
    expect(mail.html).toMatch(/<div style="[^"]*font-family:ui-monospace[^"]*"><bdi>reg_kvpoMPH9l9d7YDFA<\/bdi>/);
    expect(mail.html.match(/font-family:ui-monospace/g)).toHaveLength(1);
  });

  it("puts a button's address right under it, naming the button as a screen reader does", () => {
    const mail = rsvpInviteEmail({ ...inviteBase, language: 'en', calendarUrl: 'https://competitions.example/api/v0/calendar/spring-cup' });
    const button = mail.html.indexOf('>Answer the invitation</a>');
    const fallback = mail.html.indexOf('If “Answer the invitation” does not open, open this address in your browser:');
    expect(button).toBeGreaterThan(0);
    expect(fallback).toBeGreaterThan(button);
    // Before the calendar links, not after them, where it passed for a fourth one.
    expect(mail.html.indexOf('webcal://')).toBeGreaterThan(fallback);
    expect(mail.html).not.toContain('the button');
    const ar = followConfirmationEmail({ language: 'ar', organizationName: 'نادي الشارقة', leagueName: null, confirmUrl: CONFIRM, unsubscribeUrl: UNSUB });
    expect(ar.html).toContain('إذا لم يُفتح «تأكيد المتابعة»، فيُرجى فتح هذا العنوان في المتصفح:');
    expect(ar.html).not.toContain('الزر');
  });

  it("names a digest's calendar links as its text part does, not \"link\"", () => {
    const mail = followUpdatesEmail({ ...updatesInput });
    expect(mail.html).toMatch(/>calendar app<\/a> · <a [^>]+>Address to paste into another calendar<\/a> · <a [^>]+>Google Calendar<\/a>/);
    expect(mail.html).not.toContain('>link</a>');
  });

  it("makes the receipt's \"What happens next?\" a heading", () => {
    const mail = registrationReceiptEmail({ language: 'en', organizationName: 'Riverside FA', divisionName: null, registrationId: 'reg_01HXYZ', submittedAt: null, timeZone: 'UTC', contact: null });
    expect(mail.html).toMatch(/<h2 [^>]*>What happens next\?<\/h2>/);
  });
});

describe('RSVP change', () => {
  const base: RsvpChangeInput = {
    language: 'en',
    organizationName: 'Riverside FA',
    memberName: 'Sam',
    homeName: 'Riverside',
    awayName: 'Hillside',
    eventName: 'Spring Cup',
    timeZone: 'UTC',
    state: 'open',
    kickoffAt: '2026-03-08T15:00:00Z',
    venue: 'North Park, pitch 2',
    before: { kickoffAt: '2026-03-07T18:30:00Z', venue: 'North Park, pitch 2' },
    response: 'yes',
    rsvpUrl: RSVP,
  };

  it('a new kickoff, in English: the new time and the old, the venue unchanged, the answer so far and the link', () => {
    const mail = rsvpChangeEmail(base);
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('Sam · New time: Riverside vs Hillside, 8 Mar');
    expect(mail.text).toContain('Riverside vs Hillside has a new kickoff.');
    expect(mail.text).toContain('Kickoff: Sunday 8 March 2026, 15:00 UTC (was Saturday 7 March 2026, 18:30 UTC)');
    expect(mail.text).toContain('Venue: North Park, pitch 2\n');
    expect(mail.text).toContain('Your answer so far: Yes.');
    expect(mail.text).toContain(`\n${RSVP}\n`);
    expect(mail.html).toContain(`href="${RSVP}"`);
    expect(mail.html).toContain('Change your answer');
    expect(mail.text).toContain('Sent on behalf of Riverside FA.');
  });

  it('a new kickoff and venue, in Arabic, right to left, not answered yet', () => {
    const mail = rsvpChangeEmail({ ...base, language: 'ar', organizationName: 'نادي الشارقة', memberName: 'سامي', venue: 'ملعب المدينة', response: null });
    expectWellFormedShell(mail, 'ar');
    expect(mail.subject).toBe('\u2068سامي\u2069 · موعد وملعب جديدان: \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 8 مارس');
    expect(mail.text).toContain('أُرسلت هذه الرسالة نيابةً عن \u2068نادي الشارقة\u2069.');
    // Both changed: both in the subject, in English too (a review's said only the time).
    expect(rsvpChangeEmail({ ...base, venue: 'City Ground' }).subject).toBe('Sam · New time and venue: Riverside vs Hillside, 8 Mar');
    expect(mail.text).toContain('تغيّر موعد مباراة \u2068Riverside\u2069 ضد \u2068Hillside\u2069 وملعبها.');
    // Not in brackets, as the digest: an Arabic time ends with its zone in brackets (an accessibility review).
    expect(mail.text).toContain('الملعب: \u2068ملعب المدينة — بدلًا من North Park, pitch 2\u2069');
    expect(mail.text).toContain('لم يُسجَّل ردّك على الدعوة بعد.');
    expect(mail.html).toContain('الرد على الدعوة');
  });

  it('back on after a postponement, at the kickoff it had: the kickoff is the news', () => {
    const mail = rsvpChangeEmail({ ...base, kickoffAt: base.before.kickoffAt, before: { ...base.before, postponed: true } });
    expect(mail.subject).toBe('Sam · New time: Riverside vs Hillside, 7 Mar');
    expect(mail.text).toContain('Kickoff: Saturday 7 March 2026, 18:30 UTC (was postponed)');
    const ar = rsvpChangeEmail({ ...base, language: 'ar', kickoffAt: base.before.kickoffAt, before: { ...base.before, postponed: true } });
    // Agreeing with its label, the kickoff (a native Arabic review read "(كانت مؤجلة)" under "موعد الانطلاق").
    expect(ar.text).toContain('موعد الانطلاق: \u2068السبت 7 مارس 2026، الساعة 18:30 (UTC) — كان مؤجَّلًا\u2069');
    expect(ar.text).not.toContain('بدلًا من مؤجلة');
  });

  // A review: players told "cancelled" were never told the match was played after all, and stayed home.
  it('back on after a cancellation: said so, with its kickoff and the link to answer again, in both languages', () => {
    const mail = rsvpChangeEmail({ ...base, kickoffAt: base.before.kickoffAt, before: { ...base.before, cancelled: true } });
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('Sam · Back on: Riverside vs Hillside, 7 Mar');
    expect(mail.text).toContain('Riverside vs Hillside is no longer cancelled: it will be played.');
    expect(mail.text).toContain('Kickoff: Saturday 7 March 2026, 18:30 UTC (was cancelled)');
    expect(mail.text).toContain(`\n${RSVP}\n`);
    const ar = rsvpChangeEmail({ ...base, language: 'ar', kickoffAt: base.before.kickoffAt, before: { ...base.before, cancelled: true } });
    expectWellFormedShell(ar, 'ar');
    expect(ar.subject).toBe('\u2068Sam\u2069 · أُعيدت: \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 7 مارس');
    expect(ar.text).toContain('لم تعد مباراة \u2068Riverside\u2069 ضد \u2068Hillside\u2069 ملغاة: ستُلعب.');
    expect(ar.text).toContain('(UTC) — كانت المباراة ملغاة');
  });

  it('postponed: no kickoff, the answer kept; cancelled: no link and no answer', () => {
    const postponed = rsvpChangeEmail({ ...base, state: 'postponed', kickoffAt: base.before.kickoffAt });
    expect(postponed.subject).toBe('Sam · Postponed: Riverside vs Hillside');
    expect(postponed.text).toContain('Kickoff: Postponed: new date to follow');
    expect(postponed.text).not.toMatch(/7 March|18:30/);
    expect(postponed.text).toContain('Your answer is kept; you can change it once the new date is set:');
    const unanswered = rsvpChangeEmail({ ...base, state: 'postponed', response: null });
    expect(unanswered.text).toContain('You have not answered yet.\nYou can answer once the new date is set:');
    expect(unanswered.text).not.toContain('kept');
    const ar = rsvpChangeEmail({ ...base, language: 'ar', state: 'postponed', kickoffAt: base.before.kickoffAt });
    expect(ar.text).toContain('موعد الانطلاق: \u2068مؤجَّل، يُحدَّد موعد جديد لاحقًا\u2069');
    for (const state of ['cancelled', 'competition_cancelled'] as const) {
      const mail = rsvpChangeEmail({ ...base, state });
      expectWellFormedShell(mail, 'en');
      expect(mail.subject).toBe('Sam · Cancelled: Riverside vs Hillside');
      expect(mail.text + mail.html).not.toContain(RSVP);
      expect(mail.text).not.toMatch(/Kickoff:|answer/);
      // Which fixture: when it was to be played.
      expect(mail.text).toContain('Was to kick off: Sunday 8 March 2026, 15:00 UTC');
    }
    expect(rsvpChangeEmail({ ...base, state: 'competition_cancelled' }).text).toContain('The competition is cancelled: Riverside vs Hillside will not be played.');
  });

  // A season review: a corrected quarter-final put another team in the semi-final's slot, and its other side's
  // players, who had said yes, were never told whom they played.
  describe('another opponent', () => {
    const teams = { homeName: 'Riverside', awayName: 'Old Mill' };
    const asTold = { ...base, kickoffAt: base.before.kickoffAt, before: { ...base.before, teams } };

    it('alone: the teams now beside those told, the answer and the link, in both languages', () => {
      const mail = rsvpChangeEmail(asTold);
      expectWellFormedShell(mail, 'en');
      expect(mail.subject).toBe('Sam · New opponent: Riverside vs Hillside, 7 Mar');
      expect(mail.text).toContain('Your opponent has changed: Hillside instead of Old Mill.\n');
      expect(mail.text).toContain('Match: Riverside vs Hillside (was Riverside vs Old Mill)');
      expect(mail.text).toContain('Kickoff: Saturday 7 March 2026, 18:30 UTC\n');
      expect(mail.text).toContain('If your answer no longer holds, change it:');
      expect(mail.text).toContain(`\n${RSVP}\n`);
      const ar = rsvpChangeEmail({ ...asTold, language: 'ar' });
      expectWellFormedShell(ar, 'ar');
      expect(ar.subject).toBe('\u2068Sam\u2069 · منافس جديد: \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 7 مارس');
      expect(ar.text).toContain('تغيّر منافسك: \u2068Hillside\u2069 بدلًا من \u2068Old Mill\u2069.\n');
      expect(ar.text).toContain('بدلًا من \u2068Riverside\u2069 ضد \u2068Old Mill\u2069');
    });

    it('a slot decided: the opponent named as decided; both sides changed (one renamed): the match now', () => {
      const decided = rsvpChangeEmail({ ...asTold, before: { ...asTold.before, teams: { ...teams, awayName: 'To be decided' } } });
      expect(decided.subject).toBe('Sam · Opponent confirmed: Riverside vs Hillside, 7 Mar');
      expect(decided.text).toContain('Your opponent has been confirmed: Hillside.\n');
      expect(decided.text).toContain('Match: Riverside vs Hillside (was Riverside vs To be decided)');
      const ar = rsvpChangeEmail({ ...asTold, language: 'ar', before: { ...asTold.before, teams: { ...teams, awayName: 'يحدد لاحقًا' } } });
      expect(ar.subject).toBe('\u2068Sam\u2069 · تم تحديد المنافس: \u2068Riverside\u2069 ضد \u2068Hillside\u2069، 7 مارس');
      expect(ar.text).toContain('تم تحديد منافسك: \u2068Hillside\u2069.\n');
      // A result withdrawn: the slot undecided again.
      const undecided = rsvpChangeEmail({ ...asTold, awayName: 'To be decided' });
      expect(undecided.subject).toBe('Sam · Opponent no longer confirmed: Riverside vs To be decided, 7 Mar');
      expect(undecided.text).toContain('Your opponent is no longer confirmed (it was Old Mill); you will be told once it is.\n');
      expect(rsvpChangeEmail({ ...asTold, language: 'ar', awayName: 'يحدد لاحقًا' }).text).toContain('لم يعد منافسك محدَّدًا (كان \u2068Old Mill\u2069)، وستصلك رسالة عند تحديده.');
      const arUndecided = rsvpChangeEmail({ ...asTold, language: 'ar', awayName: 'يحدد لاحقًا', state: 'postponed', before: { ...asTold.before, postponed: true } });
      expect(arUndecided.subject).toBe('\u2068Sam\u2069 · لم يعد المنافس محدَّدًا: \u2068Riverside\u2069 ضد \u2068يحدد لاحقًا\u2069');
      expect(arUndecided.text).toContain('، وستصلك رسالة عند تحديده. كما أن المباراة مؤجلة، وسنبلغك بموعدها الجديد عند تحديده.');
      // A name ending in a full stop closes the sentence (a review read "Al-Salt S.C..").
      expect(rsvpChangeEmail({ ...asTold, awayName: 'Al-Salt S.C.' }).text).toContain('Your opponent has changed: Al-Salt S.C. instead of Old Mill.\n');
      expect(rsvpChangeEmail({ ...asTold, before: { ...asTold.before, teams: { ...teams, awayName: 'To be decided' } }, awayName: 'Al-Salt S.C.' }).text)
        .toContain('Your opponent has been confirmed: Al-Salt S.C.\n');
      const both = rsvpChangeEmail({ ...asTold, homeName: 'Riverside Juniors' });
      expect(both.text).toContain('Your opponent has changed: the match is now Riverside Juniors vs Hillside.\n');
    });

    // A slot nobody holds is named as the calendar names it ("Winner of Quarter-final 2"): told apart by its team id,
    // null, not by its name, which the bracket renumbers.
    it('with team ids: a slot named by what decides it is undecided, and its renaming no news', () => {
      const ids = { homeId: 'riv', awayId: 'hill' };
      const slot = { ...teams, homeId: 'riv', awayId: null, awayName: 'Winner of Quarter-final 2' };
      const decided = rsvpChangeEmail({ ...asTold, ...ids, before: { ...asTold.before, teams: slot } });
      expect(decided.subject).toBe('Sam · Opponent confirmed: Riverside vs Hillside, 7 Mar');
      expect(decided.text).toContain('Your opponent has been confirmed: Hillside.\n');
      expect(decided.text).toContain('Match: Riverside vs Hillside (was Riverside vs Winner of Quarter-final 2)');
      const undecided = rsvpChangeEmail({ ...asTold, homeId: 'riv', awayId: null, awayName: 'Winner of Quarter-final 3', before: { ...asTold.before, teams: { ...teams, homeId: 'riv', awayId: 'mill' } } });
      expect(undecided.subject).toBe('Sam · Opponent no longer confirmed: Riverside vs Winner of Quarter-final 3, 7 Mar');
      expect(undecided.text).toContain('Your opponent is no longer confirmed (it was Old Mill); you will be told once it is.\n');
      // One side held by another team, the undecided slot renumbered: the one side that changed, by team.
      const renumbered = rsvpChangeEmail({
        ...asTold, homeId: 'juniors', homeName: 'Riverside Juniors', awayId: null, awayName: 'Winner of Quarter-final 3',
        before: { ...asTold.before, teams: slot },
      });
      expect(renumbered.text).toContain('Your opponent has changed: Riverside Juniors instead of Riverside.\n');
    });

    it('with a new kickoff: both said', () => {
      const mail = rsvpChangeEmail({ ...base, before: { ...base.before, teams } });
      expect(mail.subject).toBe('Sam · New opponent: Riverside vs Hillside, 8 Mar');
      expect(mail.text).toContain('Your opponent has changed: Hillside instead of Old Mill. Its kickoff has changed too.');
      expect(mail.text).toContain('Kickoff: Sunday 8 March 2026, 15:00 UTC (was Saturday 7 March 2026, 18:30 UTC)');
      expect(rsvpChangeEmail({ ...base, language: 'ar', before: { ...base.before, teams } }).text).toContain('كما تغيّر موعد المباراة.');
    });

    it('still postponed: the opponent is the news; newly postponed: the postponement; cancelled: only that', () => {
      const still = rsvpChangeEmail({ ...asTold, state: 'postponed', before: { ...asTold.before, postponed: true } });
      expect(still.subject).toBe('Sam · New opponent: Riverside vs Hillside');
      expect(still.text).toContain('Your opponent has changed: Hillside instead of Old Mill. It is postponed: you will be told its new date.');
      const newly = rsvpChangeEmail({ ...asTold, state: 'postponed' });
      expect(newly.subject).toBe('Sam · Postponed: Riverside vs Hillside');
      expect(newly.text).toContain('Match: Riverside vs Hillside (was Riverside vs Old Mill)');
      const cancelled = rsvpChangeEmail({ ...asTold, state: 'cancelled' });
      expect(cancelled.subject).toBe('Sam · Cancelled: Riverside vs Hillside');
      expect(cancelled.text).not.toContain('Old Mill');
    });
  });
});

describe('RSVP invitation withdrawn', () => {
  const base = {
    language: 'en' as const, organizationName: 'Riverside FA', memberName: 'Sam', teamName: 'Old Mill', moved: false, homeName: 'Riverside', awayName: 'Old Mill',
    eventName: 'Spring Cup', timeZone: 'UTC', kickoffAt: '2026-03-07T18:30:00Z', venue: 'North Park', response: 'yes' as const, contact: null,
  };

  it('in English: the match as invited, the answer no longer counted, no link; a reply offered only with a contact', () => {
    const mail = rsvpWithdrawnEmail(base);
    expectWellFormedShell(mail, 'en');
    expect(mail.subject).toBe('Sam · Invitation withdrawn: Riverside vs Old Mill, 7 Mar');
    expect(mail.text).toContain('Old Mill no longer plays in Riverside vs Old Mill (the fixtures have changed), so Riverside FA has withdrawn your invitation to it.');
    // Moved to another team: said as such (a review's player read that his old team, which still played, did not).
    expect(rsvpWithdrawnEmail({ ...base, moved: true, teamName: 'Hillside' }).text)
      .toContain('You are now in Hillside, which does not play in Riverside vs Old Mill, so Riverside FA has withdrawn your invitation to it.');
    expect(rsvpWithdrawnEmail({ ...base, postponed: true, kickoffAt: null }).text).toContain('Kickoff: Postponed: new date to follow');
    expect(mail.text).toContain('Your answer (Yes) no longer counts, and you are not expected at this match.');
    expect(mail.text).toContain('Kickoff: Saturday 7 March 2026, 18:30 UTC');
    expect(mail.text + mail.html).not.toMatch(/https?:|reply/);
    expect(rsvpWithdrawnEmail({ ...base, response: null }).text).toContain('\nYou are not expected at this match.');
    expect(rsvpWithdrawnEmail({ ...base, contact: 'hello@riverside.example' }).text).toContain('If this is a mistake, reply to this email or write to hello@riverside.example.');
  });

  it('in Arabic, right to left, each name isolated; a postponed match without a kickoff', () => {
    const mail = rsvpWithdrawnEmail({ ...base, language: 'ar', organizationName: 'نادي الشارقة', memberName: 'سامي', kickoffAt: null, response: 'maybe' });
    expectWellFormedShell(mail, 'ar');
    expect(mail.subject).toBe('\u2068سامي\u2069 · سُحبت الدعوة: \u2068Riverside\u2069 ضد \u2068Old Mill\u2069');
    expect(mail.text).toContain('لم يعد فريق \u2068Old Mill\u2069 طرفًا في مباراة \u2068Riverside\u2069 ضد \u2068Old Mill\u2069 بعد تعديل جدول المباريات، لذا سُحبت دعوتك إليها.');
    expect(mail.text).toContain('لم يعد ردّك «ربما» محسوبًا');
    expect(mail.text).toContain('موعد الانطلاق: \u2068سيُعلن لاحقًا\u2069');
  });
});
