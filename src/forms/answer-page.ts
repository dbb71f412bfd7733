// What a person's browser gets when an HTML form on another site (a club's registration or follow form, with no
// script) posts to the write API: a page in the organization's language saying what happened, with the API's own
// status, instead of the JSON a script reads. The answer itself is the API's, computed as for any client; only its
// rendering differs. A review posted such a form and was left looking at {"status":"submitted","id":"reg_…"}, or at
// an English problem document under an Arabic club's form.
import { leagueIsPublic } from '../competitions/visibility.js';
import type { SyncDb } from '../db/sync.js';
import { SET_UP_MESSAGES } from '../errors.js';
import { repeatedFieldOf } from '../http/body.js';
import { dateOfBirthField, languageField } from '../http/fields.js';
import { FORM_ANSWER_HEADERS, NO_STORE } from '../http/headers.js';
import { failureResponse } from '../http/notice-pages.js';
import { pageDocument } from '../layouts/page-document.js';
import { Html, html } from '../mail/templates/html.js';
import { cappedWords } from '../follows/page-words.js';
import { CLOSED_SINCE, divisionsThatFit, isOutsideBirthDays, OPENS_LATER } from '../registrations/rules.js';
import { publicDivision, publicDivisions } from '../registrations/service.js';
import { fieldMessage } from './field-messages.js';
import { ID_PATTERN } from '../vocabulary/ids.js';
import { isolated, isRightToLeft, leftToRight, localizedName, scopeName, type Language } from '../vocabulary/language.js';

/** The write endpoints an HTML form on another site posts to. */
export type FormRoute = 'register' | 'follow';

/**
 * A browser navigating with a form, not a script: Fetch Metadata says so (every current browser sends
 * Sec-Fetch-Mode, and fetch() cannot set it); before it, a navigation asked for HTML first, where fetch() asks for
 * anything. A JSON body is never a form's. Whatever the form's method and enctype: a form without method="post"
 * navigates with a GET, one with enctype="text/plain" posts text, and a review's parent met the API's raw JSON for
 * both (405, 415).
 */
export function isFormNavigation(request: Request): boolean {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return false;
  const mode = request.headers.get('sec-fetch-mode');
  if (mode !== null) return mode === 'navigate';
  return /^\s*text\/html/i.test(request.headers.get('accept') ?? '');
}

interface Names {
  /** The organization's id, or null when the form names none we have. */
  id: string | null;
  language: Language;
  /** The organization's time zone, which the API's messages write times in; undefined when none is named. */
  timeZone: string | undefined;
  organization: string | null;
  /**
   * What was registered into or followed: the division or league once the service took it, or the division not
   * taking registrations; else null.
   */
  scope: string | null;
  /** The organization's contact address (where a parent asks it), or null: none, or no organization named. */
  contact: string | null;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * A form field's name and value in its raw body: `org_id=ID` (urlencoded), a line `org_id=ID` (a form set up with
 * enctype="text/plain", which gets its page too: a review found it in English for an Arabic club) or a multipart part
 * named org_id.
 */
const ID = ID_PATTERN.source.replace(/^\^|\$$/g, '');
const RAW_ORG_ID = [
  new RegExp(`(?:^|&)org_id=(${ID})(?=&|$)`),
  new RegExp(`(?:^|\r?\n)org_id=(${ID})(?=\r?\n|$)`),
  new RegExp(`\\r\\nContent-Disposition: *form-data; *name="org_id"\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n(${ID})\\r\\n`, 'i'),
];

/**
 * The fields a page can still tell of a form whose body could not be read (400 not UTF-8, 413 too long, 415): the
 * organization its raw bytes (at most the 16 KiB read) or the query of its action name in ASCII, `org_id=…`, so the
 * page is in that organization's language. Nothing else of such a body is read: it is not the text it meant.
 */
