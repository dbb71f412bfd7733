// The follow confirmation (double opt-in): names the scope, links confirm and unsubscribe, says ignoring is safe.
import { isolatedIn, scopeName, type Language } from '../../vocabulary/language.js';
import { html, safeUrl } from './html.js';
import { layout, link, t, textBlock, type RenderedEmail } from './layout.js';

export interface FollowConfirmationInput {
  language: Language;
  organizationName: string;
  leagueName?: string | null;
  confirmUrl: string;
  unsubscribeUrl: string;
}

export function followConfirmationEmail(input: FollowConfirmationInput): RenderedEmail {
  const ar = input.language === 'ar';
  const name = isolatedIn(input.language);
  const scope = scopeName(input.organizationName, input.leagueName ?? null, name);
  const s = ar
    ? {
        subject: `تأكيد متابعة ${scope}`,
        heading: 'تأكيد متابعتك',
        hello: 'مرحبًا،',
        asked: `وصلنا طلب (نأمل أن يكون منك) لمتابعة ${scope} وتلقّي آخر الأخبار والنتائج عبر البريد الإلكتروني.`,
        confirm: 'لتفعيل المتابعة، يُرجى فتح «تأكيد المتابعة»:',
        confirmText: 'لتفعيل المتابعة، يُرجى فتح هذا الرابط ثم التأكيد:',
        button: 'تأكيد المتابعة',
        ignore: 'إذا لم يكن الطلب منك، فيمكن تجاهل هذه الرسالة: لن تُفعَّل أي متابعة. وإن تكررت هذه الرسائل لهذه المتابعة، فرابط إلغاء الاشتراك أدناه يوقفها لمدة 30 يومًا.',
        unsubscribe: 'لا رغبة لديك في تلقي رسائلنا؟',
        unsubscribeLink: 'إلغاء الاشتراك',
        sentBy: `أُرسلت هذه الرسالة نيابةً عن ${name(input.organizationName)}.`,
      }
    : {
        subject: `Confirm you want to follow ${scope}`,
        heading: 'Confirm you want updates',
        hello: 'Hello,',
        asked: `Someone, hopefully you, asked to follow ${scope} and get news and results by email.`,
        confirm: 'To start following, open “Confirm follow”:',
        confirmText: 'To start following, open this link and confirm:',
        button: 'Confirm follow',
        // Not "you will not hear from us again": anyone can type an address into the form, again later (at most three
        // confirmations a day to a mailbox); its Unsubscribe link quiets that follow's requests for 30 days.
        ignore: 'If you did not ask for this, ignore this email: you will not be signed up. If you keep getting these requests, the Unsubscribe link below stops them for 30 days.',
        unsubscribe: "Don't want these emails?",
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
      // The text part has no button.
      s.confirmText,
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
      fallback: true,
      footer: [html`${s.unsubscribe} ${link(input.unsubscribeUrl, s.unsubscribeLink)}`, t(s.sentBy)],
    }),
  };
}
