// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// The updates job keeps each event's points adjustments as it last saw them (update_event_seen), so that a deduction
// is told to its followers (src/updates/detect.ts): a season review's table changed by three points with nothing in
// any digest to say why. Rows from before have none (NULL): their adjustments become the baseline, told from then on.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE update_event_seen ADD COLUMN adjustments TEXT`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0027_update_event_adjustments cannot be undone');
}
