// Child processes of the bench: each one gets its own process group, so stopping it also stops whatever it
// started (`/usr/bin/time` → node, nginx master → workers). All of them are stopped when the bench ends,
// fails or is interrupted: nothing is left running.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { RunResult } from '../../bench/types.js';

const running = new Set<ChildProcess>();

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the child's own group (spawned detached)
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    running.delete(child);
    return;
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // Whatever the child left behind in its group (it should be nothing).
  signalGroup(child, 'SIGKILL');
  running.delete(child);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child, 3_000)));
}

/** Synchronous last resort (process 'exit'): SIGKILL every group still running. */
export function killAllNow(): void {
  for (const child of running) signalGroup(child, 'SIGKILL');
  running.clear();
}

export function runToEnd(
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<RunResult> {
  const { timeoutMs = 10 * 60_000, ...spawnOptions } = options;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawnTracked(command, args, spawnOptions);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      void stopChild(child, 2_000);
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, wallMs: performance.now() - started, timedOut });
    });
  });
}

/** Full path of an executable on PATH (plus the sbin folders, where nginx lives), or null. */
export function which(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const full = path.join(dir, name);
    try {
      fs.accessSync(full, fs.constants.X_OK);
      if (fs.statSync(full).isFile()) return full;
    } catch {
      /* not here */
    }
  }
  return null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:port; rejects after timeoutMs. */
export async function waitForPort(port: number, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the process meant to listen on port ${port} exited`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}

/** Peak and current RSS (kB) of a live process, from /proc (Linux), or null. */
export function procMemory(pid: number | undefined): { hwmKb: number; rssKb: number } | null {
  if (pid === undefined) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    const rss = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return hwm && rss ? { hwmKb: Number(hwm), rssKb: Number(rss) } : null;
  } catch {
    return null;
  }
}
