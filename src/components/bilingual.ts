// What a page says before it knows the language of its link: a request refused before anything was looked up, or
// a link we cannot read (a token never issued, withdrawn, or cut short). Each text is in English and in Arabic, both
// shown (Bilingual.astro), and the page's title names both.

/** A heading and what follows it (empty: the heading says it all), in each language. */
export interface BothLanguages {
  en: readonly [heading: string, body: string];
  ar: readonly [heading: string, body: string];
}

export function bothTitles(text: BothLanguages): string {
  return `${text.en[0]} · ${text.ar[0]}`;
}

/** Why a page's request was refused (page-request.ts gatePageRequest). */
export const REFUSED: Record<'rate-limited' | 'body', BothLanguages> = {
  'rate-limited': { en: ['Too many requests. Try again in a minute.', ''], ar: ['طلبات كثيرة. يُرجى المحاولة مرة أخرى بعد دقيقة.', ''] },
  body: {
    en: ['This request could not be read. Use the link in your email.', ''],
    ar: ['تعذرت قراءة هذا الطلب. يُرجى استخدام الرابط الموجود في رسالتك.', ''],
  },
};