export function fieldsOfUnreadForm(raw: Uint8Array | undefined, query: URLSearchParams): Record<string, unknown> {
  // latin1: one character a byte, whatever the encoding; an id is ASCII.
  const body = raw === undefined ? '' : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1');
  for (const pattern of RAW_ORG_ID) {
    const found = pattern.exec(body)?.[1];
    if (found !== undefined) return { org_id: found };
  }
  const queried = query.get('org_id');
  return queried !== null && ID_PATTERN.test(queried) ? { org_id: queried } : {};
}

/**
 * The organization the form names (its language and name), and, for an answer the service took, the division or
 * league it named; for a division not taking registrations, that division (a review: the page said "the division
 * below" and named none). Any other error names the organization only: a league the public cannot see is never named.
 */
function namesOf(store: SyncDb, route: FormRoute, fields: Record<string, unknown>, outcome: Outcome): Names {
  const org = store.first(store.q.selectFrom('organizations').select(['id', 'name', 'name_ar', 'language', 'timezone', 'contact_email']).where('id', '=', text(fields.org_id)));
  if (!org) return { id: null, language: 'en', timeZone: undefined, organization: null, scope: null, contact: null };
  // A registration or follow form may ask for its answer in another language than the organization's (its emails follow).
  const asked = languageField.safeParse(fields.language).data;
  const language = asked ?? org.language;
  const named = (row: { name: string; name_ar: string | null } | undefined) => (row ? localizedName(row.name, row.name_ar, language) : null);
  const taken = outcome === 'registered' || outcome === 'confirm' || outcome === 'following';
  let scope: string | null = null;
  if ((taken || outcome === 'closed') && route === 'register' && text(fields.division_id)) {
    // As the service reads it: a division of a league the public cannot see is no division at all.
    scope = named(publicDivision(store, text(fields.division_id), org.id));
  }
  if (taken && route === 'follow' && text(fields.league_id)) {
    scope = named(store.first(
      store.q.selectFrom('leagues').select(['name', 'name_ar']).where('id', '=', text(fields.league_id)).where('org_id', '=', org.id)
        .where((eb) => leagueIsPublic(eb.ref('leagues.id'))),
    ));
  }
  return { id: org.id, language, timeZone: org.timezone, organization: named(org), scope, contact: org.contact_email };
}

const FIELD_LABELS: Record<string, { en: string; ar: string }> = {
  org_id: { en: 'Organization', ar: 'الجهة المنظمة' },
  league_id: { en: 'League', ar: 'الدوري' },
  division_id: { en: 'Division', ar: 'الفئة' },
  name: { en: 'Name', ar: 'الاسم' },
  name_ar: { en: 'Name in Arabic', ar: 'الاسم بالعربية' },
  email: { en: 'Email', ar: 'البريد الإلكتروني' },
  phone: { en: 'Phone', ar: 'الهاتف' },
  date_of_birth: { en: 'Date of birth', ar: 'تاريخ الميلاد' },
  guardian_name: { en: "Guardian's name", ar: 'اسم ولي الأمر' },
  guardian_phone: { en: "Guardian's phone", ar: 'هاتف ولي الأمر' },
  notes: { en: 'Notes', ar: 'ملاحظات' },
  language: { en: 'Language', ar: 'اللغة' },
};

export type Outcome = 'registered' | 'confirm' | 'following' | 'fix' | 'closed' | 'misnamed' | 'capped' | 'refused' | 'too-long' | 'unreadable' | 'repeated' | 'not-post' | 'not-a-form';

interface Said {
  route: FormRoute;
  scope: string;
  /** Whether `scope` names a division or league (else it is the organization alone). */
  within: boolean;
  /** The division or league alone, isolated; '' when none is named. */
  division: string;
  /** The organization alone, isolated. */
  organization: string;
  id: string;
  /** Where the receipt goes: the contact address as the registration stored it, read left to right; '' otherwise. */
  email: string;
  /** The organization's contact address, read left to right; '' without one. */
  contact: string;
  /** When to try again (a 429's Retry-After), in whole hours, at least 1. */
  hours: number;
  /** The field a form named twice (a 400 for it), as it named it; else ''. */
  field: string;
}

