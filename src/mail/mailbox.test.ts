import { describe, expect, it } from 'vitest';
import { mailboxOf } from './mailbox.js';

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
