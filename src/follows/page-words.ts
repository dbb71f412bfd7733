// What more than one follow page says: once "Follow again" has worked (the unsubscribe page's and the confirm page's
// button), and at the mailbox's daily cap of confirmations (a follow form's answer page, the confirm page's "Send a new
// link").
import { arabicCount, type Language } from '../vocabulary/language.js';

export function followedAgainWords(language: Language, scope: string): readonly [heading: string, body: string] {
  return language === 'ar'
    ? ['متابعتك مفعّلة من جديد', `سنرسل إليك أخبار ${scope} من جديد. في كل رسالة رابط لإيقاف المتابعة.`]
    : ['You are following again', `We will email you news about ${scope} again. Every email has a link to unsubscribe.`];
}

/**
 * The mailbox has had its confirmations of the day; one more in `hours` (whole, at least 1). The Arabic heading says
 * what was not sent and why: "لم يُرسل: ما يكفي من الرسائل لهذا اليوم", word for word the English, meant nothing to a
 * native Arabic review.
 */
export function cappedWords(language: Language, hours: number): readonly [heading: string, body: string] {
  return language === 'ar'
    ? ['لم تُرسل الرسالة: بلغ هذا العنوان الحد اليومي', `أرسلنا إلى هذا العنوان الحد الأقصى من رسائل التأكيد لهذا اليوم. يُرجى المحاولة مرة أخرى بعد ${arabicHours(hours)}.`]
    : ['Not sent: daily limit reached', `This address has been sent as many confirmation emails as we send in a day. Try again in ${hours === 1 ? 'an hour' : `${hours} hours`}.`];
}

/** "n hours" in Arabic, after a preposition ("بعد ساعتين"). */
function arabicHours(n: number): string {
  return arabicCount(n, { one: 'ساعة', two: 'ساعتين', few: (k) => `${k} ساعات`, many: (k) => `${k} ساعة`, other: (k) => `${k} ساعة` });
}
