// Starts the real service (scripts/start.ts: migrate, demo data, regenerate, serve) as a child process
// on its own port, database, artifacts and mail folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type Database from 'better-sqlite3';
type DatabaseConnection = Database.Database;
import fs from 'node:fs';
import path from 'node:path';
import { freePort, runToEnd } from './processes.js';
import { tempDir } from './db.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningService {
  url: string;
  dir: string;
  env: Record<string, string>;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
  child: ChildProcess;
}


export async function startService(extraEnv: Record<string, string> = {}, givenDir?: string): Promise<RunningService> {
  const dir = givenDir ?? tempDir('competitions-http-');
  // A PORT given is the one served, and the one the url names.
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  const env: Record<string, string> = {
    DATABASE_PATH: path.join(dir, 'app.db'),
    ARTIFACTS_DIR: path.join(dir, 'artifacts'),
    MAIL_DIR: path.join(dir, 'mail'),
    PORT: String(port),
    HOST: '127.0.0.1',
    REGENERATE_EVERY_S: '3600',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    // Every test server runs on the demo data, with a bucket or Postmark configured too (those would keep it out of an
    // empty database: src/app/demo-data.ts).
    LOAD_DEMO: 'yes',
    ...extraEnv,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/start.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${out}`)), 60_000);
    const check = () => {
      if (out.includes('serving on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    env,
    child,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      });
      // A folder this helper made is its to remove; one passed in belongs to the test.
      // Best effort: a regeneration the server started may still be finishing its last files.
      if (!givenDir) {
        try {
          fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        } catch {
          /* left in the temp folder */
        }
      }
    },
  };
}

/** Runs `npm run invite -- --match ID` against a running service's database; throws with its output on failure. */
export function invite(svc: RunningService, matchId: string): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', matchId], {
    cwd: ROOT,
    env: { ...process.env, ...svc.env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`invite ${matchId} failed:\n${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

/**
 * Invitations to a match that can no longer be invited to (played, or of a competition made private since):
 * the match is put back as it was when its invitations went out (ahead, scheduled, public), invited, restored.
 */
export function inviteAsBefore(svc: RunningService, db: Database.Database, matchId: string): { stdout: string; stderr: string } {
  const match = db.prepare(`SELECT m.kickoff_at, m.status, m.event_id, e.is_public FROM matches m JOIN events e ON e.id = m.event_id WHERE m.id = ?`)
    .get(matchId) as { kickoff_at: string | null; status: string; event_id: string; is_public: number };
  // Raw updates would move SEQUENCE and the event's revision: kept as they were too.
  const before = db.prepare(`SELECT sequence, updated_at FROM matches WHERE id = ?`).get(matchId) as { sequence: number; updated_at: string };
  const revision = db.prepare(`SELECT revision FROM events WHERE id = ?`).get(match.event_id) as { revision: number };
  const ahead = new Date(Date.now() + 30 * 86_400_000).toISOString();
  db.prepare(`UPDATE matches SET kickoff_at = ?, status = 'scheduled' WHERE id = ?`).run(ahead, matchId);
  db.prepare(`UPDATE events SET is_public = 1 WHERE id = ?`).run(match.event_id);
  try {
    return invite(svc, matchId);
  } finally {
    db.prepare(`UPDATE matches SET kickoff_at = ?, status = ? WHERE id = ?`).run(match.kickoff_at, match.status, matchId);
    db.prepare(`UPDATE matches SET sequence = ?, updated_at = ? WHERE id = ?`).run(before.sequence, before.updated_at, matchId);
    db.prepare(`UPDATE events SET is_public = ?, revision = ? WHERE id = ?`).run(match.is_public, revision.revision, match.event_id);
  }
}

/**
 * Runs one of scripts/ as `npm run` would, with the service's environment (and `env` over it), asynchronously:
 * a blocked event loop would miss the server closing an idle keep-alive connection, which the next request reuses.
 */
export async function runScript(
  svc: RunningService,
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await runToEnd(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...svc.env, ENV_FILE: 'none', ...env },
  });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** Rate limits lifted: tests that send many requests from one address. */
export const NO_RATE_LIMITS = { RATE_LIMIT_WRITES_PER_MIN: '0', RATE_LIMIT_READS_PER_MIN: '0' } as const;

/** A running service and a connection to its database, for tests that check what a request wrote. */
export async function startServiceWithDb(extraEnv: Record<string, string> = {}): Promise<{ svc: RunningService; db: DatabaseConnection }> {
  const svc = await startService(extraEnv);
  const { default: Sqlite } = await import('better-sqlite3');
  return { svc, db: new Sqlite(svc.env.DATABASE_PATH!) };
}

export async function stopServiceWithDb(running: { svc?: RunningService; db?: DatabaseConnection }): Promise<void> {
  running.db?.close();
  await running.svc?.stop();
}
