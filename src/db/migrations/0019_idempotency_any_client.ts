// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// A retried submit is found by its key and body whatever client address it comes from (src/db/idempotency.ts): a
// phone that lost the answer retries from another network. Rows are keyed by (scope, client, key); this index finds
// a key's rows across clients without scanning a day of them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE INDEX idempotency_keys_any_client ON idempotency_keys(scope, key)`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX idempotency_keys_any_client`).execute(db);
}
