// Starts the real node server (`scripts/start.ts`) for a bench scenario and waits until it serves.
import type { ChildProcess } from 'node:child_process';
import type { BenchContext } from './types.js';

export async function startBenchServer(ctx: BenchContext, env: Record<string, string>): Promise<ChildProcess> {
  const child = ctx.spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { env: { ...process.env, ...env } });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const started = performance.now();
  // start.ts builds Astro first when src/ is newer than the build (a minute or two), then regenerates once.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the node server did not start within 300 s:\n${out}`)), 300_000);
    const onData = () => {
      if (out.includes('serving on')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the node server exited (${code}) before serving:\n${out}`));
    });
  });
  ctx.info(`node server up in ${((performance.now() - started) / 1000).toFixed(1)} s (pid ${child.pid})`);
  // The mail worker logs a line per email: drop the server's output from here on.
  child.stdout?.removeAllListeners('data');
  child.stdout?.resume();
  return child;
}
