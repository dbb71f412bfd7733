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

/**
 * The ids of the matches the SELECTs in `bases` give, and in turn of those showing something of them (fed by their
 * result, their second legs). The rows these triggers raise do not fire them again: matches_touch_dependents fires on
 * a change of a match's own columns only, never on a raised SEQUENCE, so each trigger raises the whole closure itself,
 * once (when a raised SEQUENCE fired it, each raised row raised its own closure again: a match raised once per path
 * to it, quadratic in a bracket, 5.9 s and a SEQUENCE of 178,348 for a 1,024-team cup imported final first).
 * Feeds never form a cycle (the import refuses one); UNION stops even if one did. The bases are a UNION of SELECTs,
 * each on its own index: as one WHERE of ORs, SQLite read the whole table for every changed match.
 */
const closure = (bases: string[]) => `WITH RECURSIVE shows(id) AS (
    SELECT id FROM matches WHERE id IN (${bases.join(' UNION ')})
    UNION
    SELECT m.id FROM matches m JOIN shows s
      ON m.home_source_match_id = s.id OR m.away_source_match_id = s.id OR m.first_leg_match_id = s.id
  )
  SELECT id FROM shows`;

/** closure(bases) without `self`. */
const showing = (bases: string[], self: string) => `SELECT id FROM (
  ${closure(bases)}) WHERE id <> ${self}.id`;

/** Matches whose text names `r`: a slot fed by its result, its second leg. */
const fedBy = (r: string) => [
  `SELECT id FROM matches WHERE home_source_match_id = ${r}.id`,
  `SELECT id FROM matches WHERE away_source_match_id = ${r}.id`,
  `SELECT id FROM matches WHERE first_leg_match_id = ${r}.id`,
];

/** What makes a match "fed": the partial index matches_fed holds exactly these rows, by event. */
const FED = `(home_source_match_id IS NOT NULL OR away_source_match_id IS NOT NULL
  OR home_source_group IS NOT NULL OR away_source_group IS NOT NULL)`;

/** A match's round label as calendar-feed.ts numbers it (round_name, or the round's ordinal). */
const LABEL = (x: string) => `coalesce(${x ? `${x}.` : ''}round_name, '#' || ${x ? `${x}.` : ''}round_ordinal)`;

/**
 * The fed matches of `r`'s event whose words depend on `r` without naming it: a knockout slot fed by the table of
 * `r`'s group. Read through matches_fed: an event's fed matches only, none in a league, so that an import of a long
 * league does not read the whole event for each of its matches.
 */
const groupFed = (r: string) => `
  SELECT d.id FROM matches d WHERE d.event_id = ${r}.event_id AND ${FED.replace(/(\w+_source_\w+)/g, 'd.$1')}
    AND ${r}.group_name IS NOT NULL AND (d.home_source_group = ${r}.group_name OR d.away_source_group = ${r}.group_name)`;

/**
 * The slots renumbered when `r` is added, removed or moved (`when`): "Winner of Semi-final 2" is numbered among the
 * matches with that label, in bracket order (round, position, id), so only the matches after `r` in that order
 * change number, or all of them when the label goes from one match to two (or back: a lone match is not numbered).
 * Read through matches_label from `r`'s place on: an import in bracket order renumbers nothing and reads nothing. A
 * renumbered slot changes its own words only (its winner is the same team): these are raised without their closure.
 */
const renumbered = (r: string, when = '1') => {
  const slots = (where: string) => `SELECT d.id FROM matches s JOIN matches d
      ON d.home_source_match_id = s.id OR d.away_source_match_id = s.id
    WHERE ${when} AND s.event_id = ${r}.event_id AND ${LABEL('s')} = ${LABEL(r)} AND ${where}`;
  return [
    slots(`(s.round_ordinal, s.bracket_position, s.id) > (${r}.round_ordinal, ${r}.bracket_position, ${r}.id)`),
    slots(`s.id <> ${r}.id AND (SELECT count(*) FROM (SELECT 1 FROM matches x
      WHERE x.event_id = ${r}.event_id AND ${LABEL('x')} = ${LABEL(r)} LIMIT 3)) <= 2`),
  ].join(' UNION ');
};

/** The update moved the match within the bracket's numbering (its label or its place among that label's matches). */
const MOVED = `(new.event_id IS NOT old.event_id OR new.round_name IS NOT old.round_name
  OR new.round_ordinal IS NOT old.round_ordinal OR new.bracket_position IS NOT old.bracket_position)`;

