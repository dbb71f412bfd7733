// The follow's durations are numbers in code and words on its pages, in its emails and in the API document, in two
// languages: nothing derives the words from the numbers (Arabic counts each in its own form), so this test ties them.
// A change of a constant fails here until every text that says it is changed too (a maintainability review found
// the words in five files, away from the constants).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIRM_LINK_TTL_MS, UNSUBSCRIBE_LINK_TTL_MS } from '../mail/catalog.js';
import { RESEND_AFTER_MS, UNSUBSCRIBED_QUIET_MS } from './service.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const read = (file: string) => fs.readFileSync(path.join(import.meta.dirname, '..', '..', file), 'utf8');

describe('the follow durations said where they are said', () => {
  it.each([
    ['a confirmation link lasts', CONFIRM_LINK_TTL_MS, 7 * DAY, [['src/pages/follow/confirm.astro', ['valid for 7 days', 'صالحة لمدة 7 أيام', 'صالح لمدة 7 أيام']]]],
    ['a new confirmation link goes at most once in', RESEND_AFTER_MS, 10 * MINUTE, [
      ['src/pages/follow/confirm.astro', ['one every 10 minutes at most', 'كل 10 دقائق على الأكثر']],
      ['src/api/openapi/paths.ts', ['within 10 minutes']],
    ]],
    ['an unsubscribe link lasts', UNSUBSCRIBE_LINK_TTL_MS, 365 * DAY, [['src/pages/follow/unsubscribe.astro', ['work for a year after their email', 'لمدة سنة من تاريخ رسالتها']]]],
    ['the follow form sends nothing after an unsubscribe for', UNSUBSCRIBED_QUIET_MS, 30 * DAY, [
      ['src/pages/follow/unsubscribe.astro', ['until 30 days after you unsubscribe', 'حتى 30 يومًا من إلغاء الاشتراك']],
      ['src/mail/templates/follow-confirmation.ts', ['stops them for 30 days', 'يوقفها لمدة 30 يومًا']],
      ['src/api/openapi/paths.ts', ['less than 30 days ago']],
    ]],
  ] as const)('%s', (_label, constant, said, places) => {
    expect(constant).toBe(said);
    for (const [file, phrases] of places) for (const phrase of phrases) expect(read(file), `${file}: "${phrase}"`).toContain(phrase);
  });
});
