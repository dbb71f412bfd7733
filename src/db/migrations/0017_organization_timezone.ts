// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Each event of the public list now carries its organization's time zone (`timezone`), so changing an organization's
// time zone re-renders its events, as a change of its name or language does (0001's organizations_renamed): without
// this the list kept the old zone until something else of the competition changed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `CREATE TRIGGER organizations_timezone AFTER UPDATE OF timezone ON organizations
       WHEN new.timezone IS NOT old.timezone BEGIN
         UPDATE events SET revision = revision + 1 WHERE league_id IN (SELECT id FROM leagues WHERE org_id = new.id);
       END`,
    )
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0017_organization_timezone cannot be undone');
}
