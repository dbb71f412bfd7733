// The API's field messages said in the language of the page a person's form post gets (src/forms/answer-page.ts).
// The API answers in English, for a script and its developer (the contract's problem documents); a parent filling an
// Arabic club's form read "اسم ولي الأمر: is required for a player under 14". Each message the request schemas
// (src/http/fields.ts, email-address.ts) and the registration rules (src/registrations/rules.ts, service.ts) can give
// has its Arabic here; field-messages.test.ts feeds those schemas and rules every kind of bad answer and fails on a
// message with none. A message without one (a new rule not yet said here) is shown in English, marked so.
import { NO_SUCH_ORGANIZATION, NOT_ITS_DIVISION, NOT_ITS_LEAGUE } from '../errors.js';
import { LANGUAGE_MESSAGE } from '../http/fields.js';
import { CLOSED_SINCE, DIVISION_REQUIRED, OPENS_LATER } from '../registrations/rules.js';
import { arabicDateTimes } from '../time/local-time.js';
import { arabicCount, isolated, leftToRight, type Language } from '../vocabulary/language.js';

/** A message as shown: its text and the language it is in. */
export interface SaidMessage {
  text: string;
  language: Language;
}

const characters = (n: number) =>
  arabicCount(n, { one: 'حرف واحد', two: 'حرفين', few: (k) => `${k} أحرف`, many: (k) => `${k} حرفًا`, other: (k) => `${k} حرف` });

const AN_ADDRESS = 'يجب أن يكون عنوان بريد إلكتروني';

/** The days a division's players are born between (src/registrations/rules.ts bornRange): both, from, until. */
const BORN_RANGE = String.raw`(?:from (\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})|on or after (\d{4}-\d{2}-\d{2})|on or before (\d{4}-\d{2}-\d{2}))`;

function arabicBornRange(m: RegExpExecArray): string {
  if (m[1] !== undefined) return `بين ${leftToRight(m[1])} و${leftToRight(m[2]!)}`;
  if (m[3] !== undefined) return `في ${leftToRight(m[3])} أو بعده`;
  return `في ${leftToRight(m[4]!)} أو قبله`;
}

