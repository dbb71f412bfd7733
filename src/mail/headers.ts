// Header rules shared by the outbox (checked when a message is queued) and the .eml builder.
import type { Language } from '../vocabulary/language.js';

export class InvalidOutgoingEmailError extends Error {
  override name = 'InvalidOutgoingEmailError';
}

export interface Mailbox {
  /** The display name, unquoted; '' when there is none. */
  name: string;
  address: string;
}

// Deliberately simple: one mailbox, `local@domain`, no comments, no groups, no lists.
const ADDRESS = /^[^\s<>()",;:\\@[\]]+@[^\s<>()",;:\\@[\]]+$/;
const NAME_ADDR = /^(.*?)\s*<([^<>]*)>$/s;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Parses `Name <local@domain>`, `"Name, Jr." <local@domain>` or a bare `local@domain`. */
export function parseMailbox(value: string): Mailbox {
  const trimmed = value.trim();
  if (CONTROL.test(trimmed)) throw new InvalidOutgoingEmailError('address has control characters');
  const m = NAME_ADDR.exec(trimmed);
  let name = '';
  let address = trimmed;
  if (m) {
    name = m[1]!.trim();
    address = m[2]!.trim();
    if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) {
      name = name.slice(1, -1).replace(/\\(.)/g, '$1');
    }
  }
  if (!ADDRESS.test(address) || address.length > 254) {
    throw new InvalidOutgoingEmailError('not a single email address');
  }
  return { name, address };
}

/** The organization an email is sent for, by name in the email's language. */
export interface Sender {
  name: string;
  language: Language;
}

const VIA: Readonly<Record<Language, string>> = { en: 'via', ar: 'عبر' };

/**
 * The From of an email sent for an organization: MAIL_FROM's address, its display name the organization's "via"
 * MAIL_FROM's own ("Riverside Sunday Football League via Competitions"), so that an inbox shows the club a parent
 * knows (two reviews: every email came from "Competitions"). The address, and so SPF, DKIM and DMARC, stay the
 * service's. MAIL_FROM as it is when the name cannot be carried.
 */
export function fromFor(from: string, sender: Sender | undefined): string {
  if (!sender) return from;
  const { name, address } = parseMailbox(from);
  const display = name === '' ? sender.name : `${sender.name} ${VIA[sender.language]} ${name}`;
  const quoted = `"${display.replace(/(["\\])/g, '\\$1')}" <${address}>`;
  try {
    return parseMailbox(quoted).name === display ? quoted : from;
  } catch {
    return from;
  }
}

/** Whether `value` is one bare address, as a Reply-To carries it (parseMailbox's rule, no display name). */
export function isOneAddress(value: string): boolean {
  try {
    const { name, address } = parseMailbox(value);
    return name === '' && address === value;
  } catch {
    return false;
  }
}

// Headers the message builder and the providers own; a caller setting them would forge or break the MIME structure.
const RESERVED_HEADERS = new Set(['from', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'date', 'message-id', 'mime-version', 'sender']);
const HEADER_NAME = /^[!-9;-~]{1,76}$/; // RFC 5322 ftext
const CONTROL_EXCEPT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Checks extra headers; throws InvalidOutgoingEmailError naming the bad one. */
export function validateExtraHeaders(headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new InvalidOutgoingEmailError(`header name ${JSON.stringify(name)} is not valid`);
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('content-')) {
      throw new InvalidOutgoingEmailError(`header ${name} is set by the mailer, not by the caller`);
    }
    if (typeof value !== 'string' || CONTROL_EXCEPT_TAB.test(value) || value.length > 900) {
      throw new InvalidOutgoingEmailError(`header ${name} has line breaks, control characters or is too long`);
    }
  }
}

/**
 * RFC 2369 + RFC 8058 one-click unsubscribe: mail clients show an "Unsubscribe" button that POSTs
 * `List-Unsubscribe=One-Click` to the URL, so that URL must accept a POST without any other input.
 */
export function listUnsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  const url = new URL(unsubscribeUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidOutgoingEmailError('unsubscribe URL must be http(s)');
  }
  return {
    'List-Unsubscribe': `<${url.href}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
