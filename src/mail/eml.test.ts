// The .eml builder, checked by parsing its output back with a real MIME parser (postal-mime).
import { spawnSync } from 'node:child_process';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { buildEml, encodeQuotedPrintable, encodedWords, formatDate, messageIdFor, type EmlInput } from './eml.js';
import { fromFor, InvalidOutgoingEmailError, listUnsubscribeHeaders, parseMailbox } from './headers.js';

const LONG_URL =
  'https://competitions.example/follow/confirm?token=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6&lang=en&ref=a%20b';

function input(overrides: Partial<EmlInput> = {}): EmlInput {
  return {
    from: 'Competitions <no-reply@competitions.example>',
    to: 'fan@example.com',
    subject: 'Confirm you want to follow Riverside League',
    text: `Hello,\n\nConfirm here:\n${LONG_URL}\n\nThanks = done.\n`,
    html: `<p>Hello,</p><p><a href="${LONG_URL.replace(/&/g, '&amp;')}">Confirm</a></p>`,
    headers: listUnsubscribeHeaders('https://competitions.example/unsubscribe?token=abc'),
    date: new Date('2026-11-21T22:45:42.966Z'),
    messageId: 'outbox.123@competitions.example',
    ...overrides,
  };
}

const lf = (s: string | undefined) => (s ?? '').replace(/\r\n/g, '\n');
// postal-mime ends every decoded text with a line feed (it keeps the one before the boundary): compare without.
const body = (s: string | undefined) => lf(s).replace(/\n+$/, '');
const headerBlock = (eml: string) => eml.slice(0, eml.indexOf('\r\n\r\n'));
const headerValue = (parsed: Awaited<ReturnType<typeof PostalMime.parse>>, key: string) =>
  parsed.headers.find((h) => h.key === key)?.value;

