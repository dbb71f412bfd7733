// An import file as the public reads it: imported into a migrated test database and regenerated into its folder.
import fs from 'node:fs';
import path from 'node:path';
import { applyImport, parseImport } from '../../src/import/load.js';
import { regenerate } from '../../src/publish/regenerate.js';
import type { TestDb } from './db.js';

/**
 * Imports `file` (an import file's JSON value) into `t`, regenerates every read into `t.dir/artifacts` with links and
 * UIDs on `host`, and gives a reader of the rendered files (paths under the artifacts folder). Throws the import's
 * problems, one a line, when the file is refused.
 */
export async function importAndRender(t: TestDb, file: unknown, host = 'fixtures.example'): Promise<(relPath: string) => string> {
  const parsed = parseImport(JSON.stringify(file));
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  applyImport(t.sqlite, parsed.file);
  const dir = path.join(t.dir, 'artifacts');
  await regenerate(t.db, { artifactsDir: dir, publicBaseUrl: `https://${host}`, uidDomain: host, refreshMinutes: 5 });
  return (relPath: string) => fs.readFileSync(path.join(dir, relPath), 'utf8');
}
