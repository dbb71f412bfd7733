// An RFC 5322 / MIME message as text: multipart/alternative with a plain and an HTML part.
// Pure: the same input gives byte-identical output (the date and Message-ID are inputs).
//   RFC 5322  message format, CRLF, header folding, 78-character lines where possible
//   RFC 2045  quoted-printable and base64 bodies, lines of at most 76 characters
//   RFC 2046  multipart/alternative, the preferred (HTML) part last
//   RFC 2047  non-ASCII header text as =?UTF-8?B?...?= encoded words of at most 75 characters
import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { InvalidOutgoingEmailError, parseMailbox, validateExtraHeaders } from './headers.js';

export interface EmlInput {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Readonly<Record<string, string>>;
  replyTo?: string | undefined;
  date: Date;
  /** Without angle brackets (see messageIdFor). */
  messageId: string;
}

const CRLF = '\r\n';
const MAX_LINE = 78;
// Each encoded word stays within 75 characters: 12 for `=?UTF-8?B??=`, 60 base64 characters = 45 bytes.
const WORD_BYTES = 45;

export function buildEml(input: EmlInput): string {
  if (!/^[!-;=?-~]+@[!-;=?-~]+$/.test(input.messageId)) {
    throw new InvalidOutgoingEmailError('Message-ID must be local@domain without brackets');
  }
  const extra = input.headers ?? {};
  validateExtraHeaders(extra);
  const boundary = `=_alt_${createHash('sha256').update(input.messageId).digest('hex').slice(0, 24)}`;

  const lines = [
    header('Date', formatDate(input.date)),
    addressHeader('From', input.from),
    addressHeader('To', input.to),
    ...(input.replyTo ? [addressHeader('Reply-To', input.replyTo)] : []),
    unstructuredHeader('Subject', input.subject.replace(/\s+/g, ' ').trim()),
    header('Message-ID', `<${input.messageId}>`),
    header('MIME-Version', '1.0'),
    ...Object.entries(extra).map(([name, value]) => unstructuredHeader(name, value)),
    header('Content-Type', `multipart/alternative; boundary="${boundary}"`),
  ];
  return [
    ...lines,
    '',
    `--${boundary}`,
    ...bodyPart('text/plain', input.text),
    `--${boundary}`,
    ...bodyPart('text/html', input.html),
    `--${boundary}--`,
    '',
  ].join(CRLF);
}

/**
 * The Message-ID of an outbox row: `<its random key>@<domain of the from address>`. The key is drawn when the
 * row is queued, so every attempt of a row carries the same Message-ID (the file transport writes it; the Postmark
 * transport sends it with X-PM-KeepID) and no two installations share one. A receiver may take two copies with one
 * Message-ID for one message, but nothing obliges it to: this makes a duplicate recognisable, not impossible.
 */
export function messageIdFor(messageKey: string, from: string): string {
  let domain = parseMailbox(from).address.split('@')[1]!.toLowerCase();
  domain = domainToASCII(domain) || 'localhost';
  return `${messageKey}@${domain}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 5322 date-time in UTC: `Sat, 21 Nov 2026 22:45:42 +0000`. */
export function formatDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${DAYS[date.getUTCDay()]}, ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ` +
    `${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())} +0000`
  );
}

// ---- headers ----

function header(name: string, value: string): string {
  return fold(name, value.split(' '));
}

/** Joins tokens with spaces, breaking before a token (folding whitespace) when a line would pass 78 characters. */
function fold(name: string, tokens: string[]): string {
  let line = `${name}:`;
  const out: string[] = [];
  for (const [i, token] of tokens.entries()) {
    if (i > 0 && line.length + 1 + token.length > MAX_LINE) {
      out.push(line);
      line = ` ${token}`;
    } else {
      line += ` ${token}`;
    }
  }
  out.push(line);
  return out.join(CRLF);
}

const isPrintableAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);

function unstructuredHeader(name: string, value: string): string {
  // ASCII text that merely looks like an encoded word ("=?") would be decoded by readers: encode it too.
  if (isPrintableAscii(value) && !value.includes('=?')) return header(name, value);
  return fold(name, encodedWords(value, name.length + 2));
}

function addressHeader(name: string, value: string): string {
  const { name: display, address } = parseMailbox(value);
  const [local, domain] = [address.slice(0, address.lastIndexOf('@')), address.slice(address.lastIndexOf('@') + 1)];
  const addr = `${local}@${domainToASCII(domain) || domain}`;
  if (display === '') return header(name, addr);
  if (isPrintableAscii(display) && !display.includes('=?')) {
    // A phrase of atoms may go bare; anything with specials is a quoted string.
    const phrase = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/.test(display)
      ? display
      : `"${display.replace(/(["\\])/g, '\\$1')}"`;
    return fold(name, [...phrase.split(' '), `<${addr}>`]);
  }
  return fold(name, [...encodedWords(display, name.length + 2), `<${addr}>`]);
}

