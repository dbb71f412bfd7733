// The one layout of every email: a header band with the organization, a heading, paragraphs, an optional table
// of facts, an optional button with its link spelled out, and a footer; left to right, or right to left for
// Arabic. Styles are inline and nothing is loaded from elsewhere (no images, fonts or stylesheets).
import { isolatedIn, type Language } from '../../vocabulary/language.js';
import { html, Html, safeUrl } from './html.js';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const COLORS = { accent: '#1a7f4b', text: '#1f2933', muted: '#6b7280', line: '#e3e6ea', page: '#f4f5f7' };

/** Label and value; `code` sets the value in a monospace font: a reference to quote, where l, I and 1 look alike. */
export type Fact = readonly [string, string] | readonly [string, string, 'code'];

export interface Page {
  language: Language;
  subject: string;
  preheader: string;
  organizationName: string;
  heading: string;
  intro: Html[];
  facts?: Fact[];
  button?: { label: string; url: string };
  /** Paragraphs after the button, or a heading among them. */
  after?: Array<Html | { heading: string }>;
  /**
   * Headed lists after the paragraphs (a digest's competitions, each with its changes): a heading, a real list, and a
   * closing line. An accessibility review heard a digest's changes as one paragraph of lines joined by <br>, with no
   * bullets to tell a wrapped line from the next one; its text part has "- " bullets.
   */
  sections?: Array<{ heading: string; items: Html[]; closing?: Html | null }>;
  /** The button's address spelled out under it, for a client where the button does not open (fallbackWords). */
  fallback?: boolean;
  footer: Html[];
}

export function layout(p: Page): string {
  const rtl = p.language === 'ar';
  const align = rtl ? 'right' : 'left';
  // Constant CSS, not data: kept raw so its quotes stay quotes.
  const font = new Html(rtl ? "Tahoma,'Segoe UI',Arial,sans-serif" : "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif");
  const para = (content: Html) => html`<p style="margin:0 0 16px;">${content}</p>`;
  const facts = p.facts?.length
    ? html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" width="100%" style="margin:0 0 20px;border-collapse:collapse;">${p.facts.map(
        ([label, value, look]) =>
          // The label above its value, not beside it: an accessibility review found the two columns wider than a phone
          // with text enlarged (a registration's reference 190 px of a 238 px column) and each label read run into its
          // value ("OrganizationRiverside…"). A long word wraps rather than widen the email.
          html`<tr><td style="padding:8px 0;border-bottom:1px solid ${COLORS.line};vertical-align:top;text-align:${align};"><div style="color:${COLORS.muted};font-size:14px;">${label}</div><div style="font-weight:bold;overflow-wrap:anywhere;word-break:break-word;${look === 'code' ? new Html("font-family:ui-monospace,Menlo,Consolas,'Courier New',monospace;") : ''}"><bdi>${value}</bdi></div></td></tr>`,
      )}</table>`
    : null;
  const button = p.button
    ? html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td style="border-radius:6px;background-color:${COLORS.accent};"><a href="${safeUrl(p.button.url)}" style="display:inline-block;padding:12px 24px;font-family:${font};font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${p.button.label}</a></td></tr></table>`
    : null;
  const h2 = (heading: string) => html`<h2 style="margin:20px 0 8px;font-size:17px;line-height:1.3;color:#111827;">${heading}</h2>`;
  const after = (p.after ?? []).map((item) => (item instanceof Html ? para(item) : h2(item.heading)));
  const sections = (p.sections ?? []).map(
    (s) =>
      html`${h2(s.heading)}<ul style="margin:0 0 12px;padding-${rtl ? 'right' : 'left'}:22px;">${s.items.map(
        (item) => html`<li style="margin:0 0 6px;">${item}</li>`,
      )}</ul>${s.closing ? para(s.closing) : null}`,
  );
  // Right under the button, naming it: an accessibility review heard the address after the invitation's calendar links,
  // where it passed for a fourth, told to use "the button" that a screen reader calls a link.
  const fallback =
    p.button && p.fallback
      ? html`<p style="margin:-16px 0 24px;font-size:13px;color:${COLORS.muted};">${fallbackWords(p.language, p.button.label)}<br><a href="${p.button.url}" style="color:${COLORS.accent};word-break:break-all;" dir="ltr">${p.button.url}</a></p>`
      : null;

  return html`<!DOCTYPE html>
<html lang="${p.language}" dir="${rtl ? 'rtl' : 'ltr'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${p.subject}</title>
</head>
<body style="margin:0;padding:0;background-color:${COLORS.page};">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${p.preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${COLORS.page};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" dir="${rtl ? 'rtl' : 'ltr'}" style="max-width:560px;background-color:#ffffff;border:1px solid ${COLORS.line};border-radius:8px;">
<tr><td style="padding:18px 28px;border-bottom:3px solid ${COLORS.accent};font-family:${font};font-size:15px;font-weight:bold;color:${COLORS.accent};text-align:${align};">${p.organizationName}</td></tr>
<tr><td style="padding:28px;font-family:${font};font-size:16px;line-height:1.6;color:${COLORS.text};text-align:${align};">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#111827;">${p.heading}</h1>
${p.intro.map(para)}${facts}${button}${fallback}${after}${sections}</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid ${COLORS.line};font-family:${font};font-size:13px;line-height:1.5;color:${COLORS.muted};text-align:${align};">${p.footer.map(
    (line) => html`<p style="margin:0 0 6px;">${line}</p>`,
  )}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`.value;
}

/** What the line under a button says, naming it by its label, as a screen reader does (a link, not "the button"). */
export function fallbackWords(language: Language, label: string): string {
  return language === 'ar' ? `إذا لم يُفتح «${label}»، فيُرجى فتح هذا العنوان في المتصفح:` : `If “${label}” does not open, open this address in your browser:`;
}

export function link(url: string, label?: string): Html {
  return html`<a href="${safeUrl(url)}" style="color:${COLORS.accent};">${label ?? url}</a>`;
}

export const t = (s: string) => html`${s}`;

/**
 * The plain-text lines of an email's facts, `label: value`. In Arabic each value is isolated (U+2068 … U+2069), as
 * the HTML part's <bdi> and the subjects are: a mail client lays a text line out by its first strong letter, and an
 * accessibility review read "الملعب: .Amman International Academy, Pitch 2", the final dot moved before the name.
 */
export function factLines(facts: readonly Fact[], language: Language): string[] {
  const value = isolatedIn(language);
  return facts.map(([label, v]) => `${label}: ${value(v)}`);
}

/** The plain-text part: the lines given, skipping absent ones, ending with a newline. */
export function textBlock(lines: Array<string | null | undefined | false>): string {
  return `${lines.filter((l): l is string => typeof l === 'string').join('\n')}\n`;
}

