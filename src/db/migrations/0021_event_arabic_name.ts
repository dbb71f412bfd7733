// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// A competition's Arabic name (`name_ar`, as organizations, leagues, teams and members have): an Arabic organization's
// calendars and emails named its competitions in English (an organizer's review: "U14 League 2026/27" at the top of
// every VEVENT of an Arabic calendar). Each VEVENT of the event shows its name, so a change of it raises every match
// of the event's SEQUENCE, as a change of `name` does (0010's events_touch_matches); events_touch re-renders the event.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `ALTER TABLE events ADD COLUMN name_ar TEXT`,
    `CREATE TRIGGER events_renamed_ar_matches AFTER UPDATE OF name_ar ON events
     WHEN new.name_ar IS NOT old.name_ar
     BEGIN
       UPDATE matches SET sequence = sequence + 1, updated_at = ${NOW} WHERE event_id = new.id;
     END`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TRIGGER events_renamed_ar_matches`).execute(db);
  await sql.raw(`ALTER TABLE events DROP COLUMN name_ar`).execute(db);
}