/**
 * RFC 2047 B-encoded words, at most 45 bytes each; the first one is shorter when needed to fit beside the header name.
 * They end after a space where the text has one (the space inside the word before: a reader drops the folding
 * whitespace between two encoded words, RFC 2047 6.2): the mail review found an Arabic organization's name cut inside
 * a word (`…ل` | `لناشئين`), which a reader that keeps a space between encoded words in a display name (Python's email
 * package before gh-128110) showed as "ل لناشئين", and "Compe titions". Only a word longer than a whole encoded word
 * is cut, between two characters (never inside a UTF-8 sequence).
 */
export function encodedWords(text: string, firstLineUsed = 0): string[] {
  const firstBudget = Math.floor((MAX_LINE - firstLineUsed - 12) / 4) * 3;
  const words: string[] = [];
  let chunk: number[] = [];
  let budget = Math.min(WORD_BYTES, Math.max(firstBudget, 4));
  const flush = () => {
    words.push(`=?UTF-8?B?${Buffer.from(chunk).toString('base64')}?=`);
    chunk = [];
    budget = WORD_BYTES;
  };
  // Each word with the spaces after it.
  for (const word of text.match(/[^ ]+ *| +/g) ?? []) {
    const bytes = Buffer.from(word, 'utf8');
    if (chunk.length + bytes.length <= budget) {
      chunk.push(...bytes);
      continue;
    }
    // It fits a word of its own: it starts the next one.
    if (chunk.length > 0 && bytes.length <= WORD_BYTES) {
      flush();
      chunk.push(...bytes);
      continue;
    }
    // Longer than an encoded word (or than the first one, beside the header name): cut between its characters.
    for (const ch of word) {
      const charBytes = Buffer.from(ch, 'utf8');
      if (chunk.length + charBytes.length > budget && chunk.length > 0) flush();
      chunk.push(...charBytes);
    }
  }
  if (chunk.length > 0 || words.length === 0) flush();
  return words;
}

// ---- bodies ----

function bodyPart(type: 'text/plain' | 'text/html', content: string): string[] {
  const canonical = content.replace(/\r\n|\r|\n/g, CRLF);
  const qp = encodeQuotedPrintable(canonical);
  const b64 = encodeBase64(canonical);
  // Quoted-printable keeps mostly-ASCII text readable; base64 is smaller for Arabic. Take the shorter.
  const useQp = qp.length <= b64.length;
  return [
    `Content-Type: ${type}; charset=utf-8`,
    `Content-Transfer-Encoding: ${useQp ? 'quoted-printable' : 'base64'}`,
    '',
    useQp ? qp : b64,
  ];
}

export function encodeBase64(text: string): string {
  const b64 = Buffer.from(text, 'utf8').toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join(CRLF);
}

/**
 * RFC 2045 6.7 quoted-printable of UTF-8 text. Hard line breaks stay CRLF; lines longer than 76
 * characters get soft breaks (`=` CRLF), which a decoder removes, so a long URL comes back whole.
 * An escape (`=XX`) is never split, trailing spaces are encoded, and a line starting "From " or "."
 * is escaped so mbox tools and SMTP dot-stuffing leave it alone.
 */
export function encodeQuotedPrintable(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, '\n')
    .split('\n')
    .map(encodeQpLine)
    .join(CRLF);
}

// Each byte's token, made once: an email's two bodies are a few thousand bytes each, and building a string per
// byte (and an array of them) made quoted-printable the largest part of an email's CPU in the mail worker.
const QP_LITERAL = Array.from({ length: 256 }, (_, b) => String.fromCharCode(b));
const QP_ESCAPED = Array.from({ length: 256 }, (_, b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`);

function encodeQpLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  const from = line.startsWith('From ');
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && i !== bytes.length - 1);
    const escapeLead = i === 0 && (b === 46 || (b === 70 && from));
    const token = literal && !escapeLead ? QP_LITERAL[b]! : QP_ESCAPED[b]!;
    // 75 + the soft break's "=" keeps every encoded line within 76 characters.
    if (current.length + token.length > 75) {
      out.push(`${current}=`);
      current = '';
    }
    current += current === '' && b === 46 ? '=2E' : token;
  }
  out.push(current);
  return out.join(CRLF);
}
