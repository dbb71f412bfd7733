// Starts the real service (scripts/start.ts: migrate, demo data, regenerate, serve) as a child process
// on its own port, database, artifacts and mail folder.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './processes.js';
import { tempDir } from './db.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

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
  const port = await freePort();
  const env: Record<string, string> = {
    DATABASE_PATH: path.join(dir, 'app.db'),
    ARTIFACTS_DIR: path.join(dir, 'artifacts'),
    MAIL_DIR: path.join(dir, 'mail'),
    PORT: String(port),
    HOST: '127.0.0.1',
    REGENERATE_EVERY_S: '3600',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
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
