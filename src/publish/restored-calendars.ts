// A database restored from a backup goes back in time, and its matches' SEQUENCE with it, below what calendar apps
// already read from the feeds rendered since the backup: an operator's review restored one, moved a match, and the
// feed gave it the SEQUENCE subscribers had already seen with another kickoff, so Google Calendar kept the old one
// (README, Calendars: a UID's SEQUENCE never goes down). The artifacts folder remembers: its manifest holds each
// competition's revision as last rendered, and a revision only ever rises. A competition whose revision is now below
// it went back; each of its matches is raised past anything rendered since the backup, before the render reads them.
import type { Db } from '../db/connect.js';
import { ownValue } from '../collections.js';
import type { ManifestEvent } from './render-organization.js';

export interface BehindEvent {
  id: string;
  /** How many revisions the database went back. */
  gap: number;
  /** The revision it takes: past the one rendered, so the render writes it again. */
  revision: number;
}

/**
 * The competitions whose revision is below the one the folder last rendered from this database. Pure. Every change
 * that raises a match's SEQUENCE raises its competition's revision too (the triggers of 0001, 0006, 0010, 0011, 0017),
 * so raising each match by the gap and one more puts it past every SEQUENCE rendered since.
 */
export function behindEvents(rendered: Record<string, ManifestEvent>, heads: ReadonlyArray<{ id: string; revision: number }>): BehindEvent[] {
  return heads.flatMap((head) => {
    const before = ownValue(rendered, head.id);
    return before !== undefined && before.revision > head.revision
      ? [{ id: head.id, gap: before.revision - head.revision, revision: before.revision + 1 }]
      : [];
  });
}

/** Raises the matches of the competitions that went back (behindEvents), in one transaction; how many competitions. */
export async function raiseRestoredCalendars(db: Db, behind: readonly BehindEvent[], now: Date): Promise<number> {
  if (behind.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    for (const e of behind) {
      // SEQUENCE and DTSTAMP only: no trigger watches them, so nothing else is raised.
      await trx.updateTable('matches')
        .set((eb) => ({ sequence: eb('sequence', '+', e.gap + 1), updated_at: now.toISOString() }))
        .where('event_id', '=', e.id).execute();
      await trx.updateTable('events').set({ revision: e.revision }).where('id', '=', e.id).execute();
    }
  });
  return behind.length;
}
