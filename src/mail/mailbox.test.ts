import { describe, expect, it } from 'vitest';
import { mailboxOf } from './mailbox.js';

describe('mailboxOf: the mailbox an address delivers to, as the per-mailbox limits count it', () => {
  it.each([
    ['Lina.Haddad@Example.org', 'linahaddad@example.org'],
    ['lina+club@example.org', 'lina@example.org'],
    ['l.i.n.a+a+b@example.org.', 'lina@example.org'],
    ['lina@googlemail.com', 'lina@gmail.com'],
    ['lina@bücher.example', 'lina@xn--bcher-kva.example'],
    // A domain named like a member of Object.prototype is itself, not Object.prototype's.
    ['lina@constructor', 'lina@constructor'],
    ['lina@__proto__', 'lina@__proto__'],
    ['  NoAt  ', 'noat'],
  ])('%s → %s', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});
