import { describe, expect, it } from 'vitest';
import { deliveryMatcher } from '../mail/mailbox.js';
import { buildEml } from '../mail/eml.js';
import { emlBodyText, emlMessageKey, emlRecipient } from './spellings.js';

describe('deliveryMatcher: the addresses that are one person\'s mailbox, for an access or erasure request', () => {
  it.each([
    // Case, anywhere.
    ['linahaddad@gmail.com', 'LinaHaddad@Gmail.COM', true],
    ['Sam.Carter@example.org', 'sam.carter@EXAMPLE.org', true],
    // A +tag and dots where the provider delivers them to the same mailbox; its other domains.
    ['linahaddad@gmail.com', 'Lina.Haddad+club@gmail.com', true],
    ['lina.haddad+club@gmail.com', 'linahaddad@googlemail.com', true],
    ['john.smith@outlook.com', 'john.smith+u14@outlook.com', true],
    ['lina@proton.me', 'l.ina+x@pm.me', true],
    ['club@lina.fastmail.com', 'lina+other@fastmail.com', true],
    ['lina@bücher.example', 'Lina@xn--bcher-kva.example', true],
    ['linahaddad@gmail.com', 'linahaddad@gmail.com.', true],
    // Not another person's: a review's john.smith@outlook.com and johnsmith@outlook.com are two people (dots count
    // there), and a + elsewhere may be part of a real mailbox's name.
    ['john.smith@outlook.com', 'johnsmith@outlook.com', false],
    ['sam.carter@example.org', 'samcarter@example.org', false],
    ['sam@example.org', 'sam+club@example.org', false],
    ['linahaddad@gmail.com', 'linahaddad2@gmail.com', false],
    ['linahaddad@gmail.com', 'linahaddad@gmail.co', false],
    // Nothing held.
    ['linahaddad@gmail.com', null, false],
    ['linahaddad@gmail.com', '', false],
  ])('%s and %s: %s', (asked, held, same) => {
    expect(deliveryMatcher(asked)(held)).toBe(same);
  });
});

describe('emlRecipient: the To: of an .eml file the file transport wrote', () => {
  it.each([
    ['a bare address', 'Date: x\r\nTo: lina@example.org\r\nSubject: s\r\n\r\nbody', 'lina@example.org'],
    ['a display name first', 'To: "Haddad, Lina" <Lina@Example.org>\r\n\r\n', 'Lina@Example.org'],
    ['a folded header', 'From: a@b.example\r\nTo: =?UTF-8?B?2YTZitmG2Kc=?=\r\n <lina@example.org>\r\nSubject: s\r\n\r\n', 'lina@example.org'],
    ['LF line ends', 'to: lina@example.org\nSubject: s\n\nbody', 'lina@example.org'],
    ['none in the header (the body\'s does not count)', 'From: a@b.example\r\nSubject: s\r\n\r\nTo: lina@example.org', undefined],
    ['an empty one', 'To: \r\n\r\n', undefined],
  ])('%s', (_label, eml, address) => {
    expect(emlRecipient(eml)).toBe(address);
  });

  // A registration's notice goes to the organization, its Reply-To the registrant: the diff review's erasure left it.
  it('reads the Reply-To when asked, not the To', () => {
    const eml = 'To: tasjeel@amman-yfa.example\r\nReply-To: "Lina" <Lina.Haddad+club@gmail.com>\r\nSubject: s\r\n\r\n';
    expect(emlRecipient(eml, 'Reply-To')).toBe('Lina.Haddad+club@gmail.com');
    expect(emlRecipient(eml)).toBe('tasjeel@amman-yfa.example');
    expect(emlRecipient('To: a@b.example\r\n\r\n', 'Reply-To')).toBeUndefined();
  });

  it.each([
    ['Message-ID: <k7Hq2x@competitions.example>\r\n\r\n', 'k7Hq2x'],
    ['message-id:\r\n <k7Hq2x@competitions.example>\r\n\r\n', 'k7Hq2x'],
    ['Message-ID: k7Hq2x@competitions.example\r\n\r\n', undefined],
    ['Subject: s\r\n\r\nMessage-ID: <k7Hq2x@competitions.example>', undefined],
  ])('the message key of %j is %s', (eml, key) => {
    expect(emlMessageKey(eml)).toBe(key);
  });

  it('reads what eml.ts writes, an Arabic display name and an internationalized domain included', () => {
    const eml = buildEml({
      from: 'Competitions <no-reply@competitions.example>', to: 'لينا حداد <lina@bücher.example>', subject: 's', text: 't', html: '<p>t</p>',
      date: new Date('2026-11-21T22:45:42Z'), messageId: 'k1@competitions.example',
    });
    expect(emlRecipient(eml)).toBe('lina@xn--bcher-kva.example');
    expect(deliveryMatcher('Lina@bücher.example')(emlRecipient(eml))).toBe(true);
  });
});

describe('emlBodyText: what an .eml file the file transport wrote says', () => {
  const eml = (text: string, html: string) =>
    buildEml({ from: 'Competitions <no-reply@competitions.example>', to: 'club@example.org', subject: 'x', text, html, date: new Date('2026-11-28T10:00:00Z'), messageId: 'k1@competitions.example' });
  it.each([
    ['English (quoted-printable), a long line', `Reference: reg_AbC-123_x\n${'word '.repeat(40)}reg_LONG-line_9`, ['reg_AbC-123_x', 'reg_LONG-line_9']],
    ['Arabic (base64)', 'رقم الطلب: \u2068reg_Arabic-1\u2069\n'.repeat(5), ['reg_Arabic-1', 'رقم الطلب']],
  ])('%s: both parts decoded', (_label, text, found) => {
    const file = eml(text, `<p>${text}</p>`);
    const decoded = emlBodyText(file);
    for (const f of found) expect(decoded).toContain(f);
    expect(decoded).toContain('<p>');
  });

  // A text part's own "--" line (a signature's separator) is no boundary: what follows it is read too.
  it('reads past a "--" line of the text itself', () => {
    expect(emlBodyText(eml('Hello\n--\nReference: reg_after-sig', '<p>x</p>'))).toContain('Reference: reg_after-sig');
  });

  it('nothing from a file without body parts', () => {
    expect(emlBodyText('To: a@example.org\r\n\r\nplain')).toBe('');
  });
});
