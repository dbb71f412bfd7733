// Regenerates every REGENERATE_EVERY_S seconds in a child process, so rendering never blocks request
// handling and its memory is returned to the system after each run. Runs never overlap.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/regenerate.ts');
/** Built by scripts/build-if-needed.ts; tsx compiles the script at every start otherwise (~3x slower). */
const BUNDLE = path.join(ROOT, 'dist/regenerate.mjs');

function command(): string[] {
  return fs.existsSync(BUNDLE) ? [BUNDLE] : ['--import', 'tsx', SCRIPT];
}

export interface RegenerationLoop {
  stop(): void;
  /** Resolves when the run in progress (if any) ends. */
  idle(): Promise<void>;
}

export function startRegenerationLoop(everyS: number, log: (line: string) => void = console.log): RegenerationLoop {
  let running: Promise<void> | null = null;
  let stopped = false;

  const runOnce = () =>
    new Promise<void>((resolve) => {
      const child = spawn(process.execPath, command(), {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: process.env,
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (code) => {
        const text = output.trim();
        if (code === 0) log(text);
        else log(`regeneration failed (exit ${code}); previous artifacts kept: ${text}`);
        resolve();
      });
      child.on('error', (error) => {
        log(`regeneration could not start: ${error.message}`);
        resolve();
      });
    });

  const timer = setInterval(() => {
    if (stopped || running) return;
    running = runOnce().finally(() => (running = null));
  }, everyS * 1000);
  timer.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
    idle: () => running ?? Promise.resolve(),
  };
}
