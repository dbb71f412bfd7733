// The mailbox an address delivers to, as per-address email limits count it. Many providers deliver
// `x+anything@` to `x@`, and some ignore dots in the local part, so a stranger could otherwise get a fresh
// allowance for someone's inbox with every spelling. Counting merges these spellings; over-merging two real
// mailboxes that differ only by dots makes their shared limit stricter, never looser.
import { domainToASCII } from 'node:url';
import { ownValue } from '../collections.js';

const DOMAIN_ALIASES: Readonly<Record<string, string>> = { 'googlemail.com': 'gmail.com' };

export function mailboxOf(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return address.trim().toLowerCase();
  const local = address.slice(0, at).trim().toLowerCase().split('+')[0]!.replace(/\./g, '');
  const rawDomain = address.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  const domain = domainToASCII(rawDomain) || rawDomain;
  return `${local}@${ownValue(DOMAIN_ALIASES, domain) ?? domain}`;
}
