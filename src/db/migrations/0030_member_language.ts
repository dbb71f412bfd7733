// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// The language a team member reads (`language` on a member in the import: `en` or `ar`), for their invitations, the
// changes they are told and the RSVP page their link opens, whatever their organization's: an English club's
// Arabic-speaking player read every invitation in English. Null: the organization's, as every member before it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE team_members ADD COLUMN language TEXT CHECK (language IN ('en', 'ar'))`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0030_member_language cannot be undone');
}
