// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// This release changed the words of two kinds of VEVENTs, and a calendar app that subscribed keeps an event whose
// SEQUENCE did not rise (Google Calendar does), so each is raised once, here:
// - every match of an Arabic organization: each line of its SUMMARY, DESCRIPTION and LOCATION now starts with RLM and
//   isolates its names, so that a Latin team's name first no longer shows the line left to right;
// - a slot fed by a match whose round's name ends in a number ("Round of 16", "Round 1" when it has none): numbered
//   among its ties, it now reads "Winner of Round of 16 (5)", not "… Round of 16 5".
// SEQUENCE rises without touching the trigger-watched columns, so no trigger raises anything more.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `UPDATE matches SET sequence = sequence + 1, updated_at = ${NOW}
       WHERE event_id IN (SELECT e.id FROM events e JOIN leagues l ON l.id = e.league_id
                          JOIN organizations o ON o.id = l.org_id WHERE o.language = 'ar')
          OR EXISTS (SELECT 1 FROM matches s
                     WHERE s.id IN (matches.home_source_match_id, matches.away_source_match_id)
                       AND (s.round_name IS NULL OR s.round_name GLOB '*[0-9٠-٩]'))`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0015_calendar_direction cannot be undone');
}
