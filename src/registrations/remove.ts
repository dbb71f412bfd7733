// One organization's registrations removed by id: a player registered twice (the export's same_player_as names the
// earlier one), a test, a request its organization turned away. A registrations review found no way but `npm run
// person -- --erase`, which takes every registration of that address, the good one too. In one transaction, with what
// its emails in the outbox said (its notices and its receipt: none still waiting leaves after; the rows stay, emptied,
// counted by their mailboxes' daily limits: outbox.ts emptyEmails), then the .eml files the file transport wrote of
// them, found by their rows or by their reference line (registration-notice.ts namesRegistration: the retention job
// deletes an email's row 30 days after it ends, a registration is kept a year). The stored answer to its submit stays:
// a form posted again within its hour is answered as the first time, not taken again as a new registration. Another
// organization's id, or one it does not hold, removes nothing.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { SyncDb } from '../db/sync.js';
import { emptyEmails } from '../mail/outbox.js';
import { namesRegistration } from '../mail/templates/registration-notice.js';
import { emlFilesOf } from '../people/person.js';

export type RemoveOutcome =
  | { ok: true; removed: string[]; emails: number; files: number }
  | { ok: false; unknown: string[] };

/** `mailDir`: the file transport's folder, whose .eml files of the removed registrations go too (null: Postmark). */
export function removeRegistrations(store: SyncDb, orgId: string, ids: readonly string[], options: { mailDir: string | null }): RemoveOutcome {
  const wanted = [...new Set(ids)];
  const outcome = store.transaction(() => {
    const held = new Set(
      store.all(store.q.selectFrom('registrations').select('id').where('org_id', '=', orgId).where('id', 'in', wanted)).map((r) => r.id),
    );
    const unknown = wanted.filter((id) => !held.has(id));
    if (unknown.length > 0) return { ok: false as const, unknown };
    const emails = store.all(
      store.q.selectFrom('email_outbox').select(['id', 'message_key'])
        .where('template', 'in', ['registration-notice', 'registration-receipt'])
        .where(sql<string>`json_extract(data_json, '$.registrationId')`, 'in', wanted),
    );
    emptyEmails(store, emails.map((e) => e.id), 'its registration was removed');
    store.run(store.q.deleteFrom('registrations').where('id', 'in', wanted));
    return { ok: true as const, removed: wanted, emails: emails.length, keys: new Set(emails.map((e) => e.message_key)) };
  });
  if (!outcome.ok) return outcome;
  // After the commit: a file cannot be put back if the transaction failed.
  // By its reference line: a later registration's notice names this one too, as the registration it may repeat.
  const about = (text: string) => outcome.removed.some((id) => namesRegistration(text, id));
  const files = options.mailDir === null ? [] : emlFilesOf(options.mailDir, () => false, outcome.keys, about);
  for (const name of files) fs.rmSync(path.join(options.mailDir!, name), { force: true });
  return { ok: true, removed: outcome.removed, emails: outcome.emails, files: files.length };
}
