// The page a browser gets for an address that is no page (src/http/not-found.ts decides when): a mistyped or cut
// short link, `/follow/` or `/RSVP?token=…`. Its reader's language is not known: English then Arabic, both shown, as
// the pages' own "link not valid" (Bilingual.astro), in the pages' style, with the way to the home page.
import { bothTitles, type BothLanguages } from '../components/bilingual.js';
import { pageDocument } from '../layouts/page-document.js';
import { Html, html } from '../mail/templates/html.js';

const NOT_FOUND: BothLanguages = {
  en: ['Page not found', 'There is no page at this address. The link may be mistyped or cut short: open it again from its email or message.'],
  ar: ['الصفحة غير موجودة', 'لا توجد صفحة على هذا العنوان. ربما كُتب الرابط خطأً أو نقص جزء منه: افتحه من جديد من رسالته.'],
};
const HOME = { en: 'Go to the home page', ar: 'الانتقال إلى الصفحة الرئيسية' };

export function notFoundPage(): string {
  return pageDocument({
    language: 'en',
    title: bothTitles(NOT_FOUND),
    mainAttributes: new Html('data-not-found'),
    body: html`<h1>${NOT_FOUND.en[0]}</h1>
<p>${NOT_FOUND.en[1]}</p>
<p><a href="/">${HOME.en}</a></p>
<div lang="ar" dir="rtl" class="other-language">
<h2>${NOT_FOUND.ar[0]}</h2>
<p>${NOT_FOUND.ar[1]}</p>
<p><a href="/">${HOME.ar}</a></p>
</div>`,
  }).toString();
}