/** A column matches_touch watches changed (its WHEN, as migration 0006 wrote it). */
const CHANGED = `new.event_id IS NOT old.event_id OR new.round_ordinal IS NOT old.round_ordinal OR new.round_name IS NOT old.round_name
       OR new.group_name IS NOT old.group_name OR new.bracket_role IS NOT old.bracket_role
       OR new.bracket_position IS NOT old.bracket_position
       OR new.home_team_id IS NOT old.home_team_id OR new.away_team_id IS NOT old.away_team_id
       OR new.home_source_match_id IS NOT old.home_source_match_id OR new.home_source_outcome IS NOT old.home_source_outcome
       OR new.away_source_match_id IS NOT old.away_source_match_id OR new.away_source_outcome IS NOT old.away_source_outcome
       OR new.kickoff_at IS NOT old.kickoff_at OR new.ends_at IS NOT old.ends_at OR new.venue IS NOT old.venue
       OR new.status IS NOT old.status OR new.home_score IS NOT old.home_score OR new.away_score IS NOT old.away_score
       OR new.home_penalties IS NOT old.home_penalties OR new.away_penalties IS NOT old.away_penalties
       OR new.walkover_winner IS NOT old.walkover_winner
       OR new.leg IS NOT old.leg OR new.first_leg_match_id IS NOT old.first_leg_match_id
       OR new.after_extra_time IS NOT old.after_extra_time
       OR new.home_source_group IS NOT old.home_source_group OR new.home_source_position IS NOT old.home_source_position
       OR new.away_source_group IS NOT old.away_source_group OR new.away_source_position IS NOT old.away_source_position`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `CREATE INDEX matches_fed ON matches(event_id) WHERE ${FED}`,
    `CREATE INDEX matches_label ON matches(event_id, ${LABEL('')}, round_ordinal, bracket_position, id)`,
    // A match's own columns changed (what raises its SEQUENCE in matches_touch, on the same update): the matches showing
    // something of it. When it moved group, round or place in the bracket, also what that changed for the old group
    // and the old and new label. Not on a raised SEQUENCE: each trigger raises its whole closure itself (see closure).
    `CREATE TRIGGER matches_touch_dependents AFTER UPDATE ON matches
     WHEN new.sequence = old.sequence AND (${CHANGED})
     BEGIN
       ${BUMP} WHERE id IN (${showing([...fedBy('new'), groupFed('new'), groupFed('old')], 'new')});
       ${BUMP} WHERE id IN (${renumbered('new', MOVED)} UNION ${renumbered('old', MOVED)});
     END`,
    // A match added: its group's table, its round's numbering, and a slot already naming it (an import may add a
    // match after the one it feeds).
    `CREATE TRIGGER matches_inserted_dependents AFTER INSERT ON matches BEGIN
       ${BUMP} WHERE id IN (${showing([...fedBy('new'), groupFed('new')], 'new')});
       ${BUMP} WHERE id IN (${renumbered('new')}) AND id <> new.id;
     END`,
    // A match removed: its group's table and its round's numbering (the slots it fed are cleared by matches_unfeed,
    // which raises them through matches_touch).
    `CREATE TRIGGER matches_deleted_dependents AFTER DELETE ON matches BEGIN
       ${BUMP} WHERE id IN (${showing([groupFed('old')], 'old')});
       ${BUMP} WHERE id IN (${renumbered('old')});
     END`,
    // A UID's SEQUENCE only ever rises (RFC 5545 3.8.7.4), and a match removed (an import without it, its competition
    // deleted) can be imported again under the same id and competition: the same UID, which would start again at 0
    // while calendar apps hold the higher SEQUENCE they saw (and take 0 for an older version). What a removed match's
    // UID reached is kept here (identifiers and a number, nothing else); the match's return starts above it.
    `CREATE TABLE calendar_sequence_floor (
      match_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      sequence INTEGER NOT NULL,
      PRIMARY KEY (match_id, event_id)
    ) STRICT, WITHOUT ROWID`,
    `CREATE TRIGGER matches_deleted_floor AFTER DELETE ON matches BEGIN
       INSERT INTO calendar_sequence_floor (match_id, event_id, sequence) VALUES (old.id, old.event_id, old.sequence)
       ON CONFLICT (match_id, event_id) DO UPDATE SET sequence = max(sequence, excluded.sequence);
     END`,
    `CREATE TRIGGER matches_inserted_floor AFTER INSERT ON matches
     WHEN EXISTS (SELECT 1 FROM calendar_sequence_floor WHERE match_id = new.id AND event_id = new.event_id)
     BEGIN
       UPDATE matches SET sequence = max(sequence, 1 + (
         SELECT sequence FROM calendar_sequence_floor WHERE match_id = new.id AND event_id = new.event_id))
       WHERE id = new.id;
     END`,
    // A match moved to another competition leaves its UID as a removal does (the UID is the match's and its
    // competition's), and one moved into a competition takes up that UID: a UID it left, by a removal or a move,
    // resumes above what it reached. The raise is on the SEQUENCE matches_touch gives the move, whichever of the
    // triggers runs first.
    `CREATE TRIGGER matches_moved_floor AFTER UPDATE OF event_id ON matches
     WHEN new.event_id IS NOT old.event_id
     BEGIN
       INSERT INTO calendar_sequence_floor (match_id, event_id, sequence) VALUES (old.id, old.event_id, old.sequence)
       ON CONFLICT (match_id, event_id) DO UPDATE SET sequence = max(sequence, excluded.sequence);
     END`,
    `CREATE TRIGGER matches_moved_in_floor AFTER UPDATE OF sequence ON matches
     WHEN new.sequence <= (SELECT sequence FROM calendar_sequence_floor WHERE match_id = new.id AND event_id = new.event_id)
     BEGIN
       UPDATE matches SET sequence = 1 + (
         SELECT sequence FROM calendar_sequence_floor WHERE match_id = new.id AND event_id = new.event_id)
       WHERE id = new.id;
     END`,
    // The competition's own words, rules and cancellation (each raised match then raises its dependents).
    `CREATE TRIGGER events_touch_matches AFTER UPDATE ON events
     WHEN new.name IS NOT old.name OR new.venue_city IS NOT old.venue_city OR new.status IS NOT old.status
       OR new.match_duration_min IS NOT old.match_duration_min OR new.away_goals_rule IS NOT old.away_goals_rule
       OR new.points_win IS NOT old.points_win OR new.points_draw IS NOT old.points_draw
       OR new.points_loss IS NOT old.points_loss OR new.tiebreakers IS NOT old.tiebreakers
       OR new.decisions IS NOT old.decisions OR new.adjustments IS NOT old.adjustments
     BEGIN
       ${BUMP} WHERE id IN (${closure([`SELECT id FROM matches WHERE event_id = new.id AND (
         new.name IS NOT old.name OR new.venue_city IS NOT old.venue_city
         OR ((new.status = 'cancelled') IS NOT (old.status = 'cancelled') AND status <> 'completed')
         OR (new.match_duration_min IS NOT old.match_duration_min AND ends_at IS NULL)
         OR (new.away_goals_rule IS NOT old.away_goals_rule AND first_leg_match_id IS NOT NULL)
         OR ((home_source_group IS NOT NULL OR away_source_group IS NOT NULL)
             AND (new.points_win IS NOT old.points_win OR new.points_draw IS NOT old.points_draw
                  OR new.points_loss IS NOT old.points_loss OR new.tiebreakers IS NOT old.tiebreakers
                  OR new.decisions IS NOT old.decisions OR new.adjustments IS NOT old.adjustments)))`])});
     END`,
    // A team's name: the matches it is seeded in, the slots fed by the tables of their groups, and the slots its results
    // decide (through their sources).
    `CREATE TRIGGER teams_renamed_matches AFTER UPDATE OF name, name_ar ON teams
     WHEN new.name IS NOT old.name OR new.name_ar IS NOT old.name_ar
     BEGIN
       ${BUMP} WHERE id IN (${closure([
         `SELECT id FROM matches WHERE home_team_id = new.id`,
         `SELECT id FROM matches WHERE away_team_id = new.id`,
         `SELECT d.id FROM matches r JOIN matches d ON d.event_id = r.event_id AND ${FED.replace(/(\w+_source_\w+)/g, 'd.$1')}
            AND (d.home_source_group = r.group_name OR d.away_source_group = r.group_name)
          WHERE (r.home_team_id = new.id OR r.away_team_id = new.id) AND r.group_name IS NOT NULL`,
       ])});
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
