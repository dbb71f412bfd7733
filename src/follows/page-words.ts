// What both follow pages say once "Follow again" has worked (the unsubscribe page's and the confirm page's button).
import type { Language } from '../vocabulary/language.js';

export function followedAgainWords(language: Language, scope: string): readonly [heading: string, body: string] {
  return language === 'ar'
    ? ['أنت تتابع من جديد', `سنرسل إليك أخبار ${scope} من جديد. في كل رسالة رابط لإيقاف المتابعة.`]
    : ['You are following again', `We will email you news about ${scope} again. Every email has a link to stop.`];
}
