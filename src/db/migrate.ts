// Runs the migrations in migrations/ with Kysely's Migrator. The list is static (not read from disk)
// so that it works the same from tsx, from vitest and from Astro's server bundle.
import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import { ConfigError } from '../config.js';
import type { Db } from './connect.js';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_mail_at_send_time.js';
import * as m0004 from './migrations/0004_idempotency_per_client.js';
import * as m0005 from './migrations/0005_organization_settings.js';
import * as m0006 from './migrations/0006_competition_rules.js';
import * as m0007 from './migrations/0007_follower_updates.js';
import * as m0008 from './migrations/0008_unsubscribe_link_expiry.js';
import * as m0009 from './migrations/0009_invitation_address.js';
import * as m0010 from './migrations/0010_calendar_revisions.js';
import * as m0011 from './migrations/0011_best_placed.js';
import * as m0012 from './migrations/0012_invitation_told.js';
import * as m0013 from './migrations/0013_follow_mailbox.js';
import * as m0014 from './migrations/0014_calendar_tie_numbering.js';
import * as m0015 from './migrations/0015_calendar_direction.js';
import * as m0016 from './migrations/0016_calendar_status_words.js';
import * as m0017 from './migrations/0017_organization_timezone.js';
import * as m0018 from './migrations/0018_outbox_pending_age.js';
import * as m0019 from './migrations/0019_idempotency_any_client.js';
import * as m0020 from './migrations/0020_update_event_status.js';
import * as m0021 from './migrations/0021_event_arabic_name.js';
import * as m0022 from './migrations/0022_iana_time_zone_names.js';
import * as m0023 from './migrations/0023_arabic_calendar_words.js';
import * as m0024 from './migrations/0024_render_token.js';
import * as m0025 from './migrations/0025_division_birth_dates.js';
import * as m0026 from './migrations/0026_organization_contact.js';
import * as m0027 from './migrations/0027_update_event_adjustments.js';
import * as m0028 from './migrations/0028_registration_name_key.js';
import * as m0029 from './migrations/0029_follow_language.js';
import * as m0030 from './migrations/0030_member_language.js';

const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_mail_at_send_time': m0002,
  '0004_idempotency_per_client': m0004,
  '0005_organization_settings': m0005,
  '0006_competition_rules': m0006,
  '0007_follower_updates': m0007,
  '0008_unsubscribe_link_expiry': m0008,
  '0009_invitation_address': m0009,
  '0010_calendar_revisions': m0010,
  '0011_best_placed': m0011,
  '0012_invitation_told': m0012,
  '0013_follow_mailbox': m0013,
  '0014_calendar_tie_numbering': m0014,
  '0015_calendar_direction': m0015,
  '0016_calendar_status_words': m0016,
  '0017_organization_timezone': m0017,
  '0018_outbox_pending_age': m0018,
  '0019_idempotency_any_client': m0019,
  '0020_update_event_status': m0020,
  '0021_event_arabic_name': m0021,
  '0022_iana_time_zone_names': m0022,
  '0023_arabic_calendar_words': m0023,
  '0024_render_token': m0024,
  '0025_division_birth_dates': m0025,
  '0026_organization_contact': m0026,
  '0027_update_event_adjustments': m0027,
  '0028_registration_name_key': m0028,
  '0029_follow_language': m0029,
  '0030_member_language': m0030,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * The migrations this release knows, by name (sorted as they run), for tests that build a database as an older
 * release left it.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = migrations;

/**
 * The database was migrated by a newer release than this one (a rollback, or an older copy of the code pointed at
 * it): this release cannot know its schema. Kysely said "corrupted migrations: previously executed migration  is
 * missing", with a stack trace.
 */
export class NewerDatabaseError extends ConfigError {
  constructor(unknown: string[]) {
    super(
      `the database (DATABASE_PATH) was migrated by a newer release than this one (${unknown.join(', ')}): ` +
        'run that release, or restore the backup taken before the upgrade',
    );
  }
}

/**
 * Whether the database is one of the hour when 0007 had run on main and 0006 had not landed yet (under a name that
 * sorts before it): Kysely refused every such database ("corrupted migrations: expected previously executed migration
 * 0007_follower_updates to be at index 4 but 0006_competition_rules was found in its place"; an operator's upgrade
 * review). 0006 adds the competition rules' columns and trigger, which 0007's tables do not touch, so it may run after
 * it, then the rest in order. Only that case: a migration out of order is otherwise refused, as it should be.
 */
function missedItsTurn(applied: readonly string[]): boolean {
  return applied.includes('0007_follower_updates') && !applied.includes('0006_competition_rules');
}

/** Brings the schema to the latest version; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const table = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`.execute(db);
  const applied = table.rows[0]?.n
    ? (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map((r) => r.name)
    : [];
  const unknown = applied.filter((name) => !Object.hasOwn(migrations, name));
  if (unknown.length > 0) throw new NewerDatabaseError(unknown);
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: missedItsTurn(applied) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