/** A form's field as a page names it: its label in `language` where we have one, else its name; isolated. */
const fieldLabel = (field: string, language: Language) => isolated(FIELD_LABELS[field]?.[language] ?? field);

const WORDS: Record<Language, Record<Outcome, (n: Said) => readonly [string, string]>> = {
  en: {
    // What comes next, true whatever became of the receipt (src/mail/templates/registration-receipt.ts), which is
    // capped per mailbox a day: a review's parent was told nothing of it.
    // The address said, so that a typo shows (a review's parent typed "gmial.com", and waited for a receipt), with where
    // to correct it when the organization has a contact address.
    // The organization as who has it, the division as what it is for (a copy review read a division "having" it, in
    // nested brackets), as the Arabic says it.
    registered: ({ division, organization, id, email, contact }) => ['Registration sent', `${organization} has received your registration${division ? ` for ${division}` : ''}. Your reference is ${id}; please keep it. A receipt with it is on its way to ${email || 'the address you gave'} (unless that address has already had several receipts today), and the organization will contact you there to confirm the registration.${contact ? ` If that address is wrong, write to ${contact} with the reference.` : ''}`],
    // Said to everyone (the answer does not tell whether the address unsubscribed): the form sends nothing for 30
    // days to a mailbox that unsubscribed from this follow, and a review's parent who had done so by mistake waited in
    // vain. The way back is on the unsubscribe page.
    confirm: ({ scope }) => ['Check your email', `To start following ${scope}, open the link in the confirmation email sent to the address you gave: you get no news until you do. If you unsubscribed recently, no email is sent: open the Unsubscribe link in one of our earlier emails about it and choose "Follow again".`],
    following: ({ scope }) => ['Already following', `This address already follows ${scope}.`],
    fix: () => ['Some answers need a change', "Go back to the form (your browser's Back button), correct them and send it again."],
    // Nothing a parent typed: a review's parent was told to correct the season, or a field the form hides.
    closed: ({ scope, within, contact }) => ['Not taking registrations', `Nothing was sent. ${within ? `The division ${scope} is not taking registrations at this time, as said below` : 'The division below is not taking registrations at this time'}: choose another on the form if it offers one, or ask the organization${contact ? ` (${contact})` : ''}.`],
    // A follow form's league too (one we do not have, or with no public competition, which is the same): its parent
    // was told to correct a hidden field (a review).
    // The organization's address where it has one (a registrations review's parent, told to "tell the site", did not
    // know whom to tell): the form named the organization, its division or league is what we do not have.
    misnamed: ({ route, contact }) => ['This form is set up wrongly', `Nothing was sent. It names an organization or a ${route === 'follow' ? 'league' : 'division'} we do not have (below): the website this form is on needs to fix it. Please let them know${contact ? `, or write to the organization (${contact})` : ''}.`],
    capped: ({ hours }) => cappedWords('en', hours),
    refused: () => ['Too many requests', 'Nothing was sent. Try again in a minute.'],
    'too-long': () => ['Your answers are too long', 'Nothing was sent. Shorten the notes (or your longest answer) and send the form again.'],
    unreadable: () => ['This form could not be read', 'Nothing was sent. The site the form is on should send it as UTF-8 text; tell it, or try again later.'],
    // Nothing the person can change (a form's fields are the site's): not the encoding the 400's other words blame.
    repeated: ({ field }) => ['This form is set up wrongly', `Nothing was sent. It sends the field ${fieldLabel(field, 'en')} twice, and we cannot tell which answer is meant: the site the form is on must correct it; tell it.`],
    // The answers of a GET form are in the address: the browser's history keeps them (a child's date of birth).
    'not-post': () => ['This form is set up wrongly', 'Nothing was sent. The site the form is on must send it with method="post": tell it. Your answers are in this page\'s address, so your browser\'s history keeps them; you may want to delete this page from it.'],
    'not-a-form': () => ['This form could not be read', 'Nothing was sent. The site the form is on must send it as an ordinary form, not as plain text (enctype="text/plain"): tell it.'],
  },
  ar: {
    // The division said as one ("في فئة ⁨تحت 14 سنة⁩"), the organization as where it went: "وصل تسجيلك إلى ⁨تحت 14
    // سنة⁩ (⁨رابطة …⁩)" sent it to an age, and "ستتواصل معك … عليه" was colloquial (a native Arabic review).
    registered: ({ division, organization, id, email, contact }) => ['تم إرسال التسجيل', `وصل تسجيلك ${division ? `في فئة ${division} ` : ''}إلى ${organization}. رقمه المرجعي ${id}، ويُرجى الاحتفاظ به. وسيصلك إيصال به على ${email ? `العنوان ${email}` : 'البريد الإلكتروني الذي أدخلته'} (إلا إذا وصلته عدة إيصالات اليوم)، وستتواصل معك الجهة المنظمة عبره لتأكيد التسجيل.${contact ? ` إذا كان هذا العنوان خاطئًا، يُرجى الكتابة إلى ${contact} مع ذكر الرقم المرجعي.` : ''}`],
    confirm: ({ scope }) => ['يُرجى التحقق من بريدك', `لمتابعة ${scope}، يُرجى فتح الرابط في رسالة التأكيد المرسلة إلى ذلك العنوان. لا يُرسل إليه شيء عنها قبل ذلك. إن كنت ألغيت الاشتراك فيها مؤخرًا فلن تصلك رسالة: يمكنك استخدام «المتابعة من جديد» في صفحة إلغاء الاشتراك من أي رسالة منا عنها.`],
    following: ({ scope }) => ['المتابعة مفعّلة بالفعل', `هذا العنوان يتابع ${scope} بالفعل.`],
    fix: () => ['بعض الإجابات تحتاج إلى تعديل', 'يُرجى الرجوع إلى النموذج (زر الرجوع في المتصفح)، وتصحيحها ثم إرساله مرة أخرى.'],
    closed: ({ scope, within, contact }) => ['التسجيل غير متاح', `لم يُرسل شيء. ${within ? `الفئة ${scope} لا تستقبل طلبات التسجيل في هذا الوقت، كما هو مبيّن أدناه` : 'الفئة أدناه لا تستقبل طلبات التسجيل في هذا الوقت'}: يمكن اختيار فئة أخرى في النموذج إن أتاح ذلك، أو سؤال الجهة المنظمة${contact ? ` (${contact})` : ''}.`],
    misnamed: ({ route, contact }) => ['هذا النموذج مُعدّ بطريقة خاطئة', `لم يُرسل شيء. يذكر ${route === 'follow' ? 'جهة منظمة أو دوريًا غير موجود' : 'جهة منظمة أو فئة غير موجودة'} لدينا (أدناه): على الموقع الذي عليه النموذج تصحيح ذلك؛ يُرجى إبلاغه بذلك${contact ? `، أو الكتابة إلى الجهة المنظمة (${contact})` : ''}.`],
    capped: ({ hours }) => cappedWords('ar', hours),
    refused: () => ['طلبات كثيرة', 'لم يُرسل شيء. يُرجى المحاولة مرة أخرى بعد دقيقة.'],
    'too-long': () => ['إجاباتك طويلة جدًا', 'لم يُرسل شيء. يُرجى اختصار الملاحظات (أو أطول إجاباتك) ثم إرسال النموذج مرة أخرى.'],
    unreadable: () => ['تعذرت قراءة هذا النموذج', 'لم يُرسل شيء. على الموقع الذي عليه النموذج أن يرسله نصًا بترميز UTF-8؛ يُرجى إبلاغه بذلك، أو المحاولة لاحقًا.'],
    repeated: ({ field }) => ['هذا النموذج مُعدّ بطريقة خاطئة', `لم يُرسل شيء. يرسل الحقل ${fieldLabel(field, 'ar')} مرتين، ولا نعرف أي الإجابتين المقصودة: على الموقع الذي عليه النموذج تصحيح ذلك؛ يُرجى إبلاغه بذلك.`],
    'not-post': () => ['هذا النموذج مُعدّ بطريقة خاطئة', `لم يُرسل شيء. على الموقع الذي عليه النموذج أن يرسله بالطريقة ${leftToRight('method="post"')}؛ يُرجى إبلاغه بذلك. إجاباتك موجودة في عنوان هذه الصفحة، فيحفظها سجل المتصفح؛ قد يكون من الأفضل حذف هذه الصفحة منه.`],
    'not-a-form': () => ['تعذرت قراءة هذا النموذج', `لم يُرسل شيء. على الموقع الذي عليه النموذج أن يرسله نموذجًا عاديًا، لا نصًا عاديًا (${leftToRight('enctype="text/plain"')})؛ يُرجى إبلاغه بذلك.`],
  },
};

