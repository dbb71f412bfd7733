// The email addresses the service takes (follow, registration contact), checked deliberately rather than by a
// library's regular expression: zod's default refused real addresses (a domain under Jordan's `.الاردن`, written
// `xn--mgbayh7gpa` or in Arabic, `.рф`, `bücher.de`) and took impossible ones (a 200-character local part, a label
// ending in a hyphen or longer than 63 characters).
//
// What is taken: a local part in the dot-atom form of RFC 5322 3.2.3, ASCII, at most 64 octets (RFC 5321 4.5.3.1.1);
// no quoted local parts (`"a b"@example.org`), no comments, no address literals (`[192.0.2.1]`), no non-ASCII local
// part (SMTPUTF8): people's addresses do not use them, and they are where mail software disagrees. The domain may be
// typed in Unicode or in ASCII (`xn--` labels); it is converted to ASCII as browsers do (UTS 46, node's
// url.domainToASCII) and must then be a host name: at least two labels, each 1 to 63 letters, digits or hyphens,
// not starting or ending with a hyphen, the last not all digits, 253 characters in all; the address at most 254.
//
// The address is kept (and mailed to) with its domain in ASCII and the local part lower-cased: one spelling per
// mailbox for the per-address limits and a follow's uniqueness, and an address every mail server and Postmark's API
// take (a Unicode domain needs the recipient's server to speak SMTPUTF8; its ASCII form reaches the same mailbox).
import { domainToASCII } from 'node:url';

export type EmailCheck = { ok: true; address: string } | { ok: false; message: string };

const NOT_AN_ADDRESS = 'must be an email address';
/** RFC 5322 atext, in dot-atom: atoms separated by single dots. */
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** The only ASCII a domain may be typed with; anything else ASCII (`/`, `%`, `@`, `:`) would change what domainToASCII parses. */
const ASCII_OUTSIDE_LDH = /[\u0000-\u002C\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007F]/;
/** The full stops UTS 46 treats as `.`: a domain typed in Arabic, Chinese or Japanese may use them. */
const DOTS = /[.\u3002\uFF0E\uFF61]/;

/** The address to keep and mail to, or what is wrong with it (a message for the person filling the form). */
export function checkEmailAddress(input: string): EmailCheck {
  const at = input.lastIndexOf('@');
  if (at === -1) return { ok: false, message: `${NOT_AN_ADDRESS} such as name@example.org` };
  const local = input.slice(0, at);
  const typedDomain = input.slice(at + 1);
  if (!DOT_ATOM.test(local)) {
    return { ok: false, message: `${NOT_AN_ADDRESS}: the part before @ may hold letters, digits, dots (not two in a row, not first or last) and ! # $ % & ' * + / = ? ^ _ \` { | } ~ -` };
  }
  // dot-atom is ASCII, so characters are octets here.
  if (local.length > 64) return { ok: false, message: `${NOT_AN_ADDRESS}: at most 64 characters before the @` };
  const domain = typedDomain === '' || ASCII_OUTSIDE_LDH.test(typedDomain) ? '' : domainToASCII(typedDomain);
  const labels = domain.split('.');
  // domainToASCII parses like a URL's host: the labels it returns must be the ones typed (no IPv4 rewriting).
  const valid =
    domain !== '' &&
    labels.length >= 2 &&
    labels.length === typedDomain.split(DOTS).length &&
    labels.every((label) => LABEL.test(label)) &&
    !/^[0-9]+$/.test(labels[labels.length - 1]!) &&
    domain.length <= 253;
  if (!valid) return { ok: false, message: `${NOT_AN_ADDRESS}: the part after @ is not a domain such as example.org` };
  const address = `${local.toLowerCase()}@${domain}`;
  if (address.length > 254) return { ok: false, message: `${NOT_AN_ADDRESS}: at most 254 characters` };
  return { ok: true, address };
}
