import { describe, expect, it } from 'vitest';
import { checkEmailAddress } from './email-address.js';
import { emailField } from './fields.js';

const label63 = 'a'.repeat(63);

describe('checkEmailAddress: taken, as kept', () => {
  it.each([
    ['fan@example.org', 'fan@example.org'],
    ['Fan.Name+tag@Example.ORG', 'fan.name+tag@example.org'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ["a!#$%&'*+/=?^_`{|}~-z@example.org", "a!#$%&'*+/=?^_`{|}~-z@example.org"],
    // Jordan's ccTLD, in ASCII and in Arabic; Russia's; a German IDN
    ['fan@example.xn--mgbayh7gpa', 'fan@example.xn--mgbayh7gpa'],
    ['fan@example.XN--MGBAYH7GPA', 'fan@example.xn--mgbayh7gpa'],
    ['fan@example.xn--p1ai', 'fan@example.xn--p1ai'],
    ['fan@example.рф', 'fan@example.xn--p1ai'],
    ['fan@bücher.de', 'fan@xn--bcher-kva.de'],
    ['fan@مثال.الاردن', 'fan@xn--mgbh0fb.xn--mgbayh7gpa'],
    ['fan@例子。中国', 'fan@xn--fsqu00a.xn--fiqs8s'],
    ['fan@ＥＸＡＭＰＬＥ．ｃｏｍ', 'fan@example.com'],
    ['fan@mail.2026-club.co.uk', 'fan@mail.2026-club.co.uk'],
    ['fan@ab--cd.org', 'fan@ab--cd.org'],
    [`${'a'.repeat(64)}@example.org`, `${'a'.repeat(64)}@example.org`],
    [`fan@${label63}.com`, `fan@${label63}.com`],
    // 254 in all: 64 + 1 + 189
    [`${'a'.repeat(64)}@${[label63, label63, 'a'.repeat(57), 'org'].join('.')}`, `${'a'.repeat(64)}@${[label63, label63, 'a'.repeat(57), 'org'].join('.')}`],
  ])('%s → %s', (input, address) => {
    expect(checkEmailAddress(input)).toEqual({ ok: true, address });
  });
});

describe('checkEmailAddress: refused', () => {
  it.each([
    ['no @', 'fan.example.org', 'such as'],
    ['two @', 'fan@@example.org', 'before @'],
    ['an empty local part', '@example.org', 'before @'],
    ['a 65-character local part', `${'a'.repeat(65)}@example.org`, '64'],
    ['a 200-character local part', `${'a'.repeat(200)}@example.org`, '64'],
    ['a leading dot', '.fan@example.org', 'before @'],
    ['two dots in a row', 'f..an@example.org', 'before @'],
    ['a trailing dot before @', 'fan.@example.org', 'before @'],
    ['a quoted local part', '"fan club"@example.org', 'before @'],
    ['a space', 'fan club@example.org', 'before @'],
    ['a non-ASCII local part', 'مشجع@example.org', 'before @'],
    ['a header injected after it', 'fan@example.org\nBcc: x@example.org', 'before @'],
    ['a newline in the domain', 'fan@exa\nmple.org', 'after @'],
    ['a no-break space in the domain', 'fan@exa\u00A0mple.org', 'after @'],
    ['a label ending in a hyphen', 'user@bad-.com', 'after @'],
    ['a label starting with a hyphen', 'user@-bad.com', 'after @'],
    ['a 64-character label', `user@${'a'.repeat(64)}.com`, 'after @'],
    ['one label', 'fan@localhost', 'after @'],
    ['an empty domain', 'fan@', 'after @'],
    ['a trailing dot', 'fan@example.org.', 'after @'],
    ['two dots', 'fan@example..org', 'after @'],
    ['an underscore', 'fan@ex_ample.org', 'after @'],
    ['an IPv4 address', 'fan@192.0.2.1', 'after @'],
    ['a numeric host that parses as IPv4', 'fan@0x7f.1', 'after @'],
    ['an address literal', 'fan@[192.0.2.1]', 'after @'],
    ['a percent-escape', 'fan@ex%61mple.org', 'after @'],
    ['a slash', 'fan@evil.example/x.org', 'after @'],
    ['a port', 'fan@example.org:25', 'after @'],
    ['invalid punycode', 'fan@xn--a.org', 'after @'],
    ['a zero-width joiner', 'fan@a\u200Db.org', 'after @'],
    ['a domain over 253 characters', `a@${[label63, label63, label63, label63].join('.')}`, 'after @'],
    ['255 in all', `${'a'.repeat(64)}@${[label63, label63, 'a'.repeat(58), 'org'].join('.')}`, '254'],
  ])('%s (%s)', (_label, input, says) => {
    const checked = checkEmailAddress(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.message).toMatch(/^must be an email address/);
      expect(checked.message).toContain(says);
    }
  });
});

describe('emailField', () => {
  it.each([
    ['  Fan@Bücher.DE  ', 'fan@xn--bcher-kva.de'],
    ['FAN@EXAMPLE.ORG', 'fan@example.org'],
  ])('trims and keeps %j as %j', (input, address) => {
    expect(emailField.parse(input)).toBe(address);
  });

  it.each([
    ['', 'is required'],
    [`${'a'.repeat(250)}@example.org`, 'must be at most 254 characters'],
    ['user@bad-.com', 'must be an email address: the part after @ is not a domain such as example.org'],
  ])('refuses %j: %s', (input, message) => {
    const result = emailField.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([message]);
  });
});
