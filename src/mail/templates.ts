// The emails the platform sends, in the organization's language: English, or Arabic laid out right to left.
// Pure functions of their input. Every value is HTML-escaped by the `html` tag below (names can hold
// anything); styles are inline and nothing is loaded from elsewhere (no images, fonts or stylesheets).
// Callers pass names already in the message's language (name_ar for Arabic when there is one).

import type { Language } from '../vocabulary/language.js';


export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export interface FollowConfirmationInput {
  language: Language;
  organizationName: string;
  leagueName?: string | null;
  confirmUrl: string;
  unsubscribeUrl: string;
}

export interface RsvpInviteInput {
  language: Language;
  /** Shown in the header band and the footer; the event name stands in when absent. */
  organizationName?: string | null;
  memberName: string;
  homeName: string;
  awayName: string;
  /** RFC 3339; null while the kickoff is not fixed. */
  kickoffAt: string | null;
  venue: string | null;
  eventName?: string | null;
  rsvpUrl: string;
}

export interface RegistrationReceiptInput {
  language: Language;
  organizationName: string;
  playerName: string;
  divisionName: string | null;
  registrationId: string;
}

// ---- escaping ----

/** Markup that is already safe. Only the `html` tag and the layout make these. */
class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type HtmlValue = string | number | Html | readonly HtmlValue[] | null | undefined;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: interpolated strings are escaped, nested `html` fragments are kept. */
function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Only http(s) links go into mail: a `javascript:` or `data:` URL would be a trap. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('mail links must be http(s)');
  return url;
}

// ---- layout ----

const COLORS = { accent: '#1a7f4b', text: '#1f2933', muted: '#6b7280', line: '#e3e6ea', page: '#f4f5f7' };

interface Page {
  language: Language;
  subject: string;
  preheader: string;
  organizationName: string;
  heading: string;
  intro: Html[];
  facts?: Array<[string, string]>;
  button?: { label: string; url: string };
  after?: Html[];
  fallbackLabel?: string;
  footer: Html[];
}

function layout(p: Page): string {
  const rtl = p.language === 'ar';
  const align = rtl ? 'right' : 'left';
  // Constant CSS, not data: kept raw so its quotes stay quotes.
  const font = new Html(rtl ? "Tahoma,'Segoe UI',Arial,sans-serif" : "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif");
  const para = (content: Html) => html`<p style="margin:0 0 16px;">${content}</p>`;
  const facts = p.facts?.length
    ? html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" width="100%" style="margin:0 0 20px;border-collapse:collapse;">${p.facts.map(
        ([label, value]) =>
          html`<tr><td style="padding:8px 0;border-bottom:1px solid ${COLORS.line};color:${COLORS.muted};font-size:14px;width:38%;vertical-align:top;text-align:${align};">${label}</td><td style="padding:8px 0;border-bottom:1px solid ${COLORS.line};font-weight:bold;vertical-align:top;text-align:${align};"><bdi>${value}</bdi></td></tr>`,
      )}</table>`
    : null;
  const button = p.button
    ? html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;"><tr><td style="border-radius:6px;background-color:${COLORS.accent};"><a href="${safeUrl(p.button.url)}" style="display:inline-block;padding:12px 24px;font-family:${font};font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${p.button.label}</a></td></tr></table>`
    : null;
  const fallback =
    p.button && p.fallbackLabel
      ? html`<p style="margin:0 0 16px;font-size:13px;color:${COLORS.muted};">${p.fallbackLabel}<br><a href="${p.button.url}" style="color:${COLORS.accent};word-break:break-all;" dir="ltr">${p.button.url}</a></p>`
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
${p.intro.map(para)}${facts}${button}${(p.after ?? []).map(para)}${fallback}</td></tr>
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

function link(url: string, label?: string): Html {
  return html`<a href="${safeUrl(url)}" style="color:${COLORS.accent};">${label ?? url}</a>`;
}

const t = (s: string) => html`${s}`;

// ---- dates (UTC, spelled out, the same on every Node version: no Intl data involved) ----

const EN_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const AR_DAYS = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'];
const AR_MONTHS = ['يناير', 'فبراير', 'مارس', 'أبريل', 'مايو', 'يونيو', 'يوليو', 'أغسطس', 'سبتمبر', 'أكتوبر', 'نوفمبر', 'ديسمبر'];

function parseInstant(value: string | null): Date | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `Saturday 7 March 2026, 18:30 UTC` / `السبت 7 مارس 2026، الساعة 18:30 (UTC)`. */
export function formatKickoff(value: string | null, language: Language): string | null {
  const d = parseInstant(value);
  if (!d) return null;
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return language === 'ar'
    ? `${AR_DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${AR_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}، الساعة ${hm} (UTC)`
    : `${EN_DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${EN_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hm} UTC`;
}

