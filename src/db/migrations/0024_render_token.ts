// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Each artifacts folder's render token (src/publish/restored-calendars.ts): a render that changes a folder writes a new
// token into its manifest and here, under the folder's own id (one database may render into several folders). A
// database restored from a backup holds an older token, or none, for a folder rendered since: its matches' SEQUENCE
// went back below what calendar apps already read there, and the render raises them past it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE TABLE render_folders (folder TEXT PRIMARY KEY, token TEXT NOT NULL) STRICT, WITHOUT ROWID`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP TABLE render_folders`).execute(db);
}
