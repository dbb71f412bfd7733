// A real SQLite file per test, migrated with the real migrations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { hashToken } from '../../src/security/tokens.js';
import type Database from 'better-sqlite3';

export interface TestDb {
  db: Db;
  sqlite: Database.Database;
  file: string;
  dir: string;
  close(): Promise<void>;
}

export function tempDir(prefix = 'competitions-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function migratedDb(): Promise<TestDb> {
  const dir = tempDir();
  const file = path.join(dir, 'app.db');
  const { db, sqlite } = openDb(file);
  await migrateToLatest(db);
  return {
    db,
    sqlite,
    file,
    dir,
    close: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives an RSVP invitation a link whose token the test knows, as the mail worker would mint it (only the hash
 * is stored). For tests that answer invitations without reading their emails.
 */
export function plantRsvpToken(sqlite: Database.Database, invitationId: string, token: string): void {
  sqlite.prepare(`INSERT INTO link_tokens (hash, purpose, subject_id) VALUES (?, 'rsvp', ?)`).run(hashToken(token), invitationId);
}

/** The invitation a link token opens, or undefined. */
export function invitationByToken(sqlite: Database.Database, token: string): { id: string; match_id: string; response: string | null } | undefined {
  return sqlite
    .prepare(
      `SELECT i.id, i.match_id, i.response FROM link_tokens t JOIN rsvp_invitations i ON i.id = t.subject_id
       WHERE t.purpose = 'rsvp' AND t.hash = ?`,
    )
    .get(hashToken(token)) as { id: string; match_id: string; response: string | null } | undefined;
}

/** A migrated database holding data/demo.json, imported as `npm run import` would. */
export async function demoDb(): Promise<TestDb> {
  const { applyImport, parseImport } = await import('../../src/import/load.js');
  const t = await migratedDb();
  const parsed = parseImport(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/demo.json'), 'utf8'));
  if (!parsed.ok) throw new Error(`data/demo.json is not valid: ${parsed.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
  applyImport(t.sqlite, parsed.file);
  return t;
}
