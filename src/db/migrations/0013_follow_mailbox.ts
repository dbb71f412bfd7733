// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// A follow records the mailbox its address reaches (the spellings its provider delivers alike merged: case, a +tag,
// Gmail's dots; set by the service), so that the 30 days of quiet after an unsubscribe hold for the mailbox, not for one
// spelling of it: a review unsubscribed quiet.victim+a@gmail.com and was sent two more confirmations, to
// quiet.victim+b@gmail.com and quietvictim@gmail.com. Follows from before this have none: the service fills it in
// when one of them unsubscribes, and their own spelling stays quiet as before.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE follows ADD COLUMN mailbox TEXT`).execute(db);
  await sql.raw(`CREATE INDEX follows_mailbox ON follows(mailbox, org_id) WHERE mailbox IS NOT NULL`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0013_follow_mailbox cannot be undone');
}
