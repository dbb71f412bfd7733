import { describe, expect, it } from 'vitest';
import { deliveryKey, mailboxOf, withoutStrangersTag } from './mailbox.js';

describe('mailboxOf: the mailbox an address delivers to, as the per-mailbox limits count it', () => {
  it.each([
    ['Lina.Haddad@Example.org', 'linahaddad@example.org'],
    ['lina+club@example.org', 'lina@example.org'],
    ['l.i.n.a+a+b@example.org.', 'lina@example.org'],
    ['lina@googlemail.com', 'lina@gmail.com'],
    ['lina@bücher.example', 'lina@xn--bcher-kva.example'],
    // Proton: dots, hyphens and underscores ignored, one username across its domains.
    ['Lina_Haddad@protonmail.com', 'linahaddad@proton.me'],
    ['lina-haddad+club@pm.me', 'linahaddad@proton.me'],
    ['l.ina@protonmail.ch', 'lina@proton.me'],
    // iCloud: one name across icloud.com, me.com and mac.com.
    ['lina@me.com', 'lina@icloud.com'],
    ['Lina.Haddad+club@mac.com', 'linahaddad@icloud.com'],
    // Yandex: one login across its domains, a hyphen the same as a dot.
    ['ivan-petrov@ya.ru', 'ivanpetrov@yandex.ru'],
    ['ivan.petrov+club@yandex.com', 'ivanpetrov@yandex.ru'],
    ['ivan-petrov@yandex.kz', 'ivanpetrov@yandex.ru'],
    // Elsewhere a hyphen or underscore is part of the mailbox.
    ['lina-haddad@example.org', 'lina-haddad@example.org'],
    ['lina_haddad@gmail.com', 'lina_haddad@gmail.com'],
    // Fastmail's subdomain addressing: anything@user.fastmail.com is user's.
    ['club@lina.fastmail.com', 'lina@fastmail.com'],
    ['Another.Club@Lina.Fastmail.FM', 'lina@fastmail.fm'],
    ['lina+club@fastmail.com', 'lina@fastmail.com'],
    // Not for other domains' subdomains: lina@mail.example.org is not mail@example.org.
    ['lina@mail.example.org', 'lina@mail.example.org'],
    // A domain named like a member of Object.prototype is itself, not Object.prototype's.
    ['lina@constructor', 'lina@constructor'],
    ['lina@__proto__', 'lina@__proto__'],
    ['  NoAt  ', 'noat'],
  ])('%s → %s', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});

describe('withoutStrangersTag: the To: of an email to a mailbox nobody has shown is theirs', () => {
  it.each([
    ['lina+call-5551234@gmail.com', 'lina@gmail.com'],
    ['Lina.Haddad+a+b@Gmail.com', 'Lina.Haddad@Gmail.com'],
    ['lina+club@outlook.com', 'lina@outlook.com'],
    // Outlook.com's regional domains (found by a review).
    ['lina+call-5551234-free-prize@hotmail.co.uk', 'lina@hotmail.co.uk'],
    ['lina+visit-evil-example@outlook.fr', 'lina@outlook.fr'],
    ['sara+win-an-iphone@live.co.uk', 'sara@live.co.uk'],
    ['lina+club@icloud.com', 'lina@icloud.com'],
    ['ivan.petrov+club@yandex.ru', 'ivan.petrov@yandex.ru'],
    ['lina+club@proton.me', 'lina@proton.me'],
    // Fastmail: anything@lina.fastmail.com is lina's, and "anything" is the stranger's.
    ['pay-now@lina.fastmail.com', 'lina@fastmail.com'],
    ['lina+club@fastmail.com', 'lina@fastmail.com'],
    // Elsewhere a + may be part of the mailbox's name: kept, the email must reach the address typed.
    ['lina+club@example.org', 'lina+club@example.org'],
    ['lina+club@mail.gmail.com.example', 'lina+club@mail.gmail.com.example'],
    // Dots are kept: john.smith@ is not johnsmith@ outside Gmail, and at Gmail both deliver.
    ['john.smith@gmail.com', 'john.smith@gmail.com'],
    ['no-at-sign', 'no-at-sign'],
    // All tag: no local part would be left, so it is kept (it delivers nowhere anyway).
    ['+tag@gmail.com', '+tag@gmail.com'],
  ])('%s → %s', (address, to) => {
    expect(withoutStrangersTag(address)).toBe(to);
  });
});

describe('deliveryKey: the spellings a provider delivers alike, and only those', () => {
  it.each([
    ['quiet.victim+a@gmail.com', 'quietvictim@gmail.com'],
    ['Quiet.Victim@googlemail.com', 'quietvictim@gmail.com'],
    ['lina+club@outlook.com', 'lina@outlook.com'],
    ['pay-now@lina.fastmail.com', 'lina@fastmail.com'],
    ['a.l-i_ce@pm.me', 'alice@proton.me'],
    ['ivan-petrov@yandex.com', 'ivan.petrov@yandex.ru'],
    // Another person at a provider that does not merge dots, or where + is part of a name: kept apart (a review's
    // john.smith@outlook.com unsubscribing silenced johnsmith@outlook.com).
    ['john.smith@outlook.com', 'john.smith@outlook.com'],
    ['John.Smith@Example.ORG', 'john.smith@example.org'],
    ['lina+club@example.org', 'lina+club@example.org'],
  ])('%s → %s', (address, key) => {
    expect(deliveryKey(address)).toBe(key);
  });
});