function shortDate(value: string | null, language: Language): string | null {
  const d = parseInstant(value);
  if (!d) return null;
  return language === 'ar'
    ? `${d.getUTCDate()} ${AR_MONTHS[d.getUTCMonth()]}`
    : `${d.getUTCDate()} ${EN_MONTHS[d.getUTCMonth()]!.slice(0, 3)}`;
}

function textBlock(lines: Array<string | null | undefined | false>): string {
  return `${lines.filter((l): l is string => typeof l === 'string').join('\n')}\n`;
}

// ---- (a) follow confirmation ----

export function followConfirmationEmail(input: FollowConfirmationInput): RenderedEmail {
  const scope = input.leagueName ? `${input.leagueName} (${input.organizationName})` : input.organizationName;
  const ar = input.language === 'ar';
  const s = ar
    ? {
        subject: `أكِّد متابعة ${scope}`,
        heading: 'أكِّد متابعتك',
        hello: 'مرحبًا،',
        asked: `طلب أحدهم (ونأمل أن تكون أنت) متابعة ${scope} وتلقّي آخر الأخبار والنتائج عبر البريد الإلكتروني.`,
        confirm: 'لتفعيل المتابعة، اضغط على الزر أدناه:',
        button: 'تأكيد المتابعة',
        ignore: 'إذا لم تطلب ذلك فتجاهل هذه الرسالة: لن يحدث شيء، ولن تصلك منا رسائل أخرى.',
        fallback: 'إذا لم يعمل الزر، افتح هذا الرابط في المتصفح:',
        unsubscribe: 'لا تريد رسائل منا؟',
        unsubscribeLink: 'إلغاء الاشتراك',
        sentBy: `أُرسلت هذه الرسالة نيابةً عن ${input.organizationName}.`,
      }
    : {
        subject: `Confirm you want to follow ${scope}`,
        heading: 'Confirm your follow',
        hello: 'Hello,',
        asked: `Someone, hopefully you, asked to follow ${scope} and get news and results by email.`,
        confirm: 'To start following, confirm with the button below:',
        button: 'Confirm follow',
        ignore: 'If you did not ask for this, ignore this email: nothing will happen and you will not hear from us again.',
        fallback: 'If the button does not work, open this link in your browser:',
        unsubscribe: 'Do not want emails from us?',
        unsubscribeLink: 'Unsubscribe',
        sentBy: `Sent on behalf of ${input.organizationName}.`,
      };
  return {
    subject: s.subject,
    text: textBlock([
      s.hello,
      '',
      s.asked,
      '',
      s.confirm,
      safeUrl(input.confirmUrl),
      '',
      s.ignore,
      '',
      '--',
      `${s.unsubscribe} ${s.unsubscribeLink}: ${safeUrl(input.unsubscribeUrl)}`,
      s.sentBy,
    ]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: s.asked,
      organizationName: input.organizationName,
      heading: s.heading,
      intro: [t(s.hello), t(s.asked), t(s.confirm)],
      button: { label: s.button, url: input.confirmUrl },
      after: [t(s.ignore)],
      fallbackLabel: s.fallback,
      footer: [html`${s.unsubscribe} ${link(input.unsubscribeUrl, s.unsubscribeLink)}`, t(s.sentBy)],
    }),
  };
}

// ---- (b) RSVP invitation ----

