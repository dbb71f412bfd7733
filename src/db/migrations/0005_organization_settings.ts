// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// What an organization decides for itself: the addresses told of each registration and how long registrations are
// kept, the time zone its match times are shown in, and when and whom a division takes (its registration window, the
// age under which a guardian is required).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `ALTER TABLE organizations ADD COLUMN registration_emails TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(registration_emails))`,
    `ALTER TABLE organizations ADD COLUMN registration_retention_days INTEGER NOT NULL DEFAULT 365 CHECK (registration_retention_days > 0)`,
    `ALTER TABLE organizations ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC'`,
    `ALTER TABLE divisions ADD COLUMN opens_at TEXT`,
    `ALTER TABLE divisions ADD COLUMN closes_at TEXT`,
    `ALTER TABLE divisions ADD COLUMN guardian_required_under INTEGER CHECK (guardian_required_under > 0)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0005_organization_settings cannot be undone');
}
