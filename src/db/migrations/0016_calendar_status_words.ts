// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// 4373053 made the SUMMARY of a postponed or cancelled match begin "Postponed: " / "Cancelled: " ("مؤجلة: " /
// "ملغاة: "), and of each unplayed match of a cancelled competition too (the calendar shows it cancelled), without
// raising their SEQUENCE: a calendar app that subscribed keeps an event whose SEQUENCE did not rise (Google Calendar
// does), so its users never saw the words (an operator's upgrade review found six such events after an upgrade). Each
// is raised once, here, and its competition's revision with it, so that the next render writes it whatever the
// release's render version. SEQUENCE rises without touching the trigger-watched columns, so no trigger raises
// anything more.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const SAYS_ITS_STATUS = `(status IN ('postponed', 'cancelled')
  OR (status <> 'completed' AND event_id IN (SELECT id FROM events WHERE status = 'cancelled')))`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`UPDATE events SET revision = revision + 1 WHERE id IN (SELECT event_id FROM matches WHERE ${SAYS_ITS_STATUS})`).execute(db);
  await sql.raw(`UPDATE matches SET sequence = sequence + 1, updated_at = ${NOW} WHERE ${SAYS_ITS_STATUS}`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0016_calendar_status_words cannot be undone');
}
