// One server per database: a second `npm start` on a DATABASE_PATH a server holds refuses in one line, before it
// builds, makes the queued emails due or renders (a review's second server sent an email the first was sending
// again); the commands still run beside the server; a server killed leaves a lock the next start takes over.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverLockFile } from '../src/server/server-lock.js';
import { request } from './support/http.js';
import { ROOT, runScript, startService, type RunningService } from './support/server.js';

const services: RunningService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.stop('SIGKILL');
});

/** A free port of 47400-47499, the range these tests may use on a shared machine. */
async function portInRange(taken: number[] = []): Promise<number> {
  for (let port = 47400 + Math.floor(Math.random() * 100), tries = 0; tries < 100; tries++, port = 47400 + ((port - 47400 + 1) % 100)) {
    if (taken.includes(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port in 47400-47499');
}

/**
 * `npm start` with `env`, up to its exit: its code and output. One that serves instead is killed, and said (code
 * 'served'): before the lock, the second server started and served.
 */
function startExpectingExit(env: Record<string, string>, wrapper: string[] = []): Promise<{ code: number | 'served' | null; stdout: string; stderr: string }> {
  const command = [...wrapper, process.execPath, '--import', 'tsx', path.join(ROOT, 'scripts/start.ts')];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let served = false;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (!served && stdout.includes('serving on')) {
      served = true;
      child.kill('SIGKILL');
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: served ? 'served' : code, stdout, stderr })));
}

/** A second `npm start` on `first`'s database, with its own port and folders: only the database is shared. */
async function secondServerBeside(first: RunningService, wrapper: string[] = []) {
  return startExpectingExit({
    ...first.env,
    ENV_FILE: 'none',
    PORT: String(await portInRange([Number(first.env.PORT)])),
    ARTIFACTS_DIR: path.join(first.dir, 'second-artifacts'),
    MAIL_DIR: path.join(first.dir, 'second-mail'),
  }, wrapper);
}

const lockHolder = (databasePath: string) => (JSON.parse(fs.readFileSync(serverLockFile(databasePath), 'utf8')) as { pid: number }).pid;
const serves = async (svc: RunningService) => (await request(`${svc.url}/api/v0/events`)).status;

describe('one server per database', () => {
  it('refuses a second start on the database in one line naming it and the first server, which keeps serving', async () => {
    const first = await startService({ PORT: String(await portInRange()) });
    services.push(first);
    const db = first.env.DATABASE_PATH!;

    const second = await secondServerBeside(first);
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    const lines = second.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^DATABASE_PATH \\(${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) is already served by another server \\(pid ${first.child.pid}, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)`),
    );
    // Nothing of its start-up ran: no render, no mail folder.
    expect(fs.existsSync(path.join(first.dir, 'second-artifacts'))).toBe(false);
    expect(fs.existsSync(path.join(first.dir, 'second-mail'))).toBe(false);

    expect(await serves(first)).toBe(200);
    expect(lockHolder(db)).toBe(first.child.pid);
  }, 120_000);

  // An operator's review: DATABASE_PATH a link to the database file held a lock beside the link, and a second server
  // ran on the same file, its mail worker beside the first's.
  it('refuses a second start through a link to the database file, naming the path it was given', async () => {
    const first = await startService({ PORT: String(await portInRange()) });
    services.push(first);
    const link = path.join(first.dir, 'link.db');
    fs.symlinkSync(first.env.DATABASE_PATH!, link);
    const second = await startExpectingExit({
      ...first.env, ENV_FILE: 'none', DATABASE_PATH: link,
      PORT: String(await portInRange([Number(first.env.PORT)])),
      ARTIFACTS_DIR: path.join(first.dir, 'second-artifacts'), MAIL_DIR: path.join(first.dir, 'second-mail'),
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`^DATABASE_PATH \\(${link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) is already served by another server \\(pid ${first.child.pid}, `));
    expect(await serves(first)).toBe(200);
  }, 120_000);

  // A review: a second server in another pid namespace (a container on the same data volume: `unshare -fp`) saw no live
  // holder by the pid in the lock, took it and served beside the first. The kernel's lock holds across namespaces.
  const UNSHARE = ['/usr/bin/unshare', '/bin/unshare'].find((p) => fs.existsSync(p));
  it.skipIf(!UNSHARE || process.getuid?.() !== 0)('refuses a second server in another pid namespace (a container)', async () => {
    const first = await startService({ PORT: String(await portInRange()) });
    services.push(first);
    const second = await secondServerBeside(first, [UNSHARE!, '-fp', '--mount-proc']);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`is already served by another server \\(pid ${first.child.pid}, started `));
    expect(await serves(first)).toBe(200);
    expect(lockHolder(first.env.DATABASE_PATH!)).toBe(first.child.pid);
    // The lock leaves no journal beside it.
    expect(fs.existsSync(`${first.env.DATABASE_PATH!}.server.lock.sqlite-journal`)).toBe(false);
  }, 120_000);

  it('lets the commands run beside the server: import, regenerate and updates', async () => {
    const svc = await startService({ PORT: String(await portInRange()) });
    services.push(svc);
    const imported = await runScript(svc, 'import.ts', [path.join(ROOT, 'test/fixtures/import-small.json')]);
    expect(imported.status, imported.stderr).toBe(0);
    const regenerated = await runScript(svc, 'regenerate.ts');
    expect(regenerated.status, regenerated.stderr).toBe(0);
    const updates = await runScript(svc, 'updates.ts');
    expect(updates.status, updates.stderr).toBe(0);
    expect(await serves(svc)).toBe(200);
    expect(lockHolder(svc.env.DATABASE_PATH!)).toBe(svc.child.pid);
  }, 120_000);

  it("takes over the lock of a server killed (kill -9), and a server's stop releases it", async () => {
    const first = await startService({ PORT: String(await portInRange()) });
    services.push(first);
    const db = first.env.DATABASE_PATH!;
    await new Promise<void>((resolve) => {
      first.child.once('exit', () => resolve());
      first.child.kill('SIGKILL');
    });
    // Left behind, naming the process that is gone.
    expect(lockHolder(db)).toBe(first.child.pid);

    const next = await startService({ ...first.env, PORT: String(await portInRange()) }, first.dir);
    services.push(next);
    expect(next.output()).not.toMatch(/already served/);
    expect(lockHolder(db)).toBe(next.child.pid);
    expect(await serves(next)).toBe(200);

    await next.stop('SIGTERM');
    expect(next.child.exitCode).toBe(0);
    expect(fs.existsSync(serverLockFile(db))).toBe(false);
  }, 120_000);
});
