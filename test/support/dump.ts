// Every row of every table, in a stable order: to compare whole databases.
import type Database from 'better-sqlite3';

export function dumpTables(sqlite: Database.Database): Record<string, unknown[]> {
  const tables = sqlite
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name`)
    .all() as { name: string }[];
  return Object.fromEntries(
    tables.map(({ name }) => [name, sqlite.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).all()]),
  );
}
