// The whole HTML document of a page the node code writes itself, outside Astro: a form's answer page
// (src/forms/answer-page.ts) and the 404 and failure pages (src/http/notice-pages.ts). The head Head.astro gives the Astro pages,
// and their style (page-style.ts).
import { Html, html } from '../mail/templates/html.js';
import { isRightToLeft, type Language } from '../vocabulary/language.js';
import { PAGE_STYLE } from './page-style.js';

export interface PageDocument {
  language: Language;
  title: string;
  /** The attributes of <main> that name the page for its tests (`data-not-found`, `data-form-answer="fix"`). */
  mainAttributes: Html;
  body: Html;
}

export function pageDocument(p: PageDocument): Html {
  return html`<!doctype html>
<html lang="${p.language}" dir="${isRightToLeft(p.language) ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<meta name="robots" content="noindex" />
<title>${p.title}</title>
<style>${new Html(PAGE_STYLE) /* our own constant */}</style>
</head>
<body><main ${p.mainAttributes}>
${p.body}
</main></body>
</html>
`;
}
