// One organization's registrations removed by id: a player registered twice (the export's same_player_as names the
// first), a test, a request its organization turned away. A registrations review found no way but `npm run person --
// --erase`, which takes every registration of that address, the good one too. In one transaction, with what carries
// the registration's data: its emails still in the outbox (its notices and its receipt, in any status: none leaves
// after) and the stored answer a retried submit would get, which names it. Another organization's id, or one it does
// not hold, removes nothing.
import { sql } from 'kysely';
import type { SyncDb } from '../db/sync.js';

export type RemoveOutcome =
  | { ok: true; removed: string[]; emails: number; answers: number }
  | { ok: false; unknown: string[] };

export function removeRegistrations(store: SyncDb, orgId: string, ids: readonly string[]): RemoveOutcome {
  const wanted = [...new Set(ids)];
  return store.transaction(() => {
    const held = new Set(
      store.all(store.q.selectFrom('registrations').select('id').where('org_id', '=', orgId).where('id', 'in', wanted)).map((r) => r.id),
    );
    const unknown = wanted.filter((id) => !held.has(id));
    if (unknown.length > 0) return { ok: false, unknown };
    const answers = store.run(
      store.q.deleteFrom('idempotency_keys').where('scope', 'in', ['register', 'register:repeat'])
        .where(sql<string>`json_extract(response_body, '$.id')`, 'in', wanted),
    );
    const emails = store.run(
      store.q.deleteFrom('email_outbox')
        .where('template', 'in', ['registration-notice', 'registration-receipt'])
        .where(sql<string>`json_extract(data_json, '$.registrationId')`, 'in', wanted),
    );
    store.run(store.q.deleteFrom('registrations').where('id', 'in', wanted));
    return { ok: true, removed: wanted, emails, answers };
  });
}
