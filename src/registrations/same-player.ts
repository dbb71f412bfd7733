// Which registrations are likely the same player sent again: a parent who registers twice (a phone number written
// another way, a note forgotten the first time) made two rows that nothing linked, and a registrations review's
// secretary found three for one child in the export. Two registrations of one organization are taken as one player's
// when their names fold to the same (src/text/fold.ts) and they share the date of birth, or, one of them without it,
// the contact mailbox (src/mail/mailbox.ts: case, dots and +tags aside). Said, never merged: twins share a birthday,
// siblings a parent's address, and the organization decides.
import { mailboxOf } from '../mail/mailbox.js';
import { foldName } from '../text/fold.js';

export interface PlayerFacts {
  id: string;
  name: string;
  date_of_birth: string | null;
  email: string;
}

/**
 * For each registration of `rows` (oldest first) that repeats an earlier one, the first registration of that player,
 * by id. Pure: the export reads the organization's registrations and asks this.
 */
export function samePlayerAs(rows: readonly PlayerFacts[]): Map<string, string> {
  // Each key to the first registration (its position) that has it: a dated one by its day and, at its mailbox, as
  // dated; an undated one at its mailbox.
  const first = new Map<string, number>();
  const out = new Map<string, string>();
  rows.forEach((r, i) => {
    const name = foldName(r.name);
    const mailbox = mailboxOf(r.email);
    const own = r.date_of_birth === null ? [`undated\n${name}\n${mailbox}`] : [`born\n${name}\n${r.date_of_birth}`, `dated\n${name}\n${mailbox}`];
    // Dated: the same day, or an undated one at the mailbox. Undated: any at the mailbox.
    const wanted = r.date_of_birth === null
      ? [`undated\n${name}\n${mailbox}`, `dated\n${name}\n${mailbox}`]
      : [`born\n${name}\n${r.date_of_birth}`, `undated\n${name}\n${mailbox}`];
    const found = wanted.map((k) => first.get(k)).filter((n): n is number => n !== undefined);
    if (found.length > 0) {
      const earliest = rows[Math.min(...found)]!.id;
      out.set(r.id, out.get(earliest) ?? earliest);
    }
    for (const k of own) if (!first.has(k)) first.set(k, i);
  });
  return out;
}
