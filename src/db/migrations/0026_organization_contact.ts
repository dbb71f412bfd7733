// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// The address an organization gives the public to write to (optional): the emails sent for it name it, and replies
// go to it. A parent's receipt said "keep the reference if you write to them" and gave no address, and a reply to
// it or to an invitation reached MAIL_FROM's no-reply mailbox. Not one of registration_emails, which the public
// never sees: those may be a volunteer's own.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE organizations ADD COLUMN contact_email TEXT`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0026_organization_contact cannot be undone');
}
