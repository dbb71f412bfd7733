// A real SQLite file per test, migrated with the real migrations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb, type Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
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
