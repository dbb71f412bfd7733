// Starts a reference server (a floor for the write scenario) as a child process on a free port of 127.0.0.1,
// against the database file given, and waits until it listens. Used by bench/scenarios/write.ts and the tests.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, spawnTracked } from '../../test/support/processes.js';

export const REFERENCE_SERVERS = {
  register: 'bench/reference/register-server.ts',
  rsvpSummary: 'bench/reference/rsvp-summary-server.ts',
} as const;

export interface RunningReference {
  child: ChildProcess;
  /** http://127.0.0.1:PORT */
  url: string;
  /** Its "… listening on … (pragmas)" line. */
  started: string;
  /** What it printed (the last 8 kB): errors show here. */
  output(): string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function startReference(script: string, databasePath: string): Promise<RunningReference> {
  const port = await freePort();
  const child = spawnTracked(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_PATH: databasePath, PORT: String(port) },
  });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-8192));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const started = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not listen within 30 s:\n${out}`)), 30_000);
    const onData = () => {
      const line = out.split('\n').find((l) => l.includes(' listening on '));
      if (line) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(line.trim());
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before listening:\n${out}`));
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
  return { child, url: `http://127.0.0.1:${port}`, started, output: () => out };
}
