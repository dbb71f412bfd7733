// The pages a browser gets where no page of ours could answer: an address that is no page (src/http/not-found.ts
// decides when: a mistyped or cut-short link, `/follow/` or `/RSVP?token=…`), and a failure of ours behind a page or a
// form's answer (src/middleware.ts, src/forms/answer-page.ts). Their reader's language is not known: English then
// Arabic, both shown, as the pages' own "link not valid" (Bilingual.astro), in the pages' style, with the way home.
import { bothTitles, type BothLanguages } from '../components/bilingual.js';
import { pageDocument } from '../layouts/page-document.js';
import { Html, html } from '../mail/templates/html.js';
import { NO_STORE } from './headers.js';

const NOT_FOUND: BothLanguages = {
  en: ['Page not found', 'There is no page at this address. The link may be mistyped or cut short: open it again from its email or message.'],
  ar: ['الصفحة غير موجودة', 'لا توجد صفحة على هذا العنوان. ربما كُتب الرابط خطأً أو نقص جزء منه: يُرجى فتحه من جديد من رسالته.'],
};
/**
 * An operator's review filled the database's disk: an Arabic family's confirmation link answered with English JSON. A
 * failure is ours, and what was sent was most likely not saved (the write's transaction is undone).
 */
const FAILED: BothLanguages = {
  en: ['Something went wrong on our side', 'What you sent was most likely not saved. Try again in a few minutes.'],
  ar: ['حدث خطأ من جهتنا', 'على الأرجح لم يُحفظ ما أرسلته. يُرجى المحاولة مرة أخرى بعد بضع دقائق.'],
};
const HOME = { en: 'Go to the home page', ar: 'الانتقال إلى الصفحة الرئيسية' };

function noticePage(words: BothLanguages, marker: Html): string {
  return pageDocument({
    language: 'en',
    title: bothTitles(words),
    mainAttributes: marker,
    body: html`<h1>${words.en[0]}</h1>
<p>${words.en[1]}</p>
<p><a href="/">${HOME.en}</a></p>
<div lang="ar" dir="rtl" class="other-language">
<h2>${words.ar[0]}</h2>
<p>${words.ar[1]}</p>
<p><a href="/">${HOME.ar}</a></p>
</div>`,
  }).toString();
}

export function notFoundPage(): string {
  return noticePage(NOT_FOUND, new Html('data-not-found'));
}

function failurePage(): string {
  return noticePage(FAILED, new Html('data-failed'));
}

/**
 * The failure page in place of `failed`, the problem a script gets (src/http/problem.ts failedRequest): its status, the
 * one 500 or a 503, and its Retry-After, with `headers` (the pages' or the form answers'), kept by no cache.
 */
export function failureResponse(headers: Record<string, string>, failed: Response): Response {
  const retryAfter = failed.headers.get('retry-after');
  return new Response(failurePage(), {
    status: failed.status,
    headers: { ...headers, ...(retryAfter ? { 'Retry-After': retryAfter } : {}), 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': NO_STORE },
  });
}
