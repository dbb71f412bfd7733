// Migrations and the model's invariants, on a real SQLite file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../src/config.js';
import { createApplication } from '../src/app/application.js';
import { Migrator } from 'kysely';
import type Database from 'better-sqlite3';
import { migrateToLatest, MIGRATIONS } from '../src/db/migrate.js';
import { openDb } from '../src/db/connect.js';
import * as m0008 from '../src/db/migrations/0008_unsubscribe_link_expiry.js';
import * as m0009 from '../src/db/migrations/0009_invitation_address.js';
import * as m0022 from '../src/db/migrations/0022_iana_time_zone_names.js';
import * as m0028 from '../src/db/migrations/0028_registration_name_key.js';
import { foldName } from '../src/text/fold.js';
import { canonicalTimeZone } from '../src/time/local-time.js';
import { migratedDb, tempDir, type TestDb } from './support/db.js';

let t: TestDb;
beforeEach(async () => {
  t = await migratedDb();
});
afterEach(async () => t.close());

async function seed(db: TestDb['db']) {
  await db.insertInto('organizations').values({ id: 'org1', name: 'Org' }).execute();
  await db.insertInto('leagues').values({ id: 'lg1', org_id: 'org1', name: 'League', name_ar: null }).execute();
  await db.insertInto('teams').values([
    { id: 't1', org_id: 'org1', name: 'One', name_ar: null },
    { id: 't2', org_id: 'org1', name: 'Two', name_ar: null },
  ]).execute();
  await db.insertInto('events').values({
    id: 'ev1', league_id: 'lg1', name: 'Event', competition_type: 'league', starts_at: null, ends_at: null, venue_city: null,
  }).execute();
  await db.insertInto('matches').values({
    id: 'm1', event_id: 'ev1', home_team_id: 't1', away_team_id: 't2', round_name: null, group_name: null,
    bracket_role: null, home_source_match_id: null, home_source_outcome: null, away_source_match_id: null,
    away_source_outcome: null, kickoff_at: '2026-03-07T18:30:00Z', ends_at: null, venue: null, home_score: null,
    away_score: null, home_penalties: null, away_penalties: null, walkover_winner: null,
  }).execute();
}

/** Every table's and index's SQL, as SQLite keeps it, in name order. */
async function schemaOf(sqlite: Database.Database): Promise<Array<{ name: string; sql: string | null }>> {
  return sqlite.prepare(`SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite%' AND name NOT LIKE 'kysely%' ORDER BY name`).all() as Array<{ name: string; sql: string | null }>;
}

/** A database as a release that ran only `names`, in that order, left it. */
async function olderDb(names: string[]): Promise<{ db: TestDb['db']; sqlite: Database.Database; close(): Promise<void> }> {
  const { db, sqlite } = openDb(path.join(tempDir(), 'old.db'));
  // The release knew these migrations and no others.
  const known = Object.fromEntries(names.map((name) => [name, MIGRATIONS[name]!]));
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => known } }).migrateToLatest();
  if (error) throw error;
  return { db, sqlite, close: () => db.destroy() };
}

const revision = async (db: TestDb['db']) =>
  (await db.selectFrom('events').select('revision').where('id', '=', 'ev1').executeTakeFirstOrThrow()).revision;

