// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Unsubscribe links end a year after their email (the mail catalog's UNSUBSCRIBE_LINK_TTL_MS), and retention
// deletes them after that. The links minted before that rule have no expiry: without this they would stay valid,
// and kept, for as long as their follow is active. Each gets the year its email would give it now.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `UPDATE link_tokens SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+365 days')
       WHERE purpose = 'follow-unsubscribe' AND expires_at IS NULL`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0008_unsubscribe_link_expiry cannot be undone');
}
