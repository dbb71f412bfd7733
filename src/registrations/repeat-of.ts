// Which earlier registration of its organization a registration repeats (src/registrations/same-player.ts decides),
// read when its notice is sent: the secretary reading the notice learns of a repeat then, not from the export weeks
// later (a registrations review's secretary found three registrations of one child). Said to the organization only:
// the person registering is answered as always, so that the form tells no stranger who is registered.
import type { SyncDb } from '../db/sync.js';
import { samePlayerAs } from './same-player.js';

export interface RepeatOf {
  id: string;
  /** When it arrived (an instant). */
  submittedAt: string;
  /** What the two share beside the name: the date of birth, or (one of them without it) the contact mailbox. */
  by: 'date_of_birth' | 'email';
}

/**
 * The earliest registration `registrationId` repeats, as the export's same_player_as names it, or null: none, or the
 * registration is gone. Only registrations of the same folded name are read (name_key, indexed with the organization).
 */
export function repeatOf(store: SyncDb, registrationId: string): RepeatOf | null {
  const self = store.first(store.q.selectFrom('registrations').select(['org_id', 'name_key', 'created_at']).where('id', '=', registrationId));
  if (!self || self.name_key === null) return null;
  // Its own row among them, and none after it: which it repeats depends only on those before.
  const rows = store.all(
    store.q.selectFrom('registrations').select(['id', 'name', 'date_of_birth', 'email', 'created_at'])
      .where('org_id', '=', self.org_id).where('name_key', '=', self.name_key).where('created_at', '<=', self.created_at)
      .orderBy('created_at').orderBy('id'),
  );
  const earlier = samePlayerAs(rows).get(registrationId);
  const first = rows.find((r) => r.id === earlier);
  if (!first) return null;
  const own = rows.find((r) => r.id === registrationId)!;
  return { id: first.id, submittedAt: first.created_at, by: own.date_of_birth !== null && first.date_of_birth !== null ? 'date_of_birth' : 'email' };
}
