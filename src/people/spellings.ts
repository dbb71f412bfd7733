// What an .eml file the file transport wrote says of whom it is to, for an access or erasure request (npm run person,
// src/people/person.ts). Pure. Which addresses are one person's is mailbox.ts deliveryMatcher: the mailbox, as the
// follows service decides who unsubscribed (case, a +tag at a provider that delivers it to the same mailbox, Gmail's
// dots, a provider's other domains); not mailboxOf, which drops dots and +tags at every domain: right for counting a
// limit, wrong here, where john.smith@outlook.com asking to be erased would erase johnsmith@outlook.com, another person.

/**
 * The address of a header of an .eml file the file transport wrote (src/mail/eml.ts), `To` by default: unfolded, the
 * address in angle brackets when a display name comes first. Undefined without one. Only the header section is read.
 */
export function emlRecipient(eml: string, header: 'To' | 'Reply-To' = 'To'): string | undefined {
  const value = emlHeader(eml, header);
  if (value === undefined) return undefined;
  const bracketed = /<([^<>]*)>\s*$/.exec(value);
  const address = (bracketed ? bracketed[1]! : value).trim();
  return address === '' ? undefined : address;
}

/**
 * The outbox row an .eml file was written for, by its Message-ID (`<message_key@domain>`, eml.ts messageIdFor): the
 * row's random key, the same in no other database, where the outbox id in the file's name restarts with a new one.
 */
export function emlMessageKey(eml: string): string | undefined {
  const m = /^<([^@<>]+)@[^<>]*>$/.exec(emlHeader(eml, 'Message-ID') ?? '');
  return m ? m[1] : undefined;
}

/** A header's value in an .eml file's header section, unfolded and trimmed; undefined without it. */
function emlHeader(eml: string, header: string): string | undefined {
  const end = eml.search(/\r?\n\r?\n/);
  const head = (end === -1 ? eml : eml.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const name = `${header.toLowerCase()}:`;
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(name));
  return line === undefined ? undefined : line.slice(name.length).trim();
}

/**
 * The text of an .eml file's body parts (src/mail/eml.ts bodyPart: quoted-printable or base64 UTF-8), decoded and
 * joined: what it says, to find the emails that name a registration once their outbox rows are gone (the retention
 * job deletes an email 30 days after it ends, a registration is kept a year; a review found `--remove` leaving a
 * month-old notice's file, with the child's details, behind).
 */
export function emlBodyText(eml: string): string {
  const texts: string[] = [];
  // Split on the declared boundary only: a text part's own "--" line (an email's signature separator) is no boundary.
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(emlHeader(eml, 'Content-Type') ?? '')?.[1];
  const parts = boundary === undefined
    ? [eml]
    : eml.split(new RegExp(`\\r?\\n--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?[ \\t]*(?:\\r?\\n|$)`));
  for (const part of parts) {
    const end = part.search(/\r?\n\r?\n/);
    if (end === -1) continue;
    const encoding = /^content-transfer-encoding:\s*([\w-]+)/im.exec(part.slice(0, end))?.[1]?.toLowerCase();
    const body = part.slice(end).replace(/^\r?\n\r?\n/, '');
    if (encoding === 'base64') texts.push(Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('utf8'));
    else if (encoding === 'quoted-printable') {
      const bytes = Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
      texts.push(bytes.toString('utf8'));
    }
  }
  return texts.join('\n');
}
