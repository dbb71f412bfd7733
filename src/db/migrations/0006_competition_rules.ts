// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Competitions as real organizations run them (README "Tie-break rules", "Two-legged ties", "Group stage to
// knockout"): an event's tie-break order, recorded decisions and point adjustments (JSON lists, read by the rules
// only), whether away goals settle a two-legged tie; a match's leg and first leg, whether its score came after extra
// time, and slots fed by a group's final table. matches_touch is re-created so that a change of the new match columns
// moves the match's SEQUENCE and DTSTAMP and the event's revision, like every other column.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `ALTER TABLE events ADD COLUMN tiebreakers TEXT NOT NULL DEFAULT '"default"' CHECK (json_valid(tiebreakers))`,
    `ALTER TABLE events ADD COLUMN decisions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(decisions))`,
    `ALTER TABLE events ADD COLUMN adjustments TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(adjustments))`,
    `ALTER TABLE events ADD COLUMN away_goals_rule INTEGER NOT NULL DEFAULT 0 CHECK (away_goals_rule IN (0, 1))`,
    `ALTER TABLE matches ADD COLUMN leg INTEGER CHECK (leg IN (1, 2))`,
    `ALTER TABLE matches ADD COLUMN first_leg_match_id TEXT REFERENCES matches(id) ON DELETE SET NULL`,
    `ALTER TABLE matches ADD COLUMN after_extra_time INTEGER NOT NULL DEFAULT 0 CHECK (after_extra_time IN (0, 1))`,
    `ALTER TABLE matches ADD COLUMN home_source_group TEXT`,
    `ALTER TABLE matches ADD COLUMN home_source_position INTEGER CHECK (home_source_position >= 1 AND (home_source_group IS NULL) = (home_source_position IS NULL))`,
    `ALTER TABLE matches ADD COLUMN away_source_group TEXT`,
    `ALTER TABLE matches ADD COLUMN away_source_position INTEGER CHECK (away_source_position >= 1 AND (away_source_group IS NULL) = (away_source_position IS NULL))`,
    `CREATE INDEX matches_first_leg ON matches(first_leg_match_id)`,
    `DROP TRIGGER matches_touch`,
    `CREATE TRIGGER matches_touch AFTER UPDATE ON matches
     WHEN new.sequence = old.sequence AND (
       new.event_id IS NOT old.event_id OR new.round_ordinal IS NOT old.round_ordinal OR new.round_name IS NOT old.round_name
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
       OR new.away_source_group IS NOT old.away_source_group OR new.away_source_position IS NOT old.away_source_position)
     BEGIN
       UPDATE matches SET sequence = old.sequence + 1, updated_at = ${NOW} WHERE id = new.id;
       UPDATE events SET revision = revision + 1 WHERE id IN (new.event_id, old.event_id);
     END`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0006_competition_rules cannot be undone');
}
