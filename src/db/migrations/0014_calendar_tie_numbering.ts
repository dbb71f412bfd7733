// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// The calendar numbers a round's undecided slots ("Winner of Quarter-final 2") among the bracket's ties only: a
// two-legged tie once, a group stage's matches never (a review read "Winner of Quarter-final 2 vs Winner of
// Quarter-final 4" over two ties, and a hybrid's final "Winner of Round 1 7"). Migration 0010's triggers counted every
// match of the label, so going from one tie to two among many group matches raised no SEQUENCE while the words changed
// (the review of that change found it). The three triggers that renumber are made again counting ties as the calendar
// does; the rest of 0010 stands. The slots whose words this release changes are raised once, here.
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
 * A match that takes a number among its label's (calendar-feed.ts numberedLabels): a bracket match that is not the
 * first leg of a tie (the tie is numbered once, by its second leg). Group matches and first legs have none.
 */
const TIE = (x: string) => `${x}.bracket_role IS NOT NULL AND NOT EXISTS (SELECT 1 FROM matches y WHERE y.first_leg_match_id = ${x}.id)`;

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
      WHERE x.event_id = ${r}.event_id AND ${LABEL('x')} = ${LABEL(r)} AND ${TIE('x')} LIMIT 3)) <= 2`),
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
    `DROP TRIGGER matches_touch_dependents`,
    `DROP TRIGGER matches_inserted_dependents`,
    `DROP TRIGGER matches_deleted_dependents`,
    `CREATE TRIGGER matches_touch_dependents AFTER UPDATE ON matches
     WHEN new.sequence = old.sequence AND (${CHANGED})
     BEGIN
       ${BUMP} WHERE id IN (${showing([...fedBy('new'), groupFed('new'), groupFed('old')], 'new')});
       ${BUMP} WHERE id IN (${renumbered('new', MOVED)} UNION ${renumbered('old', MOVED)});
     END`,
    `CREATE TRIGGER matches_inserted_dependents AFTER INSERT ON matches BEGIN
       ${BUMP} WHERE id IN (${showing([...fedBy('new'), groupFed('new')], 'new')});
       ${BUMP} WHERE id IN (${renumbered('new')}) AND id <> new.id;
     END`,
    `CREATE TRIGGER matches_deleted_dependents AFTER DELETE ON matches BEGIN
       ${BUMP} WHERE id IN (${showing([groupFed('old')], 'old')});
       ${BUMP} WHERE id IN (${renumbered('old')});
     END`,
    // The words this release changed: a fed slot of a competition with a group stage or two-legged ties may read
    // another number now. Raised once (their dependents show nothing of a number: a slot names its source's label).
    `${BUMP} WHERE (home_source_match_id IS NOT NULL OR away_source_match_id IS NOT NULL)
       AND event_id IN (SELECT event_id FROM matches WHERE group_name IS NOT NULL OR first_leg_match_id IS NOT NULL)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0014_calendar_tie_numbering cannot be undone');
}
