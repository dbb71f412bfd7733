// The mailbox an address delivers to, as per-address email limits count it. Many providers deliver
// `x+anything@` to `x@`, and some ignore dots in the local part, so a stranger could otherwise get a fresh
// allowance for someone's inbox with every spelling. Counting merges these spellings; over-merging two real
// mailboxes that differ only by dots makes their shared limit stricter, never looser.
// Providers with more spellings of one mailbox:
// - Proton ignores dots, hyphens and underscores in the local part, and one username is one account across its
//   domains (alice@proton.me, alice@pm.me and alice@protonmail.com reach the same mailbox).
// - Fastmail's subdomain addressing: anything@alice.fastmail.com is delivered as alice+anything@fastmail.com.
// - iCloud: one name across icloud.com, me.com and mac.com (an account that had me.com or mac.com receives at all
//   three, and no one else can hold the name at another of them).
// - Yandex: one login across yandex.ru, yandex.com, yandex.by, yandex.kz, yandex.ua and ya.ru, and a dot and a
//   hyphen in a login are the same (mail to ivan-petrov@ reaches ivan.petrov@).
import { domainToASCII } from 'node:url';
import { ownValue } from '../collections.js';

const DOMAIN_ALIASES: Readonly<Record<string, string>> = {
  'googlemail.com': 'gmail.com',
  'protonmail.com': 'proton.me',
  'protonmail.ch': 'proton.me',
  'pm.me': 'proton.me',
  'me.com': 'icloud.com',
  'mac.com': 'icloud.com',
  'yandex.com': 'yandex.ru',
  'yandex.by': 'yandex.ru',
  'yandex.kz': 'yandex.ru',
  'yandex.ua': 'yandex.ru',
  'ya.ru': 'yandex.ru',
};
/** What a provider's local parts ignore beyond the dots every address here loses. */
const IGNORED_IN_LOCAL_PART: Readonly<Record<string, RegExp>> = { 'proton.me': /[-_]/g, 'yandex.ru': /-/g };
const SUBDOMAIN_ADDRESSING = new Set(['fastmail.com', 'fastmail.fm']);

/**
 * Where both keys below start: the local part and the domain trimmed and lower-case, the domain in ASCII without
 * its final dot, Fastmail's subdomain addressing undone, a provider's other domains as its own; undefined without an
 * `@` that has a local part before it.
 */
function addressParts(address: string): { local: string; domain: string } | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0) return undefined;
  let local = address.slice(0, at).trim().toLowerCase();
  const rawDomain = address.slice(at + 1).trim().toLowerCase().replace(/\.$/, '');
  let domain = domainToASCII(rawDomain) || rawDomain;
  const parent = domain.slice(domain.indexOf('.') + 1);
  if (SUBDOMAIN_ADDRESSING.has(parent)) {
    local = domain.slice(0, domain.indexOf('.'));
    domain = parent;
  }
  return { local, domain: ownValue(DOMAIN_ALIASES, domain) ?? domain };
}

export function mailboxOf(address: string): string {
  const parts = addressParts(address);
  if (!parts) return address.trim().toLowerCase();
  const { domain } = parts;
  let local = parts.local.split('+')[0]!.replace(/\./g, '');
  const ignored = ownValue(IGNORED_IN_LOCAL_PART, domain);
  if (ignored) local = local.replace(ignored, '');
  return `${local}@${domain}`;
}

/**
 * Providers that deliver `x+anything@` to `x@`, so that the tag is a spelling of one mailbox (Gmail, Outlook,
 * iCloud, Fastmail, Proton, Yandex). Elsewhere a `+` may be part of a real mailbox name, and the address is kept.
 */
const PLUS_ADDRESSING = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com',
  // Outlook.com's regional domains (a review's stranger wrote lina+call-5551234-free-prize@hotmail.co.uk). Only
  // domains known to be Microsoft's: a tag dropped at a provider without plus addressing would deliver elsewhere.
  'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.it', 'hotmail.es', 'hotmail.nl', 'hotmail.be', 'hotmail.ca',
  'live.co.uk', 'live.fr', 'live.de', 'live.it', 'live.nl', 'live.be', 'live.ca', 'live.com.au',
  'outlook.fr', 'outlook.de', 'outlook.es', 'outlook.it',
  'fastmail.com', 'fastmail.fm', 'proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me',
  'yandex.ru', 'yandex.com', 'yandex.by', 'yandex.kz', 'yandex.ua', 'ya.ru',
]);

/**
 * The address to write on an email to a mailbox nobody has shown is theirs (a follow's confirmation, a
 * registration's receipt): anyone can type anyone's address, and `lina+call-this-number@gmail.com` would put text
 * a stranger chose in the To: of an email Lina never asked for. At the providers above the tag (and Fastmail's
 * subdomain part) is dropped: the email reaches the same mailbox. Dots and case are kept: the address still
 * delivers everywhere, which mailboxOf's counting key need not.
 */
export function withoutStrangersTag(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const lower = domain.toLowerCase();
  const parent = lower.slice(lower.indexOf('.') + 1);
  if (SUBDOMAIN_ADDRESSING.has(parent)) return `${lower.slice(0, lower.indexOf('.'))}@${parent}`;
  // A local part that is all tag (`+x@gmail.com`) would leave none: such an address is kept as typed.
  if (!PLUS_ADDRESSING.has(lower) || local.indexOf('+') <= 0) return address;
  return `${local.slice(0, local.indexOf('+'))}@${domain}`;
}

/** How a provider that delivers several spellings of a local part alike spells it once (deliveryKey). */
const LOCAL_PART_SPELLINGS: Readonly<Record<string, (local: string) => string>> = {
  'gmail.com': (l) => l.replace(/\./g, ''),
  'proton.me': (l) => l.replace(/[._-]/g, ''),
  'yandex.ru': (l) => l.replace(/-/g, '.'),
};

/**
 * The mailbox an address delivers to, merging only the spellings its provider is known to deliver alike (a +tag at
 * the providers above, Gmail's dots, Proton's and Yandex's spellings, their domain aliases, case): for a rule that
 * withholds email, the quiet after an unsubscribe (src/follows/service.ts). mailboxOf drops dots and +tags at every
 * domain, which is right for counting (two mailboxes merged share a stricter limit) and wrong for withholding: a
 * review's john.smith@outlook.com unsubscribed, and johnsmith@outlook.com, another person, could not follow.
 */
export function deliveryKey(address: string): string {
  const parts = addressParts(address);
  if (!parts) return address.trim().toLowerCase();
  const { domain } = parts;
  // The domain is after its alias: PLUS_ADDRESSING lists each domain an alias leads to (gmail.com, proton.me,
  // icloud.com, yandex.ru) as well as the aliases.
  const local = PLUS_ADDRESSING.has(domain) && parts.local.indexOf('+') > 0 ? parts.local.slice(0, parts.local.indexOf('+')) : parts.local;
  const spelling = ownValue(LOCAL_PART_SPELLINGS, domain);
  return `${spelling ? spelling(local) : local}@${domain}`;
}

/**
 * Whether an address (a row's, an email's) delivers to the mailbox `address` reaches, by deliveryKey's rule; an empty
 * or missing one never does. The key of `address` is computed once, for a scan of many rows: an access or erasure
 * request (src/people/person.ts), and a registration notice's address still listed by its organization
 * (src/mail/send-time.ts).
 */
export function deliveryMatcher(address: string): (other: string | null | undefined) => boolean {
  const key = deliveryKey(address);
  return (other) => other !== null && other !== undefined && other.trim() !== '' && deliveryKey(other) === key;
}
