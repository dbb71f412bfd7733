// Which registrations are likely the same player sent again: a parent who registers twice (a phone number written
// another way, a note forgotten the first time) made two rows that nothing linked, and a registrations review's
// secretary found three for one child in the export. A registration repeats an earlier one of its organization when
// their names fold to the same (src/text/fold.ts) and they share the date of birth, or, one of them without it, the
// contact mailbox (src/mail/mailbox.ts deliveryKey: case, and a +tag or Gmail's dots where the provider delivers
// them alike; two Outlook spellings are two people). Said, never merged: twins share a birthday, siblings a parent's
// address, and the organization decides.
import { deliveryKey } from '../mail/mailbox.js';
import { foldName } from '../text/fold.js';

export interface PlayerFacts {
  id: string;
  name: string;
  date_of_birth: string | null;
  email: string;
}

/**
 * For each registration of `rows` (oldest first) that repeats an earlier one, the earliest it repeats, by id: with a
 * date of birth, the earliest of that day, else the earliest without one at its mailbox; without a date, the earliest
 * at its mailbox. Each link is a direct match, never followed further: an undated registration may repeat two dated
 * ones of different days, which are not one player. Pure: the export reads the organization's registrations and asks.
 */
export function samePlayerAs(rows: readonly PlayerFacts[]): Map<string, string> {
  // Each key to the id of the first registration that has it.
  const first = new Map<string, string>();
  const out = new Map<string, string>();
  for (const r of rows) {
    const name = foldName(r.name);
    const mailbox = deliveryKey(r.email);
    const day = r.date_of_birth === null ? null : `born\n${name}\n${r.date_of_birth}`;
    const anyAtMailbox = `any\n${name}\n${mailbox}`;
    const undatedAtMailbox = `undated\n${name}\n${mailbox}`;
    const earlier = day === null ? first.get(anyAtMailbox) : (first.get(day) ?? first.get(undatedAtMailbox));
    if (earlier !== undefined) out.set(r.id, earlier);
    for (const k of [day, anyAtMailbox, r.date_of_birth === null ? undatedAtMailbox : null]) {
      if (k !== null && !first.has(k)) first.set(k, r.id);
    }
  }
  return out;
}
