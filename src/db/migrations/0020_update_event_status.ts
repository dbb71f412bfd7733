// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// The updates job keeps what it last saw of each event (update_event_seen): now its status too, so that a competition
// cancelled and then put back on is told once, as the competition back on (src/updates/detect.ts). Before, it read as
// one "Back on" line per match, or, in the same email as the cancellation, as the cancellation alone (a review).
// Rows from before have no status (NULL): such a competition's return is told match by match, as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE update_event_seen ADD COLUMN status TEXT`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE update_event_seen DROP COLUMN status`).execute(db);
}