/** A message said in one place (src/errors.ts), matched whole. */
const whole = (message: string) => new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** English message (the whole of it) → Arabic. Code points, addresses and symbol lists read left to right. */
const ARABIC: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray, timeZone: string | undefined) => string]> = [
  [/^is required$/, () => 'مطلوب'],
  [/^must be a string$/, () => 'يجب أن يكون نصًا'],
  [/^must be at most (\d+) characters$/, (m) => `يجب ألا يزيد على ${characters(Number(m[1]))}`],
  [/^must not contain control characters$/, () => 'يجب ألا يحتوي على محارف تحكم'],
  [/^must not contain text direction controls \((.+)\)$/, (m) => `يجب ألا يحتوي على محارف التحكم في اتجاه النص (${leftToRight(m[1]!)})`],
  [/^must not contain invisible characters: (U\+[0-9A-F]+) (?:after "(.*)"|at the start)$/,
    (m) => `يجب ألا يحتوي على محارف غير مرئية: ${leftToRight(m[1]!)} ${m[2] === undefined ? 'في أوله' : `بعد «${isolated(m[2])}»`}`],
  [/^must be valid Unicode text$/, () => 'يجب أن يكون نصًا صالحًا (Unicode)'],
  [/^must contain a letter, a digit or a symbol \(it reads as blank\)$/, () => 'يجب أن يحتوي على حرف أو رقم أو رمز (يبدو فارغًا)'],
  [/^must be an identifier such as "(.+)"$/, (m) => `يجب أن يكون معرّفًا مثل ${leftToRight(m[1]!)}`],
  [/^must be an email address such as (\S+)$/, (m) => `${AN_ADDRESS} مثل ${leftToRight(m[1]!)}`],
  [/^must be an email address: the part before @ may hold letters, digits, dots \(not two in a row, not first or last\) and (.+)$/,
    (m) => `${AN_ADDRESS}: الجزء الذي قبل @ يتكون من حروف لاتينية وأرقام ونقاط (لا نقطتان متتاليتان، ولا نقطة في أوله أو آخره) ومن ${leftToRight(m[1]!)}`],
  [/^must be an email address: at most (\d+) characters before the @$/, (m) => `${AN_ADDRESS}: ${characters(Number(m[1]))} على الأكثر قبل @`],
  [/^must be an email address: the part after @ is not a domain such as (\S+)$/, (m) => `${AN_ADDRESS}: الجزء الذي بعد @ ليس نطاقًا مثل ${leftToRight(m[1]!)}`],
  [/^must be an email address: at most (\d+) characters$/, (m) => `${AN_ADDRESS}: ${characters(Number(m[1]))} على الأكثر`],
  [/^must be a phone number: digits, spaces, (.+)$/, (m) => `يجب أن يكون رقم هاتف: أرقام ومسافات و${leftToRight(m[1]!)}`],
  [/^must be a date as YYYY-MM-DD$/, () => `يجب أن يكون تاريخًا بالشكل ${leftToRight('YYYY-MM-DD')} (مثل ${leftToRight('2014-05-01')})`],
  [/^is not a real date$/, () => 'ليس تاريخًا صحيحًا'],
  [whole(LANGUAGE_MESSAGE), () => `يجب أن تكون ${leftToRight('"en"')} (الإنجليزية) أو ${leftToRight('"ar"')} (العربية)`],
  [/^must be between (\S+) and today$/, (m) => `يجب أن يكون بين ${leftToRight(m[1]!)} واليوم`],
  // A date starts with its weekday: "يوم" before it, as Arabic says a day ("في الجمعة 20 نوفمبر" is not Arabic; a
  // native Arabic review).
  [new RegExp(`^${OPENS_LATER} (.+)$`), (m, zone) => `تستقبل التسجيلات ابتداءً من يوم ${arabicDateTimes(m[1]!, zone)}`],
  [new RegExp(`^${CLOSED_SINCE} (.+)$`), (m, zone) => `توقفت عن استقبال التسجيلات يوم ${arabicDateTimes(m[1]!, zone)}`],
  [/^is required: players under (\d+) need a guardian$/, (m) => `مطلوب: من هم دون سن ${m[1]} يحتاجون إلى ولي أمر`],
  [/^is required for a player under (\d+)$/, (m) => `مطلوب للاعب دون سن ${m[1]}`],
  [whole(DIVISION_REQUIRED), () => 'مطلوب: يُرجى اختيار إحدى فئات الجهة المنظمة'],
  [new RegExp(`^must be ${BORN_RANGE} for this division$`), (m) => `يجب أن يكون ${arabicBornRange(m)} لهذه الفئة`],
  [new RegExp(`^is required: the division takes players born ${BORN_RANGE}$`), (m) => `مطلوب: تقبل هذه الفئة اللاعبين المولودين ${arabicBornRange(m)}`],
  [whole(NO_SUCH_ORGANIZATION), () => 'لا توجد جهة منظمة بهذا المعرّف'],
  [whole(NOT_ITS_DIVISION), () => 'ليست من فئات هذه الجهة'],
  [whole(NOT_ITS_LEAGUE), () => 'ليس من دوريات هذه الجهة'],
];

/**
 * `message` (the API's, in English) in `language`, or as it is, marked English, when it has no wording there.
 * `timeZone`: the organization's, which the message's times were written in.
 */
export function fieldMessage(message: string, language: Language, timeZone?: string): SaidMessage {
  if (language === 'ar') {
    for (const [pattern, say] of ARABIC) {
      const m = pattern.exec(message);
      if (m) return { text: say(m, timeZone), language: 'ar' };
    }
  }
  return { text: message, language: 'en' };
}
