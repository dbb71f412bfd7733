// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// A registration's name as a person reads it (name_key: Unicode compatibility forms, case and spacing aside), indexed
// within its organization, so that the organization's notice of a registration can say it repeats an earlier one
// (the same player registered twice by a parent) with one indexed read instead of every registration of the
// organization. Rows before it get theirs here, by the rule of this day (src/text/fold.ts foldName; test/db.test.ts
// checks the two agree: a later change of the rule comes with a migration of its own).
import { sql, type Kysely } from 'kysely';

const foldAsOf0028 = (name: string) => name.normalize('NFKC').toLocaleLowerCase('und').replace(/\s+/gu, ' ').trim();

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE registrations ADD COLUMN name_key TEXT`).execute(db);
  const rows = (await sql<{ id: string; name: string }>`SELECT id, name FROM registrations`.execute(db)).rows;
  for (const { id, name } of rows) {
    await sql`UPDATE registrations SET name_key = ${foldAsOf0028(name)} WHERE id = ${id}`.execute(db);
  }
  await sql.raw(`CREATE INDEX registrations_org_name_key ON registrations (org_id, name_key)`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0028_registration_name_key cannot be undone');
}
