// To a registration address past its daily cap of notices (REGISTRATION_NOTICES_PER_ADDRESS_PER_DAY): how many
// registrations arrived since the first one its notices left out, at most one such email an hour, with the command
// that exports them. Before, the address heard nothing for a day: an attacker's review sent 200 junk registrations
// and the club's real ones went unheard on its registration day. It names no one: the count and the export.
import { arabicCount, isolatedIn, type Language } from '../../vocabulary/language.js';
import { formatDateTime } from '../../time/local-time.js';
import { exportCommand, exportCommandParts } from './registration-notice.js';
import { layout, t, textBlock, type RenderedEmail } from './layout.js';

/** "طلب واحد", "طلبان", "3 طلبات", "11 طلبًا", "100 طلب": registrations as Arabic counts them. */
const REQUESTS = { one: 'طلب واحد', two: 'طلبان', few: (n: number) => `${n} طلبات`, many: (n: number) => `${n} طلبًا`, other: (n: number) => `${n} طلب` };

export interface RegistrationOverflowInput {
  language: Language;
  organizationId: string;
  organizationName: string;
  timeZone: string;
  /** When the first registration its notices left out arrived (RFC 3339). */
  since: string;
  /** Registrations since then, counted as the email leaves. */
  count: number;
  /** The address's daily cap of notices. */
  cap: number;
}

export function registrationOverflowEmail(input: RegistrationOverflowInput): RenderedEmail {
  const ar = input.language === 'ar';
  const name = isolatedIn(input.language);
  const when = formatDateTime(input.since, input.timeZone, input.language) ?? input.since;
  // The export from that very instant, to the millisecond: cut to whole seconds it also listed the registrations
  // notified earlier in that second (a registrations review: "8 more" and 12 rows). `--since` reads a day in the
  // organization's zone, an instant as it is.
  const command = exportCommand(input.organizationId, input.since);
  const s = ar
    ? {
        subject: `طلبات تسجيل أخرى: ${arabicCount(input.count, REQUESTS)} منذ ${when}`,
        heading: 'طلبات تسجيل أخرى',
        intro: `وصل إلى ${name(input.organizationName)} ${arabicCount(input.count, REQUESTS)} منذ ${when}.`,
        why: `بلغ هذا العنوان حدّه من الإشعارات خلال 24 ساعة (${input.cap})، فلا تُرسل الطلبات إليه واحدًا واحدًا: يصله ملخص كهذا مرة في الساعة على الأكثر. الطلبات كلها محفوظة.`,
        exportTitle: 'لتصديرها (CSV أو JSON) يشغّل مشغّل الخدمة في مجلدها:',
        footer: 'وصلتك هذه الرسالة لأن عنوانك مدرج في عناوين التسجيل لدى الجهة المنظِّمة.',
      }
    : {
        subject: `More registrations: ${input.count} since ${when}`,
        heading: 'More registrations',
        intro: `${input.organizationName} has had ${input.count === 1 ? '1 more registration' : `${input.count} more registrations`} since ${when}.`,
        why: `This address has reached its limit of ${input.cap} notices in 24 hours, so registrations are not emailed to it one by one: it gets a summary like this one at most once an hour. Every registration is kept.`,
        exportTitle: 'To export them (CSV or JSON), ask whoever runs the service to run this in its folder:',
        footer: "You receive this email because your address is one of the organization's registration addresses.",
      };
  const exported = exportCommandParts(s.exportTitle, command);
  return {
    subject: s.subject,
    text: textBlock([s.intro, '', s.why, '', ...exported.text, '', '--', s.footer]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: s.intro,
      organizationName: input.organizationName,
      heading: s.heading,
      intro: [t(s.intro)],
      after: [t(s.why), ...exported.html],
      footer: [t(s.footer)],
    }),
  };
}
