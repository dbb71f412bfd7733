// The organization's copy of a registration, to each of its registration_emails: what it needs to act on it
// (player, division, contact, date of birth and guardian where given, the reference) and the command that exports
// the rest. These addresses asked for registrations, so the submitter's text may reach them; it is escaped like
// any other value.
import { arabicCount, isolatedIn, type Language } from '../../vocabulary/language.js';
import { formatDateTime, formatDay, localDate } from '../../time/local-time.js';
import { html, type Html } from './html.js';
import { factLines, layout, t, textBlock, type Fact, type RenderedEmail } from './layout.js';

/**
 * The label of a registration's reference in its notice and its receipt (registration-receipt.ts), the line that
 * names the email's own registration: `npm run registrations -- --remove` finds an email's .eml file by it
 * (namesRegistration), and not by a mention elsewhere (a notice names the registration it may repeat).
 */
export const REFERENCE_LABEL: Readonly<Record<Language, string>> = { en: 'Reference', ar: 'رقم الطلب' };

/** Whether an email's text (decoded) is about registration `id`: its reference line names it. */
export function namesRegistration(text: string, id: string): boolean {
  const value = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:${Object.values(REFERENCE_LABEL).join('|')}): \u2068?${value}\u2069?\r?$`, 'm').test(text);
}

/** "200 إشعار", "7 إشعارات", "15 إشعارًا": the notice's cap as Arabic counts it. */
const NOTICES = { one: 'إشعار واحد', two: 'إشعاران', few: (n: number) => `${n} إشعارات`, many: (n: number) => `${n} إشعارًا`, other: (n: number) => `${n} إشعار` };

export interface RegistrationNoticeInput {
  language: Language;
  organizationId: string;
  organizationName: string;
  divisionName: string | null;
  registrationId: string;
  submittedAt: string;
  timeZone: string;
  playerName: string;
  playerNameAr: string | null;
  email: string;
  phone: string | null;
  dateOfBirth: string | null;
  guardianName: string | null;
  guardianPhone: string | null;
  hasNotes: boolean;
  /**
   * This notice is the last this address is sent before its daily cap (REGISTRATION_NOTICES_PER_ADDRESS_PER_DAY, the
   * number): it says so, so that a quiet inbox afterwards is not read as no registrations. Absent: not the last.
   */
  lastBeforeCap?: number;
  /**
   * The earlier registration this one repeats (src/registrations/repeat-of.ts: the same name and date of birth, or,
   * one of them without it, the same contact mailbox), said so that the secretary need not wait for the export's
   * same_player_as; null or absent: none.
   */
  repeatOf?: { id: string; submittedAt: string; by: 'date_of_birth' | 'email' } | null;
}

/**
 * The export command, as the operator would run it in the service's folder. It names its file: `> file` would put
 * npm's banner before the CSV's byte-order mark (scripts/registrations.ts).
 */
export function exportCommand(orgId: string, since: string): string {
  // The file named without colons or a fraction of a second (Windows refuses a colon in a name, as do mail clients
  // saving an attachment): `registrations-riverside-2026-05-02T100100Z.csv` for an instant.
  const label = since.replace(/\.\d+(?=Z$)/, '').replaceAll(':', '');
  return `npm run registrations -- --org ${orgId} --since ${since} --output registrations-${orgId}-${label}.csv`;
}

/** The export command as an email shows it, under its title: a line of its own in the text, a code line in the HTML. */
export function exportCommandParts(title: string, command: string): { text: string[]; html: Html[] } {
  return { text: [title, `  ${command}`], html: [t(title), html`<code dir="ltr" style="overflow-wrap:anywhere;">${command}</code>`] };
}

/**
 * The `--since` day of a notice's export command: the day the registration arrived in the organization's time
 * zone, since `npm run registrations -- --since DAY` reads DAY there (src/registrations/export.ts). The UTC date
 * left out, west of UTC, a registration made in the local evening (New York, 22:00 on 1 May is 02:00Z on 2 May:
 * `--since 2026-05-02` listed nothing).
 */
export function exportSinceDay(submittedAt: string, timeZone: string): string {
  const instant = new Date(submittedAt);
  return Number.isNaN(instant.getTime()) ? submittedAt.slice(0, 10) : localDate(instant, timeZone);
}

export function registrationNoticeEmail(input: RegistrationNoticeInput): RenderedEmail {
  const ar = input.language === 'ar';
  const name = isolatedIn(input.language);
  const when = formatDateTime(input.submittedAt, input.timeZone, input.language) ?? input.submittedAt;
  const command = exportCommand(input.organizationId, exportSinceDay(input.submittedAt, input.timeZone));
  // The player as every email names a person in the organization's language (README: `name_ar` in an Arabic one, where
  // given), in the subject and the player line alike; the other name the form took follows it. The mail review met
  // `طلب تسجيل جديد: ⁨Yazan Haddad⁩` for a registrant who had given their Arabic name to an Arabic organization.
  const arabicFirst = ar && input.playerNameAr !== null;
  const player = arabicFirst ? input.playerNameAr! : input.playerName;
  const otherName = arabicFirst ? input.playerName : input.playerNameAr;
  const s = ar
    ? {
        subject: `طلب تسجيل جديد: ${name(player)}${input.divisionName ? `، ${name(input.divisionName)}` : ''}`,
        heading: 'طلب تسجيل جديد',
        intro: `وصل طلب تسجيل جديد إلى ${name(input.organizationName)}.`,
        labels: {
          player: 'اللاعب', otherName: arabicFirst ? 'الاسم كما كُتب في خانة الاسم' : 'الاسم بالعربية', division: 'الفئة', dob: 'تاريخ الميلاد', email: 'البريد الإلكتروني (كما كُتب، غير موثَّق؛ الرد يصل إليه)',
          phone: 'الهاتف', guardian: 'وليّ الأمر', guardianPhone: 'هاتف وليّ الأمر', id: REFERENCE_LABEL.ar, date: 'التاريخ',
        },
        noDivision: 'غير محددة',
        notes: 'أضاف مقدّم الطلب ملاحظات لا تتضمنها هذه الرسالة، وهي في التصدير الذي يكتبه الأمر أدناه.',
        exportTitle: 'لتصدير الطلبات كاملةً (CSV أو JSON) يشغّل مشغّل الخدمة في مجلدها:',
        why: 'وصلتك هذه الرسالة لأن عنوانك مدرج في عناوين التسجيل لدى الجهة المنظِّمة.',
        repeat: (id: string, at: string, by: 'date_of_birth' | 'email') =>
          `قد يكون هذا الطلب للاعب نفسه في الطلب ${id} الذي وصل ${at}: ${by === 'date_of_birth' ? 'الاسم وتاريخ الميلاد متطابقان' : 'الاسم وعنوان البريد الإلكتروني متطابقان'}. يذكره عمود same_player_as في التصدير أيضًا، ولم يُدمج الطلبان.`,
        last: (n: number) => `هذا آخر إشعار يصل إلى هذا العنوان خلال 24 ساعة (الحد ${arabicCount(n, NOTICES)}). الطلبات التالية تُحفظ، ويصل عنها ملخص مرة في الساعة على الأكثر بعددها؛ يسردها أمر التصدير أدناه.`,
      }
    : {
        subject: `New registration: ${player}${input.divisionName ? `, ${input.divisionName}` : ''}`,
        heading: 'New registration',
        intro: `${input.organizationName} has a new registration request.`,
        labels: {
          player: 'Player', otherName: 'Name in Arabic', division: 'Division', dob: 'Date of birth', email: 'Email (as entered, not checked; replies go to it)',
          phone: 'Phone', guardian: 'Guardian', guardianPhone: "Guardian's phone", id: REFERENCE_LABEL.en, date: 'Received',
        },
        noDivision: 'Not specified',
        notes: 'The person who registered added notes: they are not in this email, but are in the export the command below writes.',
        exportTitle: 'To export the registrations in full (CSV or JSON), ask whoever runs the service to run this in its folder:',
        why: "You receive this email because your address is one of the organization's registration addresses.",
        repeat: (id: string, at: string, by: 'date_of_birth' | 'email') =>
          `This may be the same player as registration ${id}, received on ${at}: the same name and ${by === 'date_of_birth' ? 'date of birth' : 'email address'}. The export's same_player_as column names it too; the two were not merged.`,
        last: (n: number) => `This is the last single notice this address gets until fewer than ${n} have gone to it in 24 hours (its limit). Registrations after it are kept, and a summary of how many came is sent at most once an hour; the export command below lists them.`,
      };
  const exported = exportCommandParts(s.exportTitle, command);
  const repeat = input.repeatOf
    ? s.repeat(name(input.repeatOf.id), (ar ? 'يوم ' : '') + (formatDateTime(input.repeatOf.submittedAt, input.timeZone, input.language) ?? input.repeatOf.submittedAt), input.repeatOf.by)
    : null;
  const optional: Array<[string, string | null]> = [
    [s.labels.otherName, otherName],
    // In words, as every other date of the email (the export keeps the ISO form).
    [s.labels.dob, input.dateOfBirth === null ? null : (formatDay(input.dateOfBirth, input.timeZone, input.language) ?? input.dateOfBirth)],
    [s.labels.phone, input.phone],
    [s.labels.guardian, input.guardianName],
    [s.labels.guardianPhone, input.guardianPhone],
  ];
  const facts: Fact[] = [
    [s.labels.player, player],
    [s.labels.division, input.divisionName ?? s.noDivision],
    [s.labels.email, input.email],
    ...optional.filter((f): f is [string, string] => f[1] !== null),
    [s.labels.id, input.registrationId, 'code'],
    [s.labels.date, when],
  ];
  return {
    subject: s.subject,
    text: textBlock([
      s.intro,
      '',
      ...factLines(facts, input.language),
      input.hasNotes && '',
      input.hasNotes && s.notes,
      repeat !== null && '',
      repeat,
      input.lastBeforeCap !== undefined && '',
      input.lastBeforeCap !== undefined && s.last(input.lastBeforeCap),
      '',
      ...exported.text,
      '',
      '--',
      s.why,
    ]),
    html: layout({
      language: input.language,
      subject: s.subject,
      preheader: s.intro,
      organizationName: input.organizationName,
      heading: s.heading,
      intro: [t(s.intro)],
      facts,
      after: [
        ...(input.hasNotes ? [t(s.notes)] : []),
        ...(repeat !== null ? [t(repeat)] : []),
        ...(input.lastBeforeCap !== undefined ? [t(s.last(input.lastBeforeCap))] : []),
        ...exported.html,
      ],
      footer: [t(s.why)],
    }),
  };
}
