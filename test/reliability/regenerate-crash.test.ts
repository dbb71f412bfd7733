// A regeneration killed mid-run leaves every artifact a client can read whole and parseable; the next
// run completes the job.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import ICAL from 'ical.js';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDataset } from '../support/dataset.js';
import { tempDir } from '../support/db.js';
import { expectVariantsBesideEach } from '../support/variants.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let env: Record<string, string>;

beforeAll(async () => {
  const dir = tempDir('competitions-regen-crash-');
  env = { DATABASE_PATH: path.join(dir, 'app.db'), ARTIFACTS_DIR: path.join(dir, 'artifacts') };
  await createDataset(env.DATABASE_PATH!, { events: 300, matchesPerEvent: 100, seed: 7 });
}, 120_000);

function regenerate(): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/regenerate.ts'], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

/** Starts a regeneration and kills it with SIGKILL after `ms`. */
function killAfter(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/regenerate.ts'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Every file a client could be served (temporary files start with a dot and are never served). */
function servedFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.push(full);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

function assertWhole(file: string): void {
  let bytes = fs.readFileSync(file);
  let name = file;
  if (name.endsWith('.gz')) {
    bytes = zlib.gunzipSync(bytes);
    name = name.slice(0, -3);
  } else if (name.endsWith('.br')) {
    bytes = zlib.brotliDecompressSync(bytes);
    name = name.slice(0, -3);
  }
  const text = bytes.toString('utf8');
  if (name.endsWith('.json')) expect(() => JSON.parse(text), file).not.toThrow();
  else if (name.endsWith('.ics')) {
    expect(text.endsWith('END:VCALENDAR\r\n'), file).toBe(true);
    expect(() => ICAL.parse(text), file).not.toThrow();
  } else throw new Error(`unexpected artifact ${file}`);
}

describe('regeneration killed mid-run', () => {
  it('leaves whole artifacts, and the next run completes', async () => {
    let checked = 0;
    for (const ms of [250, 700, 1200, 1800, 2600]) {
      await killAfter(ms);
      for (const file of servedFiles(env.ARTIFACTS_DIR!)) {
        assertWhole(file);
        checked++;
      }
    }
    const done = regenerate();
    expect(done.status).toBe(0);
    expect(done.stdout).toMatch(/^regenerated: 300 events/);
    const again = regenerate();
    expect(again.stdout).toMatch(/files written 0 /);
    const files = servedFiles(env.ARTIFACTS_DIR!);
    // Three files per event, the events list, the OpenAPI document and a calendar per team; each with .gz and .br
    // but the short ones.
    const db = new Database(env.DATABASE_PATH!, { readonly: true });
    const { teams } = db.prepare(
      `SELECT count(*) AS teams FROM (SELECT home_team_id AS id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 AND home_team_id IS NOT NULL
         UNION SELECT away_team_id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 AND away_team_id IS NOT NULL)`,
    ).get() as { teams: number };
    db.close();
    const { identities, short } = expectVariantsBesideEach(env.ARTIFACTS_DIR!, files);
    expect(identities.length).toBe(300 * 3 + 2 + teams);
    expect(short.length).toBe(300); // each event's "[]": a league's bracket or a cup's standings
    for (const file of files.filter((f) => f.endsWith('.ics') || f.endsWith('.json'))) assertWhole(file);
    console.log(`regenerate-crash: 5 kills, ${checked} served files checked whole after the kills, final run complete`);
  }, 240_000);
});
