// What the follow pages say at a mailbox's daily cap of confirmations, in both languages.
import { describe, expect, it } from 'vitest';
import { cappedWords } from './page-words.js';

describe('cappedWords: the daily cap of confirmations', () => {
  // A native Arabic review: "لم يُرسل: ما يكفي من الرسائل لهذا اليوم" meant nothing.
  it.each([
    ['en', 1, 'Not sent: daily limit reached', 'This address has been sent as many confirmation emails as we send in a day. Try again in an hour.'],
    ['en', 24, 'Not sent: daily limit reached', 'This address has been sent as many confirmation emails as we send in a day. Try again in 24 hours.'],
    ['ar', 1, 'لم تُرسل الرسالة: بلغ هذا العنوان الحد اليومي', 'أرسلنا إلى هذا العنوان الحد الأقصى من رسائل التأكيد لهذا اليوم. يُرجى المحاولة مرة أخرى بعد ساعة.'],
    ['ar', 2, 'لم تُرسل الرسالة: بلغ هذا العنوان الحد اليومي', 'أرسلنا إلى هذا العنوان الحد الأقصى من رسائل التأكيد لهذا اليوم. يُرجى المحاولة مرة أخرى بعد ساعتين.'],
    ['ar', 5, 'لم تُرسل الرسالة: بلغ هذا العنوان الحد اليومي', 'أرسلنا إلى هذا العنوان الحد الأقصى من رسائل التأكيد لهذا اليوم. يُرجى المحاولة مرة أخرى بعد 5 ساعات.'],
    ['ar', 24, 'لم تُرسل الرسالة: بلغ هذا العنوان الحد اليومي', 'أرسلنا إلى هذا العنوان الحد الأقصى من رسائل التأكيد لهذا اليوم. يُرجى المحاولة مرة أخرى بعد 24 ساعة.'],
  ] as const)('%s, %i h: %s', (language, hours, heading, body) => {
    expect(cappedWords(language, hours)).toEqual([heading, body]);
  });
});
