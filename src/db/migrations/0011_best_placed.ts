// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/ (nor from 0010:
// what it needs of 0010's text is copied here, as it was).
//
// Knockout slots fed by the best-placed teams of several groups (README "Group stage to knockout": EURO 2020's four
// best third-placed teams). An event's rules gain `best_placed` (a JSON list of rules: position, groups, how many
// qualify, how they rank, the allocation table), and a match's slot may name one of them and a slot. matches_touch is
// re-created so that a change of the new columns raises the match's own SEQUENCE and the event's revision. Such a
// slot's VEVENT shows the tables of every group its rule draws from: the triggers below raise it (and what shows its
// result, through every round, as 0010 does) when a match of one of those groups is added, changed, moved or removed,
// when the event's points, tie-breakers, decisions, adjustments or best_placed rules change, and when a team that
// plays in one of the event's groups is renamed (any group of the event: a raise more than needed costs a re-read).
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const BUMP = `UPDATE matches SET sequence = sequence + 1, updated_at = ${NOW}`;

/** The ids the SELECTs in `bases` give, and of every match showing something of them (0010's closure). */
const closure = (bases: string[]) => `WITH RECURSIVE shows(id) AS (
    SELECT id FROM matches WHERE id IN (${bases.join(' UNION ')})
    UNION
    SELECT m.id FROM matches m JOIN shows s
      ON m.home_source_match_id = s.id OR m.away_source_match_id = s.id OR m.first_leg_match_id = s.id
  )
  SELECT id FROM shows`;

const showing = (bases: string[], self: string) => `SELECT id FROM (
  ${closure(bases)}) WHERE id <> ${self}.id`;

/** What makes a match fed by a best-placed rule: the partial index matches_best_fed holds exactly these rows. */
const BEST = (d: string) => `(${d}.home_source_best IS NOT NULL OR ${d}.away_source_best IS NOT NULL)`;

/**
 * The slots of `r`'s event fed by a best-placed rule that draws from `r`'s group. Read through matches_best_fed (an
 * event's best-fed matches only, none in a league); the rule's groups are read from the event's JSON.
 */
const bestFed = (r: string) => `
  SELECT d.id FROM matches d WHERE d.event_id = ${r}.event_id AND ${BEST('d')} AND ${r}.group_name IS NOT NULL
    AND EXISTS (SELECT 1 FROM events e, json_each(e.best_placed) b, json_each(b.value, '$.groups') g
      WHERE e.id = ${r}.event_id AND json_extract(b.value, '$.id') IN (d.home_source_best, d.away_source_best)
        AND g.value = ${r}.group_name)`;

/** Matches whose text names `r`: a slot fed by its result, its second leg. */
const fedBy = (r: string, when: string) => [
  `SELECT id FROM matches WHERE home_source_match_id = ${r}.id AND ${when}`,
  `SELECT id FROM matches WHERE away_source_match_id = ${r}.id AND ${when}`,
  `SELECT id FROM matches WHERE first_leg_match_id = ${r}.id AND ${when}`,
];

/** The columns matches_touch watched before this migration (0006's WHEN, which 0010's triggers copy). */
const CHANGED_BEFORE = `new.event_id IS NOT old.event_id OR new.round_ordinal IS NOT old.round_ordinal OR new.round_name IS NOT old.round_name
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

/** The new columns. */
const CHANGED_BEST = `new.home_source_best IS NOT old.home_source_best OR new.home_source_slot IS NOT old.home_source_slot
       OR new.away_source_best IS NOT old.away_source_best OR new.away_source_slot IS NOT old.away_source_slot`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `ALTER TABLE events ADD COLUMN best_placed TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(best_placed))`,
    `ALTER TABLE matches ADD COLUMN home_source_best TEXT`,
    `ALTER TABLE matches ADD COLUMN home_source_slot INTEGER CHECK (home_source_slot >= 1 AND (home_source_best IS NULL) = (home_source_slot IS NULL))`,
    `ALTER TABLE matches ADD COLUMN away_source_best TEXT`,
    `ALTER TABLE matches ADD COLUMN away_source_slot INTEGER CHECK (away_source_slot >= 1 AND (away_source_best IS NULL) = (away_source_slot IS NULL))`,
    `CREATE INDEX matches_best_fed ON matches(event_id) WHERE home_source_best IS NOT NULL OR away_source_best IS NOT NULL`,
    `DROP TRIGGER matches_touch`,
    `CREATE TRIGGER matches_touch AFTER UPDATE ON matches
     WHEN new.sequence = old.sequence AND (${CHANGED_BEFORE} OR ${CHANGED_BEST})
     BEGIN
       UPDATE matches SET sequence = old.sequence + 1, updated_at = ${NOW} WHERE id = new.id;
       UPDATE events SET revision = revision + 1 WHERE id IN (new.event_id, old.event_id);
     END`,
    // A match's own columns changed: the best-fed slots of its group (old and new), and, when only the new columns
    // changed (0010's matches_touch_dependents does not watch them), what shows its result.
    `CREATE TRIGGER matches_touch_best_dependents AFTER UPDATE ON matches
     WHEN new.sequence = old.sequence AND (${CHANGED_BEFORE} OR ${CHANGED_BEST})
     BEGIN
       ${BUMP} WHERE id IN (${showing([bestFed('new'), bestFed('old'), ...fedBy('new', `NOT (${CHANGED_BEFORE})`)], 'new')});
     END`,
    `CREATE TRIGGER matches_inserted_best_dependents AFTER INSERT ON matches BEGIN
       ${BUMP} WHERE id IN (${showing([bestFed('new')], 'new')});
     END`,
    `CREATE TRIGGER matches_deleted_best_dependents AFTER DELETE ON matches BEGIN
       ${BUMP} WHERE id IN (${showing([bestFed('old')], 'old')});
     END`,
    // The rules that rank the groups and the best-placed teams, and the best-placed rules themselves.
    `CREATE TRIGGER events_touch_best_placed AFTER UPDATE ON events
     WHEN new.points_win IS NOT old.points_win OR new.points_draw IS NOT old.points_draw
       OR new.points_loss IS NOT old.points_loss OR new.tiebreakers IS NOT old.tiebreakers
       OR new.decisions IS NOT old.decisions OR new.adjustments IS NOT old.adjustments
       OR new.best_placed IS NOT old.best_placed
     BEGIN
       ${BUMP} WHERE id IN (${closure([`SELECT id FROM matches d WHERE d.event_id = new.id AND ${BEST('d')}`])});
     END`,
    `CREATE TRIGGER teams_renamed_best_placed AFTER UPDATE OF name, name_ar ON teams
     WHEN new.name IS NOT old.name OR new.name_ar IS NOT old.name_ar
     BEGIN
       ${BUMP} WHERE id IN (${closure([
         `SELECT d.id FROM matches r JOIN matches d ON d.event_id = r.event_id AND ${BEST('d')}
          WHERE (r.home_team_id = new.id OR r.away_team_id = new.id) AND r.group_name IS NOT NULL`,
       ])});
     END`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0011_best_placed cannot be undone');
}
