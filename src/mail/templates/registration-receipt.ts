// The receipt of a registration request, to its contact address. Anyone can type any address into the form, so
// the receipt carries nothing the submitter chose (no name, no notes): only the organization, the division, the
// reference and the date, all of which the organization or the service wrote, and the organization's contact address
// when it gave one (its Reply-To too: src/mail/compose.ts).
import { isolatedIn, type Language } from '../../vocabulary/language.js';
import { formatDateTime } from '../../time/local-time.js';
import { html } from './html.js';
import { factLines, layout, t, textBlock, type Fact, type RenderedEmail } from './layout.js';
import { REFERENCE_LABEL } from './registration-notice.js';

export interface RegistrationReceiptInput {
  language: Language;
  organizationName: string;
  divisionName: string | null;
  registrationId: string;
  /** When the registration was taken, shown in the organization's time zone; null in rows queued before it was recorded. */
  submittedAt: string | null;
  timeZone: string;
  /** The organization's contact_email, or null: it gave none (then the email can only say to keep the reference). */
  contact: string | null;
}

export function registrationReceiptEmail(input: RegistrationReceiptInput): RenderedEmail {
  const ar = input.language === 'ar';
  const name = isolatedIn(input.language);
  const when = formatDateTime(input.submittedAt, input.timeZone, input.language);
  const contact = input.contact;
  const s = ar
    ? {
        subject: `استلمنا طلب التسجيل: ${name(input.organizationName)}`,
        heading: 'استلمنا طلب التسجيل',
        hello: 'مرحبًا،',
        received: `استلمت ${name(input.organizationName)} طلب تسجيل لاعب ذُكر فيه عنوان بريدك الإلكتروني للتواصل.`,
        labels: { org: 'الجهة المنظِّمة', division: 'الفئة', id: REFERENCE_LABEL.ar, date: 'التاريخ' },
        noDivision: 'غير محددة',
        nextTitle: 'ماذا بعد؟',
        next: `يراجع المنظِّمون كل طلب، وسيتواصلون معك على هذا البريد الإلكتروني إذا احتاجوا إلى معلومات إضافية ولتأكيد التسجيل. ${
          contact === null ? 'يُرجى الاحتفاظ برقم الطلب لذكره عند مراسلتهم.' : `لمراسلتهم (لتصحيح أو سؤال)، يُرجى الرد على هذه الرسالة أو الكتابة إلى ${name(contact)}، مع ذكر رقم الطلب.`
        }`,
        notYou: `إذا لم يكن هذا الطلب منك، يمكنك تجاهل هذه الرسالة، أو إبلاغ الجهة المنظِّمة برقم الطلب${contact === null ? '' : ` على ${name(contact)}`}.`,
        sentBy: `أُرسلت هذه الرسالة نيابةً عن ${name(input.organizationName)}.`,
      }
    : {
        subject: `Registration received: ${input.organizationName}`,
        heading: 'We received a registration',
        hello: 'Hello,',
        received: `${input.organizationName} received a player registration request that gives this email address as its contact.`,
        labels: { org: 'Organization', division: 'Division', id: REFERENCE_LABEL.en, date: 'Submitted' },
        noDivision: 'Not specified',
        nextTitle: 'What happens next?',
        next: `The organizers review every request and will email you at this address to confirm the registration, or if they need more information. ${
          contact === null ? 'If you write to them, quote the reference above.' : `To write to them (a correction, a question), reply to this email or write to ${contact}, with the reference.`
        }`,
        notYou: `If you did not submit this request, you can ignore this email, or let the organization know, quoting the reference${contact === null ? '' : ` at ${contact}`}.`,
        sentBy: `Sent on behalf of ${input.organizationName}.`,
      };
  const facts: Fact[] = [
    [s.labels.org, input.organizationName],
    [s.labels.division, input.divisionName ?? s.noDivision],
    [s.labels.id, input.registrationId, 'code'],
    ...(when ? [[s.labels.date, when] as [string, string]] : []),
  ];
  return {
    subject: s.subject,
    text: textBlock([
      s.hello,
      '',
      s.received,
      '',
      ...factLines(facts, input.language),
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
      // A heading, not bold text: an accessibility review's heading navigation skipped it.
      after: [{ heading: s.nextTitle }, t(s.next), t(s.notYou)],
      footer: [t(s.sentBy)],
    }),
  };
}