/** The divisions a refused date of birth fits (`born`, read left to right; `names`, each isolated). */
const FITS: Record<Language, (born: string, names: string[]) => string> = {
  en: (born, names) => names.length === 1
    ? `A player born ${born} fits the division ${names[0]}: choose it on the form if it offers it.`
    : `A player born ${born} fits these divisions: ${names.join(', ')}. Choose one of them on the form if it offers it.`,
  ar: (born, names) => names.length === 1
    ? `تاريخ الميلاد ${born} يناسب فئة ${names[0]}: يمكن اختيارها في النموذج إن أتاح ذلك.`
    : `تاريخ الميلاد ${born} يناسب هذه الفئات: ${names.join('، ')}. يمكن اختيار إحداها في النموذج إن أتاح ذلك.`,
};

/**
 * The answers drawn as a page: every answer a person filling a form can meet (taken, a field to correct, too many
 * requests, answers too long, a body that could not be read: an Arabic club's page in windows-1256; a form set up
 * without method="post", or as plain text), and a failure (the one 500, or a 503 the operator fixes: the failure page,
 * src/http/notice-pages.ts).
 */
export const PAGE_STATUSES: ReadonlySet<number> = new Set([200, 201, 400, 405, 413, 415, 422, 429, 500, 503]);

/** The problems only the form's own set-up has (not what a person typed): its organization, division or league. */
const MISNAMED: ReadonlySet<string> = new Set(SET_UP_MESSAGES);
/** A division's window (src/registrations/rules.ts windowProblem). */
const isClosed = (message: string) => message.startsWith(`${OPENS_LATER} `) || message.startsWith(`${CLOSED_SINCE} `);

