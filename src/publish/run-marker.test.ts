// What /proc says of a process: the start time a marker records, read past a command name of any shape, and the
// states that are not a run going on.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { tempDir } from '../../test/support/db.js';
import { processState } from './run-marker.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
const start = (file: string, args: string[]) => {
  const child = spawn(file, args, { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
};
const waitFor = async <T>(get: () => T | undefined): Promise<T> => {
  for (let i = 0; i < 100; i++) {
    const value = get();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('timed out');
};

it.runIf(process.platform === 'linux')('reads the start time of a process whose command holds spaces and parentheses', async () => {
  // A copy of sleep under such a name: /proc/<pid>/stat shows it as the command.
  const dir = tempDir('competitions-marker-');
  const program = path.join(dir, 'a) b (c');
  fs.copyFileSync('/bin/sleep', program);
  fs.chmodSync(program, 0o755);
  const pid = start(program, ['5']);
  const state = await waitFor(() => {
    const s = processState(pid);
    return s.kind === 'running' && fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes('(a) b (c)') ? s : undefined;
  });
  // Against ps, which reads it on its own: clock ticks since boot, and the boot time, give the start to the second.
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
  const boot = Number(/^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))![1]);
  const psStart = Date.parse(spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC', LC_ALL: 'C' } }).stdout.trim() + ' UTC') / 1000;
  expect(Math.abs(boot + Number(state.start) / ticks - psStart)).toBeLessThanOrEqual(1);
  fs.rmSync(dir, { recursive: true, force: true });
});

it.runIf(process.platform === 'linux')('tells a process gone and one dead but not reaped (a zombie) from one running', async () => {
  expect(processState(spawnSync(process.execPath, ['-e', '']).pid!)).toEqual({ kind: 'gone' });
  // sh starts a child, then becomes a sleep that never reaps it.
  const parent = start('sh', ['-c', 'sleep 0 & exec sleep 5']);
  const zombie = await waitFor(() =>
    fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).find((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(parent) && processState(pid).kind === 'zombie';
      } catch {
        return false;
      }
    }),
  );
  expect(processState(zombie)).toEqual({ kind: 'zombie' });
  expect(processState(parent).kind).toBe('running');
});
