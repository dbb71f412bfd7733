// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Followers are told what changed. The updates job compares each public match (and each public event's champion)
// with what it saw last time (update_match_seen, update_event_seen), writes each difference once as a row of
// update_changes, and tells each follow the changes in its scope past its cursors: told_through for the daily
// digest, alerted_through for the prompt alerts about the next 48 hours. A cursor moves in the transaction that
// queues the follow's email, so a crash neither loses nor repeats a change.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `CREATE TABLE update_match_seen (
      match_id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL,
      state_json TEXT NOT NULL
    ) STRICT`,
    `CREATE INDEX update_match_seen_event ON update_match_seen(event_id)`,
    `CREATE TABLE update_event_seen (
      event_id TEXT PRIMARY KEY,
      revision INTEGER NOT NULL,
      champion TEXT
    ) STRICT`,
    `CREATE TABLE update_changes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id TEXT NOT NULL,
      league_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      match_id TEXT,
      kind TEXT NOT NULL,
      alert INTEGER NOT NULL CHECK (alert IN (0, 1)),
      data_json TEXT NOT NULL CHECK (json_valid(data_json)),
      detected_at TEXT NOT NULL DEFAULT ${NOW}
    ) STRICT`,
    `CREATE INDEX update_changes_org ON update_changes(org_id, id)`,
    `ALTER TABLE follows ADD COLUMN told_through INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE follows ADD COLUMN alerted_through INTEGER NOT NULL DEFAULT 0`,
    // When the job first looked: what existed then is the baseline, not news.
    `ALTER TABLE installation ADD COLUMN updates_baseline_at TEXT`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0007_follower_updates cannot be undone');
}
