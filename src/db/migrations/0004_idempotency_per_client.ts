// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Idempotency keys belong to the client that sent them (its address, as the rate limits see it): another client
// sending the same key neither reads the first answer nor can squat a key before its owner uses it. Rows from
// before this migration get an empty client: they match nobody and expire with the rest.
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `CREATE TABLE idempotency_keys_next (
      scope TEXT NOT NULL,
      client TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      response_status INTEGER NOT NULL,
      response_body TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      PRIMARY KEY (scope, client, key)
    ) STRICT, WITHOUT ROWID`,
    `INSERT INTO idempotency_keys_next SELECT scope, '', key, request_hash, response_status, response_body, created_at FROM idempotency_keys`,
    `DROP TABLE idempotency_keys`,
    `ALTER TABLE idempotency_keys_next RENAME TO idempotency_keys`,
    `CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0004_idempotency_per_client cannot be undone');
}