/** Which page answers the API's `status`, `body` and `headers` (exported for its table of cases). */
export function outcomeOf(status: number, body: Record<string, unknown>, headers: Headers): Outcome {
  if (status === 201) return 'registered';
  if (status === 200) return body.status === 'already_following' ? 'following' : 'confirm';
  if (status === 422) {
    const errors = Array.isArray(body.errors) ? (body.errors as Array<{ message?: unknown }>).map((e) => String(e.message ?? '')) : [];
    if (errors.some((m) => MISNAMED.has(m))) return 'misnamed';
    // A closed division beside answers to correct is closed all the same: a review's parent corrected the guardian's
    // fields, sent the form again, and only then learned the division took nothing.
    if (errors.some(isClosed)) return 'closed';
    return 'fix';
  }
  // The mailbox's daily cap of confirmations (RateLimit names its policy), or the client's own rate.
  if (status === 429) return (headers.get('ratelimit') ?? '').startsWith('"mailbox"') ? 'capped' : 'refused';
  // Over 16 KiB is long text (Arabic, percent-encoded, is about 6 bytes a letter: some 2,700 letters), not the site's
  // encoding, which the 400 and 415 words blame.
  if (status === 413) return 'too-long';
  if (status === 405) return 'not-post';
  // A browser's form sends no other media type than its enctype's, and no Content-Encoding.
  if (status === 415) return 'not-a-form';
  // A field named twice (src/http/body.ts): the form's set-up, not its encoding.
  if (status === 400 && repeatedFieldOf(body.detail) !== null) return 'repeated';
  return 'unreadable';
}

