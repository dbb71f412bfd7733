// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// This release changed the words of an Arabic organization's VEVENTs (a native Arabic review): a walkover named its
// winner as the team that withdrew ("انسحاب"), penalties read "(4–3 ركلات الترجيح)", and tanween was written on the
// alif in the undecided slots' words. A calendar app that subscribed keeps an event whose SEQUENCE did not rise (Google
// Calendar does), so every match of an Arabic organization is raised once, here, as 0015 did, and its competition's
// revision with it, as 0016 did, so that the next render writes them whatever the manifest says (a review of the change
// upgraded a database: its first render rendered nothing, the Arabic feeds kept their old words and SEQUENCE). SEQUENCE
// and the revision rise without touching the trigger-watched columns, so no trigger raises anything more.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

const ARABIC_EVENTS = `SELECT e.id FROM events e JOIN leagues l ON l.id = e.league_id
                       JOIN organizations o ON o.id = l.org_id WHERE o.language = 'ar'`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`UPDATE matches SET sequence = sequence + 1, updated_at = ${NOW} WHERE event_id IN (${ARABIC_EVENTS})`).execute(db);
  await sql.raw(`UPDATE events SET revision = revision + 1 WHERE id IN (${ARABIC_EVENTS})`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0023_arabic_calendar_words cannot be undone');
}
