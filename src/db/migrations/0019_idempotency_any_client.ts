// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// A retried submit is found by its key and body whatever client address it comes from (src/db/idempotency.ts): a
// phone that lost the answer retries from another network. Rows are keyed by (scope, client, key); this index finds
// a key's rows with the same body across clients without scanning a day of them. All four columns: with (scope, key)
// alone SQLite's planner kept the primary key's (scope) prefix and read the whole scope (a review measured 22 ms a
// registration with 100,000 keys in it).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE INDEX idempotency_keys_any_client ON idempotency_keys(scope, key, request_hash, created_at)`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX idempotency_keys_any_client`).execute(db);
}
