// A real S3 implementation for the publishing tests: Ceph's RADOS Gateway on a one-monitor, one-OSD cluster on the
// memory object store, all on 127.0.0.1, in a temporary folder (Debian: radosgw, ceph-mon, ceph-osd, ceph-common;
// .ci/run installs them). It starts in seconds; stop() kills the daemons and removes the folder (KEEP_RGW=1 keeps it,
// with the daemons' logs, for a look after a failure).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { tempDir } from './db.js';
import { freePort, which } from './processes.js';

export interface Gateway {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

const BINARIES = ['ceph', 'ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool'];

/** Why the gateway cannot run here, or null when it can. */
export function gatewayUnavailable(): string | null {
  const missing = BINARIES.filter((b) => which(b) === null);
  return missing.length ? `${missing.join(', ')} not installed (apt-get install -y radosgw ceph-mon ceph-osd ceph-common)` : null;
}

function run(command: string, args: string[], cwd: string): void {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr}${r.stdout}`);
}

// Ceph 16's OSD start failed in CI twice ('wrong fsid' from the monitor on the OSD's first crush command, a start-up
// race inside Ceph; the second time on all three attempts of one run): the OSD now sends no crush command at start
// (the configuration below). A failed start is still retried on a new cluster (new folder, ports and fsid); the
// error that is finally thrown carries each attempt's reason.
const ATTEMPTS = 3;

export async function startGateway(): Promise<Gateway> {
  const reasons: string[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce();
    } catch (error) {
      reasons.push(`attempt ${attempt}: ${error instanceof Error ? error.message : String(error)}`);
      if (attempt === ATTEMPTS) throw new Error(`the Ceph RADOS Gateway did not start:\n${reasons.join('\n')}`);
    }
  }
}

/** The last lines of a daemon's log that say something went wrong, for an error message. */
function logTail(file: string): string {
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => / -1 |error|fail/i.test(l));
    return lines.slice(-5).join('\n');
  } catch {
    return '';
  }
}

async function startOnce(): Promise<Gateway> {
  const dir = tempDir('competitions-rgw-');
  const monPort = await freePort();
  let rgwPort = await freePort();
  while (rgwPort === monPort) rgwPort = await freePort();
  const fsid = crypto.randomUUID();
  for (const d of ['mon.a', 'osd.0', 'run', 'rgw']) fs.mkdirSync(path.join(dir, d));
  fs.writeFileSync(path.join(dir, 'ceph.conf'), [
    '[global]', `fsid = ${fsid}`, `mon host = v1:127.0.0.1:${monPort}`, 'mon initial members = a',
    'auth cluster required = none', 'auth service required = none', 'auth client required = none',
    'osd pool default size = 1', 'osd pool default min size = 1', 'osd pool default pg num = 8', 'osd pool default pgp num = 8',
    'mon allow pool size one = true', 'mon data avail crit = 0', 'mon data avail warn = 0',
    // The OSD sends no crush command at start (its device class, its place): the first of those, sent before its
    // monitor session knows the cluster's fsid, failed with 'wrong fsid' (see ATTEMPTS). Its place is set from the
    // command line instead, before it starts (startOnce).
    'osd objectstore = memstore', 'osd class update on start = false', 'osd crush update on start = false',
    'memstore device bytes = 1073741824',
    'osd max object name len = 460', 'osd max object namespace len = 64',
    `run dir = ${dir}/run`, `admin socket = ${dir}/run/$name.asok`, `log file = ${dir}/$name.log`, `pid file = ${dir}/run/$name.pid`,
    '[mon.a]', `mon data = ${dir}/mon.a`, 'public addr = 127.0.0.1',
    '[osd.0]', `osd data = ${dir}/osd.0`,
    '[client.rgw]', `rgw frontends = beast endpoint=127.0.0.1:${rgwPort}`, `rgw data = ${dir}/rgw`,
    '',
  ].join('\n'));
  const conf = ['-c', path.join(dir, 'ceph.conf')];
  const stop = async () => {
    for (const name of ['client.rgw', 'osd.0', 'mon.a']) {
      try {
        process.kill(Number(fs.readFileSync(path.join(dir, 'run', `${name}.pid`), 'utf8')), 'SIGKILL');
      } catch {
        /* not running */
      }
    }
    if (!process.env.KEEP_RGW) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('monmaptool', ['--create', '--add', 'a', `v1:127.0.0.1:${monPort}`, '--fsid', fsid, 'monmap'], dir);
    run('ceph-mon', [...conf, '--mkfs', '-i', 'a', '--monmap', 'monmap'], dir);
    run('ceph-mon', [...conf, '-i', 'a'], dir); // daemonizes
    // The monitor answering is this cluster's (another cluster on this machine once answered with its own fsid).
    const answered = spawnSync('ceph', [...conf, 'fsid'], { cwd: dir, encoding: 'utf8', timeout: 30_000 }).stdout.trim();
    if (answered !== fsid) throw new Error(`the monitor on port ${monPort} is not this cluster's (fsid ${answered || 'none'}): another Ceph runs here?`);
    run('ceph', [...conf, 'osd', 'create'], dir);
    run('ceph', [...conf, 'osd', 'crush', 'add', 'osd.0', '1.0', 'root=default', 'host=localhost'], dir);
    run('ceph-osd', [...conf, '-i', '0', '--mkfs'], dir);
    run('ceph-osd', [...conf, '-i', '0'], dir);
    run('radosgw', [...conf, '-n', 'client.rgw'], dir);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(endpoint)).ok) break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`radosgw did not answer on ${endpoint} within 60 s`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const accessKeyId = `AK${crypto.randomBytes(8).toString('hex').toUpperCase()}`;
    const secretAccessKey = crypto.randomBytes(20).toString('hex');
    run('radosgw-admin', [...conf, 'user', 'create', '--uid=publisher', '--display-name=publisher', `--access-key=${accessKeyId}`, `--secret=${secretAccessKey}`], dir);
    return { endpoint, accessKeyId, secretAccessKey, stop };
  } catch (error) {
    const logs = ['osd.0', 'mon.a'].map((n) => logTail(path.join(dir, `${n}.log`))).filter(Boolean).join('\n');
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}${logs ? `\n${logs}` : ''}`);
  }
}
