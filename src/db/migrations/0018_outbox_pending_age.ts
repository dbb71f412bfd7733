// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// The health read (GET /healthz) asks how long the oldest email still pending has waited, on every poll of a monitor.
// email_outbox_due orders the pending rows by their next attempt, not by when they were queued: the answer read every
// pending row, and a backlog (a bad Postmark token, a digest run to 100,000 followers) is exactly when there are many.
// This index holds the pending rows only, by created_at: the oldest is its first entry, and a row leaves it once sent.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE INDEX email_outbox_pending_age ON email_outbox(created_at) WHERE status = 'pending'`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX email_outbox_pending_age`).execute(db);
}
