// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// The language a follow asked for (`language` on POST /api/v0/follow: `en` or `ar`), for its confirmation, its
// digests and alerts and the pages its links open, whatever its organization's. An English club's Arabic-speaking
// families could have a registration's receipt in Arabic but every follow email in English. Null: the
// organization's, as every follow before it (they keep reading what they read).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE follows ADD COLUMN language TEXT CHECK (language IN ('en', 'ar'))`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0029_follow_language cannot be undone');
}