describe('migrations', () => {
  // An operator's review: app.db (players' details, followers' addresses) was 0644, readable by every user.
  it('make a new database file, and its write-ahead log, readable by their owner only', () => {
    t.sqlite.prepare(`INSERT INTO organizations (id, name) VALUES ('perm', 'Perm')`).run();
    for (const file of [t.file, `${t.file}-wal`, `${t.file}-shm`]) expect((fs.statSync(file).mode & 0o777).toString(8), file).toBe('600');
  });

  it('set WAL, foreign keys and a busy timeout on every connection', () => {
    expect(t.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(t.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(t.sqlite.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(5000);
  });

  // A review rolled the code back after 0013 had run: Kysely's "corrupted migrations: previously executed migration  is
  // missing" and a stack trace. It is one line an operator can act on, and the database is left as it is.
  it('refuse, in one line, a database a newer release migrated', async () => {
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('0099_from_a_newer_release', '2027-01-01T00:00:00.000Z')`.execute(t.db);
    const error = await migrateToLatest(t.db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'the database (DATABASE_PATH) was migrated by a newer release than this one (0099_from_a_newer_release): ' +
        'run that release, or restore the backup taken before the upgrade',
    );
  });

  // An operator's upgrade review: a database from the hour when 0007 had landed and 0006 not yet (a9fdbc9) could never
  // be upgraded: Kysely refused migrations out of order, with a stack trace.
  it('bring a database that ran a later migration before an earlier one to the same schema as a fresh one', async () => {
    const fresh = await schemaOf(t.sqlite);
    const old = await olderDb(['0001_initial', '0002_mail_at_send_time', '0004_idempotency_per_client', '0005_organization_settings', '0007_follower_updates']);
    try {
      expect(await migrateToLatest(old.db)).toEqual(Object.keys(MIGRATIONS).filter((n) => !['0001_initial', '0002_mail_at_send_time', '0004_idempotency_per_client', '0005_organization_settings', '0007_follower_updates'].includes(n)));
      expect(await schemaOf(old.sqlite)).toEqual(fresh);
    } finally {
      await old.close();
    }
  });

  // An operator's review: an upgrade's start said nothing of the migrations it applied, which cannot be undone.
  it('are named in one line at the start that applies them, and not at the next', async () => {
    const old = await olderDb(Object.keys(MIGRATIONS).slice(0, -2));
    const file = old.sqlite.name;
    await old.close();
    const dir = path.dirname(file);
    const config = loadConfig({ DATABASE_PATH: file, ARTIFACTS_DIR: path.join(dir, 'artifacts'), MAIL_DIR: path.join(dir, 'mail') });
    for (const expected of [[`database migrated: ${Object.keys(MIGRATIONS).slice(-2).join(', ')}`], []]) {
      const lines: string[] = [];
      const app = await createApplication(config, { mail: false, log: (line) => lines.push(line) });
      await app.close();
      expect(lines.filter((line) => line.startsWith('database '))).toEqual(expected);
    }
    // A new database: that it was made, not all of its migrations one by one.
    const dir2 = tempDir();
    const fresh = loadConfig({ DATABASE_PATH: path.join(dir2, 'new.db'), ARTIFACTS_DIR: path.join(dir2, 'artifacts'), MAIL_DIR: path.join(dir2, 'mail') });
    const lines: string[] = [];
    await (await createApplication(fresh, { mail: false, log: (line) => lines.push(line) })).close();
    expect(lines.filter((line) => line.startsWith('database '))).toEqual([`database created (schema ${Object.keys(MIGRATIONS).at(-1)})`]);
  });

  it('create every table and are idempotent', async () => {
    const tables = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'kysely%' AND name NOT LIKE 'sqlite%' ORDER BY name`.execute(t.db)).rows.map((r) => r.name);
    expect(tables).toEqual([
      'calendar_sequence_floor', 'divisions', 'email_outbox', 'events', 'follows', 'idempotency_keys', 'installation', 'leagues', 'link_tokens', 'matches', 'organizations',
      'registrations', 'render_folders', 'rsvp_invitations', 'team_members', 'teams', 'update_changes', 'update_event_seen', 'update_match_seen',
    ]);
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('0008: an unsubscribe link minted without an expiry ends a year after its email; other links are left alone', async () => {
    const insert = t.sqlite.prepare(`INSERT INTO link_tokens (hash, purpose, subject_id, created_at, expires_at) VALUES (?, ?, 'fol_1', ?, ?)`);
    insert.run('h1', 'follow-unsubscribe', '2024-03-01T10:00:00.000Z', null);
    insert.run('h2', 'follow-unsubscribe', '2026-11-20T08:30:00.000Z', '2027-11-20T08:30:00.000Z');
    insert.run('h3', 'rsvp', '2024-03-01T10:00:00.000Z', null);
    await m0008.up(t.db);
    expect(t.sqlite.prepare(`SELECT hash, expires_at FROM link_tokens ORDER BY hash`).all()).toEqual([
      { hash: 'h1', expires_at: '2025-03-01T10:00:00.000Z' },
      { hash: 'h2', expires_at: '2027-11-20T08:30:00.000Z' },
      { hash: 'h3', expires_at: null },
    ]);
  });

  // A time review: the import had stored ICU's canonical ids, some of them names IANA replaced.
  it('0022: an organization\'s time zone stored under a replaced name is renamed as the import now names it; others are left', async () => {
    const insert = t.sqlite.prepare(`INSERT INTO organizations (id, name, timezone) VALUES (?, ?, ?)`);
    const zones = { kyiv: 'Europe/Kiev', ktm: 'Asia/Katmandu', amm: 'Asia/Amman', utc: 'UTC' };
    for (const [id, zone] of Object.entries(zones)) insert.run(id, id, zone);
    await m0022.up(t.db);
    const after = Object.fromEntries((t.sqlite.prepare(`SELECT id, timezone FROM organizations`).all() as Array<{ id: string; timezone: string }>).map((r) => [r.id, r.timezone]));
    expect(after).toEqual({ kyiv: 'Europe/Kyiv', ktm: 'Asia/Kathmandu', amm: 'Asia/Amman', utc: 'UTC' });
    // The same names the import gives now.
    for (const [id, zone] of Object.entries(zones)) expect(after[id]).toBe(canonicalTimeZone(zone));
  });

  // A registration's notice says which earlier one it repeats, found by the folded name (src/registrations/repeat-of.ts):
  // registrations made before 0028 get theirs by the rule of its day, which must be foldName's.
  it('0028: registrations made before it get the folded name foldName gives, indexed with their organization', async () => {
    await seed(t.db);
    t.sqlite.exec(`DROP INDEX registrations_org_name_key; ALTER TABLE registrations DROP COLUMN name_key`);
    const names = ['Omar Haddad', '  omar   HADDAD ', 'Ｂｅｌｌａ Hart', 'عمر\u00a0حداد', 'İlkay Gündoğan', 'STRASSE ß', 'Ǆemal'];
    const insert = t.sqlite.prepare(`INSERT INTO registrations (id, org_id, name, email) VALUES (?, 'org1', ?, 'p@example.org')`);
    names.forEach((name, i) => insert.run(`r${i}`, name));
    await m0028.up(t.db);
    const keys = t.sqlite.prepare(`SELECT name, name_key FROM registrations ORDER BY id`).all() as Array<{ name: string; name_key: string }>;
    expect(keys.map((r) => r.name_key)).toEqual(names.map(foldName));
    expect(keys[0]!.name_key).toBe(keys[1]!.name_key);
    const plan = t.sqlite.prepare(`EXPLAIN QUERY PLAN SELECT id FROM registrations WHERE org_id = 'org1' AND name_key = 'omar haddad'`).all() as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join()).toContain('registrations_org_name_key');
  });

  // A start killed (or failing) midway must leave the database as it was: with the column added and the migration
  // unrecorded, every later start failed on "duplicate column name".
  it('0028: one transaction: failing at its index, it leaves no column behind', async () => {
    t.sqlite.exec(`DROP INDEX registrations_org_name_key; ALTER TABLE registrations DROP COLUMN name_key`);
    t.sqlite.exec(`CREATE INDEX registrations_org_name_key ON follows (email)`);
    await expect(m0028.up(t.db)).rejects.toThrow(/already exists/);
    const columns = (t.sqlite.prepare(`PRAGMA table_info(registrations)`).all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).not.toContain('name_key');
  });

  it('0009: an invitation made before it knows its address from its email, else from its member', async () => {
    await seed(t.db);
    // The database as it was before 0009: no address on invitations.
    t.sqlite.exec(`ALTER TABLE rsvp_invitations DROP COLUMN email`);
    t.sqlite.exec(`INSERT INTO team_members (id, team_id, name, email) VALUES
      ('p1', 't1', 'Moved', 'now@example.net'), ('p2', 't2', 'Kept', 'kept@example.org'), ('p3', 't2', 'Gone', NULL)`);
    t.sqlite.exec(`INSERT INTO rsvp_invitations (id, match_id, member_id) VALUES ('i1', 'm1', 'p1'), ('i2', 'm1', 'p2'), ('i3', 'm1', 'p3')`);
    const queue = t.sqlite.prepare(`INSERT INTO email_outbox (message_key, to_address, mailbox, template, data_json, tag) VALUES (?, ?, ?, ?, ?, ?)`);
    queue.run('k1', 'before@example.com', 'before@example.com', 'rsvp-invite', '{"invitationId":"i1"}', 'rsvp-invite');
    queue.run('k2', 'other@example.com', 'other@example.com', 'follow-confirm', '{"invitationId":"i2"}', 'follow-confirm');
    queue.run('k3', 'x@example.com', 'x@example.com', 'rsvp-invite', 'not json', 'rsvp-invite');
    await m0009.up(t.db);
    expect(t.sqlite.prepare(`SELECT id, email FROM rsvp_invitations ORDER BY id`).all()).toEqual([
      { id: 'i1', email: 'before@example.com' },
      { id: 'i2', email: 'kept@example.org' },
      { id: 'i3', email: null },
    ]);
  });
});

describe('model', () => {
  it.each([
    ['a space', 'a b'], ['a slash', 'a/b'], ['a leading dash', '-ab'], ['non-ASCII', 'é'], ['65 characters', 'a'.repeat(65)],
  ])('rejects an id with %s', async (_label, id) => {
    await expect(t.db.insertInto('organizations').values({ id, name: 'x' }).execute()).rejects.toThrow(/CHECK/);
  });

  it('enforces foreign keys', async () => {
    await expect(
      t.db.insertInto('leagues').values({ id: 'l', org_id: 'missing', name: 'x', name_ar: null }).execute(),
    ).rejects.toThrow(/FOREIGN KEY/);
  });

  it('raises SEQUENCE and the event revision when a match changes, and not when nothing changes', async () => {
    await seed(t.db);
    const before = await revision(t.db);
    await t.db.updateTable('matches').set({ venue: null }).where('id', '=', 'm1').execute();
    let m = await t.db.selectFrom('matches').selectAll().where('id', '=', 'm1').executeTakeFirstOrThrow();
    expect(m.sequence).toBe(0);
    expect(await revision(t.db)).toBe(before);

    await t.db.updateTable('matches').set({ kickoff_at: '2026-03-08T18:30:00Z' }).where('id', '=', 'm1').execute();
    m = await t.db.selectFrom('matches').selectAll().where('id', '=', 'm1').executeTakeFirstOrThrow();
    expect(m.sequence).toBe(1);
    expect(await revision(t.db)).toBe(before + 1);

    await t.db.updateTable('matches').set({ status: 'completed', home_score: 2, away_score: 0 }).where('id', '=', 'm1').execute();
    m = await t.db.selectFrom('matches').selectAll().where('id', '=', 'm1').executeTakeFirstOrThrow();
    expect(m.sequence).toBe(2);
  });

  it('re-renders the events that show a renamed team, league or organization', async () => {
    await seed(t.db);
    const start = await revision(t.db);
    await t.db.updateTable('teams').set({ name: 'One FC' }).where('id', '=', 't1').execute();
    expect(await revision(t.db)).toBe(start + 1);
    await t.db.updateTable('teams').set({ name: 'One FC' }).where('id', '=', 't1').execute();
    expect(await revision(t.db)).toBe(start + 1);
    await t.db.updateTable('leagues').set({ name: 'Renamed' }).where('id', '=', 'lg1').execute();
    expect(await revision(t.db)).toBe(start + 2);
    await t.db.updateTable('organizations').set({ language: 'ar' }).where('id', '=', 'org1').execute();
    expect(await revision(t.db)).toBe(start + 3);
    await t.db.updateTable('events').set({ status: 'in_progress' }).where('id', '=', 'ev1').execute();
    expect(await revision(t.db)).toBe(start + 4);
  });

  it('clears the feeds of a deleted match, and deleting an event removes its matches', async () => {
    await seed(t.db);
    t.sqlite.prepare(`INSERT INTO matches (id, event_id, bracket_role, home_source_match_id, home_source_outcome, away_team_id)
      VALUES ('m2', 'ev1', 'winners', 'm1', 'winner', 't1')`).run();
    t.sqlite.prepare(`DELETE FROM matches WHERE id = 'm1'`).run();
    expect(t.sqlite.prepare(`SELECT home_source_match_id, home_source_outcome FROM matches WHERE id = 'm2'`).get())
      .toEqual({ home_source_match_id: null, home_source_outcome: null });
    t.sqlite.prepare(`DELETE FROM events WHERE id = 'ev1'`).run();
    expect(t.sqlite.prepare(`SELECT count(*) AS n FROM matches`).get()).toEqual({ n: 0 });
  });

  it('allows one follow per address and scope, the whole organization being its own scope', async () => {
    await seed(t.db);
    const follow = (id: string, league_id: string | null) => ({
      id, org_id: 'org1', league_id, email: 'a@example.org', last_confirmation_sent_at: null, confirmed_at: null,
      unsubscribed_at: null,
    });
    await t.db.insertInto('follows').values(follow('f1', null)).execute();
    await t.db.insertInto('follows').values(follow('f2', 'lg1')).execute();
    await expect(t.db.insertInto('follows').values(follow('f3', null)).execute()).rejects.toThrow(/UNIQUE/);
  });
});