export function rsvpInviteEmail(input: RsvpInviteInput): RenderedEmail {
  const ar = input.language === 'ar';
  const kickoff = formatKickoff(input.kickoffAt, input.language);
  const day = shortDate(input.kickoffAt, input.language);
  const match = ar ? `${input.homeName} ضد ${input.awayName}` : `${input.homeName} vs ${input.awayName}`;
  const tba = ar ? 'سيُعلن لاحقًا' : 'To be announced';
  const sender = input.organizationName || input.eventName || null;
  const s = ar
    ? {
        subject: `هل ستشارك؟ ${match}${day ? `، ${day}` : ''}`,
        heading: 'دعوة إلى مباراة',
        hello: `مرحبًا ${input.memberName}،`,
        invited: `أنت مدعو للمشاركة في مباراة ${match}.`,
        labels: { match: 'المباراة', kickoff: 'موعد الانطلاق', venue: 'الملعب', event: 'البطولة' },
        ask: 'أخبر فريقك هل ستشارك:',
        button: 'الرد على الدعوة',
        change: 'يمكنك تغيير ردّك في أي وقت حتى موعد انطلاق المباراة.',
        fallback: 'إذا لم يعمل الزر، افتح هذا الرابط في المتصفح:',
        personal: 'هذا الرابط خاص بك، فلا تشاركه مع أحد.',
        sentBy: sender ? `أُرسلت هذه الرسالة نيابةً عن ${sender}.` : null,
      }
    : {
        subject: `Will you play? ${match}${day ? `, ${day}` : ''}`,
        heading: 'You are invited to a match',
        hello: `Hello ${input.memberName},`,
        invited: `You are invited to play in ${match}.`,
        labels: { match: 'Match', kickoff: 'Kickoff', venue: 'Venue', event: 'Competition' },
        ask: 'Let your team know whether you can play:',
        button: 'Answer the invitation',
        change: 'You can change your answer at any time until kickoff.',
        fallback: 'If the button does not work, open this link in your browser:',
        personal: 'This link is personal: please do not share it.',
        sentBy: sender ? `Sent on behalf of ${sender}.` : null,
      };
  const facts: Array<[string, string]> = [
    [s.labels.match, match],
    [s.labels.kickoff, kickoff ?? tba],
    [s.labels.venue, input.venue ?? tba],
    ...(input.eventName ? [[s.labels.event, input.eventName] as [string, string]] : []),
  ];
  return {
    subject: s.subject,
    text: textBlock([
      s.hello,
      '',
      s.invited,
      '',
      ...facts.map(([label, value]) => `${label}: ${value}`),
      '',
      s.ask,
      safeUrl(input.rsvpUrl),
      '',
      s.change,
      s.personal,
      s.sentBy && '',
      s.sentBy && '--',
      s.sentBy,
    ]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: `${match} · ${kickoff ?? tba}`,
      organizationName: sender ?? match,
      heading: s.heading,
      intro: [t(s.hello), t(s.invited)],
      facts,
      button: { label: s.button, url: input.rsvpUrl },
      after: [t(s.change)],
      fallbackLabel: s.fallback,
      footer: s.sentBy ? [t(s.personal), t(s.sentBy)] : [t(s.personal)],
    }),
  };
}

// ---- (c) registration receipt ----

export function registrationReceiptEmail(input: RegistrationReceiptInput): RenderedEmail {
  const ar = input.language === 'ar';
  const s = ar
    ? {
        subject: `استلمنا طلب التسجيل: ${input.organizationName}`,
        heading: 'استلمنا طلب التسجيل',
        hello: 'مرحبًا،',
        received: `استلمنا طلب تسجيل ${input.playerName} لدى ${input.organizationName}.`,
        labels: { player: 'اللاعب', org: 'الجهة المنظِّمة', division: 'الفئة', id: 'رقم الطلب' },
        noDivision: 'غير محددة',
        nextTitle: 'ماذا بعد؟',
        next: 'يراجع المنظِّمون كل طلب، وسيتواصلون معك على هذا البريد الإلكتروني إذا احتاجوا إلى معلومات إضافية ولتأكيد التسجيل. لا يلزمك فعل شيء الآن؛ احتفظ برقم الطلب إذا راسلتهم.',
        notYou: 'إذا لم تقدّم هذا الطلب، يمكنك تجاهل هذه الرسالة.',
        sentBy: `أُرسلت هذه الرسالة نيابةً عن ${input.organizationName}.`,
      }
    : {
        subject: `Registration received: ${input.organizationName}`,
        heading: 'We received your registration',
        hello: 'Hello,',
        received: `We received the registration of ${input.playerName} with ${input.organizationName}.`,
        labels: { player: 'Player', org: 'Organization', division: 'Division', id: 'Request ID' },
        noDivision: 'Not specified',
        nextTitle: 'What happens next?',
        next: 'The organizers review every request and will contact you at this email address if they need more information, and to confirm the registration. There is nothing else to do now; keep the request ID if you write to them.',
        notYou: 'If you did not submit this registration, you can ignore this email.',
        sentBy: `Sent on behalf of ${input.organizationName}.`,
      };
  const facts: Array<[string, string]> = [
    [s.labels.player, input.playerName],
    [s.labels.org, input.organizationName],
    [s.labels.division, input.divisionName ?? s.noDivision],
    [s.labels.id, input.registrationId],
  ];
  return {
    subject: s.subject,
    text: textBlock([
      s.hello,
      '',
      s.received,
      '',
      ...facts.map(([label, value]) => `${label}: ${value}`),
      '',
      s.nextTitle,
      s.next,
      '',
      s.notYou,
      '',
      '--',
      s.sentBy,
    ]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: s.received,
      organizationName: input.organizationName,
      heading: s.heading,
      intro: [t(s.hello), t(s.received)],
      facts,
      after: [html`<strong>${s.nextTitle}</strong><br>${s.next}`, t(s.notYou)],
      footer: [t(s.sentBy)],
    }),
  };
}