describe('buildEml', () => {
  it('round-trips an Arabic subject, display name and body', async () => {
    const text = 'مرحبًا أحمد،\nلتأكيد متابعة دوري الناشئين (نادي الشارقة الرياضي):\n' + LONG_URL + '\n';
    const html = `<html lang="ar" dir="rtl"><body><p>مرحبًا أحمد</p><a href="${LONG_URL.replace(/&/g, '&amp;')}">تأكيد المتابعة</a></body></html>`;
    const subject = 'تأكيد متابعة دوري الناشئين لكرة القدم (نادي الشارقة الرياضي الثقافي) 🏆';
    const eml = buildEml(input({ from: 'منافسات النادي <no-reply@competitions.example>', to: 'أحمد <ahmed@example.com>', subject, text, html }));
    const parsed = await PostalMime.parse(eml);

    expect(parsed.subject).toBe(subject);
    expect(parsed.from).toEqual({ name: 'منافسات النادي', address: 'no-reply@competitions.example' });
    expect(parsed.to).toEqual([{ name: 'أحمد', address: 'ahmed@example.com' }]);
    expect(body(parsed.text)).toBe(body(text));
    expect(body(parsed.html)).toBe(html);
    // Arabic needs encoded words in the header, never raw UTF-8.
    expect(headerBlock(eml)).toMatch(/^Subject: =\?UTF-8\?B\?/m);
    expect(/^[\x00-\x7f]*$/.test(eml)).toBe(true);
  });

  it('keeps long links exact through quoted-printable soft line breaks', async () => {
    const eml = buildEml(input());
    const raw = eml.replace(/\r\n/g, '\n');
    expect(raw).toContain('Content-Transfer-Encoding: quoted-printable');
    // The raw URL is split by soft breaks (it is longer than a line) ...
    expect(raw).not.toContain(LONG_URL);
    expect(raw).toMatch(/=\n/);
    // ... and a decoder gets it back byte for byte, in both parts.
    const parsed = await PostalMime.parse(eml);
    expect(body(parsed.text)).toBe(body(input().text));
    expect(lf(parsed.text)).toContain(`\n${LONG_URL}\n`);
    expect(parsed.html).toContain(`href="${LONG_URL.replace(/&/g, '&amp;')}"`);
  });

  it('writes the headers a mail client expects', async () => {
    const eml = buildEml(input({ to: '"Doe, Jane \\"JD\\"" <jane@example.com>' }));
    const head = headerBlock(eml);
    expect(head).toMatch(/^Date: Sat, 21 Nov 2026 22:45:42 \+0000$/m);
    expect(head).toMatch(/^Message-ID: <outbox\.123@competitions\.example>$/m);
    expect(head).toMatch(/^MIME-Version: 1\.0$/m);
    expect(head).toMatch(/^Content-Type: multipart\/alternative; boundary="=_alt_[0-9a-f]{24}"$/m);
    expect(head).toMatch(/^List-Unsubscribe: <https:\/\/competitions\.example\/unsubscribe\?token=abc>$/m);
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);

    const parsed = await PostalMime.parse(eml);
    expect(parsed.messageId).toBe('<outbox.123@competitions.example>');
    expect(parsed.date).toBe('2026-11-21T22:45:42.000Z');
    expect(parsed.from).toEqual({ name: 'Competitions', address: 'no-reply@competitions.example' });
    expect(parsed.to).toEqual([{ name: 'Doe, Jane "JD"', address: 'jane@example.com' }]);
    expect(headerValue(parsed, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(eml).toMatch(/Content-Type: text\/plain; charset=utf-8\r\nContent-Transfer-Encoding: (quoted-printable|base64)\r\n\r\n/);
    expect(eml).toMatch(/Content-Type: text\/html; charset=utf-8\r\nContent-Transfer-Encoding: (quoted-printable|base64)\r\n\r\n/);
    expect(parsed.attachments).toEqual([]);
  });

  it('uses CRLF only, header lines of at most 78 characters and body lines of at most 76', () => {
    const eml = buildEml(
      input({
        subject: `${'A rather long subject line with many words '.repeat(4)}and an end`,
        text: `${'x'.repeat(300)}\n${'ش'.repeat(200)}\ntrailing space \n`,
        from: `${'منافسات '.repeat(12)}<no-reply@competitions.example>`,
      }),
    );
    expect(eml.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const [head, ...body] = eml.split('\r\n\r\n');
    for (const line of head!.split('\r\n')) expect(line.length, line).toBeLessThanOrEqual(78);
    for (const line of body.join('\r\n\r\n').split('\r\n')) expect(line.length, line).toBeLessThanOrEqual(76);
  });

  it('folds a long ASCII subject at spaces and encodes one that looks like an encoded word', async () => {
    const long = `${'Riverside Youth League fixtures and results '.repeat(3)}update`;
    const tricky = 'Literal =?UTF-8?B?SGk=?= is not an encoded word';
    for (const subject of [long, tricky]) {
      const eml = buildEml(input({ subject }));
      expect((await PostalMime.parse(eml)).subject).toBe(subject);
    }
    expect(headerBlock(buildEml(input({ subject: long })))).toMatch(/^Subject: Riverside .*League\r\n fixtures and results .* update\r\n/m);
  });

  it('is deterministic', () => {
    expect(buildEml(input())).toBe(buildEml(input()));
  });

  it('refuses header injection and headers the mailer owns', () => {
    expect(() => buildEml(input({ to: 'a@example.com\r\nBcc: victim@example.com' }))).toThrow(InvalidOutgoingEmailError);
    expect(() => buildEml(input({ to: 'a@example.com, b@example.com' }))).toThrow(InvalidOutgoingEmailError);
    expect(() => buildEml(input({ headers: { 'X-Test': 'a\r\nBcc: victim@example.com' } }))).toThrow(InvalidOutgoingEmailError);
    expect(() => buildEml(input({ headers: { Bcc: 'victim@example.com' } }))).toThrow(InvalidOutgoingEmailError);
    expect(() => buildEml(input({ headers: { 'Content-Type': 'text/plain' } }))).toThrow(InvalidOutgoingEmailError);
    expect(() => buildEml(input({ headers: { 'Bad Name': 'x' } }))).toThrow(InvalidOutgoingEmailError);
    // A reply address is the message's own field, one address, never a header a caller writes.
    expect(() => buildEml(input({ headers: { 'Reply-To': 'x@example.com' } }))).toThrow(InvalidOutgoingEmailError);
    expect(() => buildEml(input({ replyTo: 'a@example.com\r\nBcc: victim@example.com' }))).toThrow(InvalidOutgoingEmailError);
    expect(headerBlock(buildEml(input({ replyTo: 'parent@example.org' })))).toMatch(/^Reply-To: parent@example\.org$/m);
    expect(headerBlock(buildEml(input()))).not.toMatch(/^Reply-To:/m);
    // A line break in the subject is folded into a space, not passed through.
    expect(headerBlock(buildEml(input({ subject: 'Hi\r\nBcc: victim@example.com' })))).not.toMatch(/^Bcc:/m);
  });
});

describe('encodeQuotedPrintable', () => {
  it('escapes what must be escaped and keeps lines within 76 characters', async () => {
    expect(encodeQuotedPrintable('a=b')).toBe('a=3Db');
    expect(encodeQuotedPrintable('end \nnext\t')).toBe('end=20\r\nnext=09');
    expect(encodeQuotedPrintable('From here\n.dot')).toBe('=46rom here\r\n=2Edot');
    expect(encodeQuotedPrintable('é')).toBe('=C3=A9');
    const encoded = encodeQuotedPrintable('=é'.repeat(100));
    for (const line of encoded.split('\r\n')) {
      expect(line.length).toBeLessThanOrEqual(76);
      expect(line).toMatch(/^(=[0-9A-F]{2})*=?$/); // an escape is never split by a soft break
    }
  });

  it('decodes back to the original through a real parser', async () => {
    const samples = ['a = b', 'tabs\tand  spaces  \nnext', '.leading dot\nFrom the start', 'مرحبًا = 😀', `${'a'.repeat(75)}=`, `${'b'.repeat(74)} `];
    for (const text of samples) {
      const eml = `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encodeQuotedPrintable(text)}`;
      expect(body((await PostalMime.parse(eml)).text)).toBe(text);
    }
  });
});

describe('header helpers', () => {
  it('splits encoded words on whole characters within 75 characters', () => {
    const words = encodedWords('😀'.repeat(40), 9);
    for (const word of words) {
      expect(word.length).toBeLessThanOrEqual(75);
      const bytes = Buffer.from(word.slice(10, -2), 'base64');
      expect(bytes.length % 4).toBe(0); // four-byte characters are never cut
    }
    expect(words.map((w) => Buffer.from(w.slice(10, -2), 'base64').toString('utf8')).join('')).toBe('😀'.repeat(40));
  });

  it.each([
    ['no organization: MAIL_FROM as it is', 'Competitions <no-reply@c.example>', undefined, 'Competitions <no-reply@c.example>'],
    ['the organization via the service', 'Competitions <no-reply@c.example>', { name: 'Riverside FA', language: 'en' as const }, '"Riverside FA via Competitions" <no-reply@c.example>'],
    ['in Arabic', 'منافسات <no-reply@c.example>', { name: 'نادي الشارقة', language: 'ar' as const }, '"نادي الشارقة عبر منافسات" <no-reply@c.example>'],
    ['a bare MAIL_FROM: the organization alone', 'no-reply@c.example', { name: 'Riverside FA', language: 'en' as const }, '"Riverside FA" <no-reply@c.example>'],
    ['quotes and specials kept', '"Comps, Inc." <no-reply@c.example>', { name: 'St. "Mary\'s" <U12>', language: 'en' as const }, '"St. \\"Mary\'s\\" <U12> via Comps, Inc." <no-reply@c.example>'],
  ])('fromFor: %s', (_label, from, sender, expected) => {
    expect(fromFor(from, sender)).toBe(expected);
    // And it reads back as that name, at MAIL_FROM's address.
    if (sender) expect(parseMailbox(fromFor(from, sender)).address).toBe(parseMailbox(from).address);
  });

  it('a From with an organization reads back through a MIME parser', async () => {
    const from = fromFor('Competitions <no-reply@competitions.example>', { name: 'Al-Salt S.C., "الشباب"', language: 'en' });
    const parsed = await PostalMime.parse(buildEml(input({ from })));
    expect(parsed.from).toEqual({ name: 'Al-Salt S.C., "الشباب" via Competitions', address: 'no-reply@competitions.example' });
  });

  it('formats RFC 5322 dates in UTC', () => {
    expect(formatDate(new Date('2026-03-07T08:05:09Z'))).toBe('Sat, 7 Mar 2026 08:05:09 +0000');
  });

  it('derives the Message-ID from the message key and the From domain', () => {
    expect(messageIdFor('3f2a9c', 'Competitions <No-Reply@Competitions.Example>')).toBe('3f2a9c@competitions.example');
    expect(messageIdFor('77', 'bot@مثال.com')).toBe('77@xn--mgbh0fb.com');
  });
});

// The mail review read every email with Python's email package (email.policy.default): encoded words cut inside a word
// showed an Arabic organization's name as "… ل لناشئين" and "Compe titions". They now end at spaces.
describe('encoded words end at spaces, read back by Python', () => {
  const PYTHON = String.raw`
import json, sys
from email import message_from_bytes, policy
from email.header import decode_header, make_header
raw = sys.stdin.buffer.read()
m = message_from_bytes(raw, policy=policy.default)
legacy = message_from_bytes(raw, policy=policy.compat32)
print(json.dumps({
  'subject': m['Subject'],
  'from': m['From'].addresses[0].display_name,
  'from_rfc2047': str(make_header(decode_header(legacy['From']))).rsplit(' <', 1)[0],
  'defects': [str(d) for d in m['Subject'].defects] + [str(d) for d in m['From'].defects],
}))
`;
  const python = (eml: string) => {
    const r = spawnSync('python3', ['-c', PYTHON], { input: eml, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as { subject: string; from: string; from_rfc2047: string; defects: string[] };
  };
  it.each([
    ['a long Arabic name', 'أكاديمية عمّان لكرة القدم للناشئين عبر منافسات الأندية الأردنية',
      'طلب تسجيل جديد: \u2068يزن حداد\u2069 (\u2068تحت 12 سنة\u2069) في أكاديمية عمّان لكرة القدم للناشئين'],
    ['a long English one', 'Riverside Sunday Football League of Zoë\'s Competitions and Tournaments',
      'New registration: \u2068Zoë Montgomery-Richardson\u2069 (Under 12 Championship Division) at Riverside Competitions'],
  ])('%s', async (_label, display, subject) => {
    const eml = buildEml(input({ from: `"${display.replace(/'/g, "'")}" <no-reply@competitions.example>`, subject }));
    const block = headerBlock(eml);
    for (const line of block.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    for (const word of block.match(/=\?UTF-8\?B\?[^?]*\?=/g)!) expect(word.length).toBeLessThanOrEqual(75);
    // Each word but the last ends with a space: none is cut inside a word of the text.
    for (const name of ['From', 'Subject']) {
      const words = block.match(new RegExp(`^${name}: (?:.|\r\n )*`, 'm'))![0].match(/=\?UTF-8\?B\?[^?]*\?=/g)!;
      expect(words.length).toBeGreaterThan(1);
      for (const w of words.slice(0, -1)) expect(Buffer.from(w.slice(10, -2), 'base64').toString('utf8')).toMatch(/ $/);
    }
    const read = python(eml);
    expect(read.subject).toBe(subject);
    expect(read.from_rfc2047).toBe(display);
    // Python's address parser (before CPython gh-128110) keeps the folding space between two encoded words of a display
    // name, where RFC 2047 6.2 drops it: its name then has two spaces where the text has one, never a word cut in two.
    expect(read.from.replace(/ {2}/g, ' ')).toBe(display);
    expect(read.defects).toEqual([]);
    // And the MIME parser every other test reads with.
    const parsed = await PostalMime.parse(eml);
    expect([parsed.subject, parsed.from?.name]).toEqual([subject, display]);
  });
});
