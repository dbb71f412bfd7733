// The server under write load, the regeneration job and an import, all at once on one database: no request
// fails with a busy or locked database, every import and regeneration succeeds, and no artifact mixes two
// snapshots (each served table is exactly the table of one imported version).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { applyImport, parseImport } from '../../src/import/load.js';
import { regenerate } from '../../src/publish/regenerate.js';
import { tempDir } from '../support/db.js';
import { request } from '../support/http.js';
import { startService, type RunningService } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EVENT = 'rsl-prem-2026-27';
let svc: RunningService;
let files: { a: string; b: string };
const expected = new Map<string, string>();

/** Version B: every completed match of the league has one more home goal, so the table differs throughout. */
function versionB(demo: any): any {
  const copy = structuredClone(demo);
  for (const org of copy.organizations)
    for (const league of org.leagues)
      for (const ev of league.events)
        if (ev.id === EVENT) for (const m of ev.matches) if (m.score) m.score.home += 1;
  return copy;
}

async function renderStandings(file: string): Promise<string> {
  const dir = tempDir('competitions-expected-');
  const { db, sqlite } = openDb(path.join(dir, 'app.db'));
  await migrateToLatest(db);
  const parsed = parseImport(fs.readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error('bad version file');
  applyImport(sqlite, parsed.file);
  await regenerate(db, { artifactsDir: path.join(dir, 'artifacts'), publicBaseUrl: 'http://x.example', uidDomain: 'x.example', refreshMinutes: 5 });
  await db.destroy();
  return fs.readFileSync(path.join(dir, 'artifacts/api/v0/events', EVENT, 'standings.json'), 'utf8');
}

beforeAll(async () => {
  const dir = tempDir('competitions-concurrency-');
  const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/demo.json'), 'utf8'));
  files = { a: path.join(ROOT, 'data/demo.json'), b: path.join(dir, 'demo-b.json') };
  fs.writeFileSync(files.b, JSON.stringify(versionB(demo)));
  expected.set(await renderStandings(files.a), 'A');
  expected.set(await renderStandings(files.b), 'B');
  expect(expected.size).toBe(2);
  svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0', RATE_LIMIT_READS_PER_MIN: '0', REGENERATE_EVERY_S: '1' }, dir);
});
afterAll(async () => svc?.stop());

function runImport(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', file], {
      cwd: ROOT, env: { ...process.env, ...svc.env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('concurrency', () => {
  it('serves writes, regenerates and imports at the same time without a busy database or a mixed artifact', async () => {
    const until = Date.now() + 15_000;
    const statuses = new Map<number, number>();
    const seen = new Map<string, number>();
    const imports: { code: number | null; output: string }[] = [];

    const writer = async (w: number) => {
      for (let i = 0; Date.now() < until; i++) {
        const res = await request(`${svc.url}/api/v0/register`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ org_id: 'riverside-sfl', name: `Load ${w}-${i}`, email: `load.${w}.${i}@example.org` }),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const reader = async () => {
      while (Date.now() < until) {
        const res = await request(`${svc.url}/api/v0/events/${EVENT}/standings`);
        const version = expected.get(res.text) ?? `unexpected: ${res.text.slice(0, 80)}`;
        seen.set(version, (seen.get(version) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const importer = async () => {
      for (let i = 0; Date.now() < until; i++) imports.push(await runImport(i % 2 === 0 ? files.b : files.a));
    };
    await Promise.all([writer(0), writer(1), writer(2), writer(3), reader(), importer()]);

    expect([...statuses.keys()]).toEqual([201]);
    expect(imports.length).toBeGreaterThanOrEqual(2);
    for (const i of imports) expect(i.code, i.output).toBe(0);
    expect([...seen.keys()].filter((k) => k.startsWith('unexpected'))).toEqual([]);
    expect(svc.output()).not.toMatch(/SQLITE_BUSY|database is locked|regeneration failed/);
    console.log(
      `concurrency: ${statuses.get(201)} registrations, ${imports.length} imports, tables served ${JSON.stringify(Object.fromEntries(seen))}`,
    );
  }, 60_000);
});
