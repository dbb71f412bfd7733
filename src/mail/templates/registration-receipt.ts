// The receipt of a registration request, to its contact address.
import type { Language } from '../../vocabulary/language.js';
import { html } from './html.js';
import { layout, t, textBlock, type RenderedEmail } from './layout.js';

export interface RegistrationReceiptInput {
  language: Language;
  organizationName: string;
  playerName: string;
  divisionName: string | null;
  registrationId: string;
}

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
