// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// A match's VEVENT shows more than its own row: the team a fed slot names (the source match's result, through any
// number of rounds, or a group's final table), the aggregate of a second leg (its first leg), the competition's name
// (DESCRIPTION), city (LOCATION), match length (DTEND when the match has no end of its own) and rules (away goals,
// the table's order), its teams' names, the organization's language. matches_touch raised SEQUENCE and moved
// updated_at (DTSTAMP) only when the row itself changed, so a semi-final's result rewrote the final's SUMMARY, and a
// new match length every DTEND, under the same SEQUENCE and DTSTAMP: RFC 5545 3.8.7.2 says DTSTAMP (no METHOD) is the
// last revision, RFC 5546 2.1.4 that a new DTEND is a new SEQUENCE, and Google Calendar keeps its copy of a subscribed
// event whose SEQUENCE did not rise. These triggers raise SEQUENCE and move updated_at of every match whose VEVENT
// can show the change. A few raise it where the words end up the same (a score in a semi-final still undecided): a
// higher SEQUENCE than needed costs a calendar app a re-read; a missed one leaves it showing the old match.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const BUMP = `UPDATE matches SET sequence = sequence + 1, updated_at = ${NOW}`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    // A match's SEQUENCE rose (matches_touch, or one of the triggers below): the matches showing something of it, and
    // in turn those showing something of them: fed by its result, its second leg, a knockout slot fed by its group's
    // table (old and new group, when it moved). Recursive triggers are off (SQLite's default), so this trigger does
    // not fire again for the rows it raises: the recursive query reaches them all at once. Feeds never form a cycle
    // (the import refuses one); UNION stops even if one did.
    `CREATE TRIGGER matches_touch_dependents AFTER UPDATE OF sequence ON matches
     WHEN new.sequence > old.sequence
     BEGIN
       ${BUMP} WHERE id IN (
         WITH RECURSIVE shows(id) AS (
           SELECT id FROM matches
           WHERE home_source_match_id = new.id OR away_source_match_id = new.id OR first_leg_match_id = new.id
             OR (event_id IN (new.event_id, old.event_id)
                 AND (home_source_group IN (new.group_name, old.group_name) OR away_source_group IN (new.group_name, old.group_name)))
           UNION
           SELECT m.id FROM matches m JOIN shows s
             ON m.home_source_match_id = s.id OR m.away_source_match_id = s.id OR m.first_leg_match_id = s.id
         )
         SELECT id FROM shows WHERE id <> new.id);
     END`,
    // The competition's own words and rules (each raised match then raises its dependents).
    `CREATE TRIGGER events_touch_matches AFTER UPDATE ON events
     WHEN new.name IS NOT old.name OR new.venue_city IS NOT old.venue_city
       OR new.match_duration_min IS NOT old.match_duration_min OR new.away_goals_rule IS NOT old.away_goals_rule
       OR new.points_win IS NOT old.points_win OR new.points_draw IS NOT old.points_draw
       OR new.points_loss IS NOT old.points_loss OR new.tiebreakers IS NOT old.tiebreakers
       OR new.decisions IS NOT old.decisions OR new.adjustments IS NOT old.adjustments
     BEGIN
       ${BUMP} WHERE event_id = new.id AND (
         new.name IS NOT old.name OR new.venue_city IS NOT old.venue_city
         OR (new.match_duration_min IS NOT old.match_duration_min AND ends_at IS NULL)
         OR (new.away_goals_rule IS NOT old.away_goals_rule AND first_leg_match_id IS NOT NULL)
         OR ((home_source_group IS NOT NULL OR away_source_group IS NOT NULL)
             AND (new.points_win IS NOT old.points_win OR new.points_draw IS NOT old.points_draw
                  OR new.points_loss IS NOT old.points_loss OR new.tiebreakers IS NOT old.tiebreakers
                  OR new.decisions IS NOT old.decisions OR new.adjustments IS NOT old.adjustments)));
     END`,
    // A team's name: the matches it is seeded in; the slots its results decide follow through their sources.
    `CREATE TRIGGER teams_renamed_matches AFTER UPDATE OF name, name_ar ON teams
     WHEN new.name IS NOT old.name OR new.name_ar IS NOT old.name_ar
     BEGIN
       ${BUMP} WHERE home_team_id = new.id OR away_team_id = new.id;
     END`,
    // The organization's language: every text of every match of its competitions.
    `CREATE TRIGGER organizations_language_matches AFTER UPDATE OF language ON organizations
     WHEN new.language IS NOT old.language
     BEGIN
       ${BUMP} WHERE event_id IN (SELECT e.id FROM events e JOIN leagues l ON l.id = e.league_id WHERE l.org_id = new.id);
     END`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0010_calendar_revisions cannot be undone');
}