/** The answers after which the person is done with the form: their page leads back to the site it is on. */
const DONE: ReadonlySet<Outcome> = new Set(['registered', 'confirm', 'following']);

/**
 * The site a form was posted from, to lead back to: the request's Origin (a browser sends it with every form's POST),
 * else its Referer's origin; only an http(s) one, and not when the answer shows in a frame (Sec-Fetch-Dest: the site
 * is still around it). Two reviews found the answer pages a dead end, the Back button the only way out. Only the
 * origin is known (browsers send no more across sites), so the link is to the site, not to its form.
 */
export function siteOfForm(request: Request): URL | null {
  const dest = request.headers.get('Sec-Fetch-Dest');
  if (dest === 'iframe' || dest === 'frame') return null;
  for (const value of [request.headers.get('Origin'), request.headers.get('Referer')]) {
    if (!value || value === 'null') continue;
    try {
      const url = new URL(value);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '') return new URL(url.origin);
    } catch {
      /* not a URL: the next, or none */
    }
  }
  return null;
}

/** Where and when a form was answered: the site it was posted from (siteOfForm; null: none to lead back to), the instant. */
export interface FormContext {
  site: URL | null;
  now: Date;
}

/** The page for the API's answer (`status`, `body`, `headers`) to a form that posted `fields`. */
export function answerPage(
  store: SyncDb,
  route: FormRoute,
  answer: { status: number; body: Record<string, unknown>; headers: Headers },
  fields: Record<string, unknown>,
  { site, now }: FormContext,
): Html {
  const { body } = answer;
  const outcome = outcomeOf(answer.status, body, answer.headers);
  const names = namesOf(store, route, fields, outcome);
  const { language } = names;
  const scope = scopeName(names.organization ?? '', names.scope);
  // As stored (trimmed, its domain in ASCII): the address the receipt is sent to.
  const registeredEmail = outcome === 'registered' && typeof body.id === 'string'
    ? store.first(store.q.selectFrom('registrations').select('email').where('id', '=', body.id))?.email
    : undefined;
  // The reference isolated too: one ending in "-" showed it first on an Arabic page (a review: ".-reg_juhRY…").
  const said = {
    route,
    scope,
    within: names.scope !== null,
    division: names.scope === null ? '' : isolated(names.scope),
    organization: isolated(names.organization ?? ''),
    id: typeof body.id === 'string' ? isolated(body.id) : '',
    email: registeredEmail === undefined ? '' : leftToRight(registeredEmail),
    contact: names.contact === null ? '' : leftToRight(names.contact),
    hours: Math.max(1, Math.ceil(Number(answer.headers.get('retry-after') ?? 0) / 3600)),
    field: repeatedFieldOf(body.detail) ?? '',
  };
  const [title, lead] = WORDS[language][outcome](said);
  const listed = outcome === 'fix' || outcome === 'closed' || outcome === 'misnamed';
  const given = listed && Array.isArray(body.errors) ? (body.errors as Array<{ field: string; message: string }>) : [];
  // A closed division lists its window alone: the other answers are checked again against the division the person
  // chooses instead (whose rules, a guardian's age among them, may differ), and a list of fields to correct under
  // "Nothing was sent" invited the correct-and-send-again round the review found.
  const errors = outcome === 'closed' ? given.filter((e) => isClosed(e.message)) : given;
  // A date of birth outside the division's days: the organization's other divisions it fits, open now, named (a
  // registrations review's parent was told an under-14 side's days, and left to work out which side takes a 2011
  // birthday). Only on the page: the API's message stays what a script may match.
  // The date as the API read it (Arabic-Indic digits, a one-digit month: src/http/fields.ts), compared and shown so.
  const born = dateOfBirthField.safeParse(fields.date_of_birth).data;
  const fitting = route === 'register' && names.id !== null && born !== undefined
    && errors.some((e) => e.field === 'date_of_birth' && isOutsideBirthDays(e.message))
    ? divisionsThatFit(born, publicDivisions(store, names.id), now).filter((d) => d.id !== text(fields.division_id))
    : [];
  const fits = fitting.length === 0 || born === undefined ? '' : html`<p data-fitting>${FITS[language](
    leftToRight(born),
    fitting.map((d) => isolated(localizedName(d.name, d.name_ar, language))),
  )}</p>`;
  // The messages are the API's, in English, said in the page's language where field-messages.ts has the words; one
  // left in English is marked so. Each follows its field's name in the page's language.
  const listIn = (lang: Language) => {
    if (errors.length === 0) return '';
    const inPage = (message: string) => {
      const m = fieldMessage(message, lang, names.timeZone);
      return html`<span lang="${m.language}" dir="${isRightToLeft(m.language) ? 'rtl' : 'ltr'}">${m.text}</span>`;
    };
    return html`<ul>${errors.map((e) => html`<li><bdi>${FIELD_LABELS[e.field]?.[lang] ?? e.field}</bdi>: ${inPage(e.message)}</li>`)}</ul>`;
  };
  // No organization named (an unknown id): its language is not known, and the page says it in Arabic too, with the
  // answers to correct (a review found "correct them" in Arabic above no list of them).
  const [arTitle, arLead] = WORDS.ar[outcome](said);
  const arabic = names.organization === null
    ? html`<div lang="ar" dir="rtl" class="other-language"><h2>${arTitle}</h2><p>${arLead}</p>${listIn('ar')}</div>`
    : '';
  // Done with the form: back to the site it is on, named by its host (read left to right in an Arabic page).
  const back = site !== null && DONE.has(outcome)
    ? html`<p><a href="${site.href}" data-back>${language === 'ar' ? `العودة إلى ${leftToRight(site.host)}` : `Back to ${site.host}`}</a></p>`
    : '';
  return pageDocument({
    language,
    title: names.organization === null ? `${title} · ${arTitle}` : title,
    mainAttributes: html`data-form-answer="${outcome}"`,
    body: html`<h1>${title}</h1>
<p>${lead}</p>
${listIn(language)}
${fits}
${arabic}
${back}`,
  });
}

/**
 * The API's `answer` to a form post, as a page: its status and its rate-limit headers kept, the answer pages' headers
 * added (any site may frame them: the form may be in a frame).
 */
export async function answerAsPage(store: SyncDb, route: FormRoute, answer: Response, fields: Record<string, unknown>, context: FormContext): Promise<Response> {
  if (!PAGE_STATUSES.has(answer.status)) return answer;
  // A failure (logged already; the one 500, or a 503 the operator fixes): the failure page, in both languages, since
  // what failed may be reading the organization.
  if (answer.status === 500 || answer.status === 503) return failureResponse(FORM_ANSWER_HEADERS, answer);
  const body = (await answer.clone().json().catch(() => ({}))) as Record<string, unknown>;
  const headers = new Headers(answer.headers);
  for (const [k, v] of Object.entries(FORM_ANSWER_HEADERS)) headers.set(k, v);
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.set('Cache-Control', NO_STORE);
  headers.delete('Content-Length');
  return new Response(answerPage(store, route, { status: answer.status, body, headers: answer.headers }, fields, context).toString(), { status: answer.status, headers });
}
