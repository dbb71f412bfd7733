// Read serving: the real node server (`scripts/start.ts`) against nginx serving the same ARTIFACTS_DIR under the
// same URL, measured with wrk in the same run, on the same machine, on 127.0.0.1:
//   wrk -t2 -c32 -d10s --latency http://127.0.0.1:PORT/api/v0/events
// Target: node answers at least a third of nginx's requests per second. wrk sends no Accept-Encoding, so both
// serve the identity file; then (for information) both with gzip, and node with brotli.
// BENCH_WRK_SECONDS (default 10) sets the length of each measured run; BENCH_WRK / BENCH_NGINX the binaries.
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { writeNginxConfig } from '../nginx.js';
import { startBenchServer } from '../server.js';
import { freePort, procMemory, waitForPort, which } from '../../test/support/processes.js';
import type { Scenario } from '../types.js';
import { runWrk, type WrkResult } from '../wrk.js';

const INSTALL = 'apt-get update && apt-get install -y nginx-light wrk';
const PATHNAME = '/api/v0/events';
const SHOWN_HEADERS = ['content-type', 'content-length', 'content-encoding', 'cache-control', 'etag', 'last-modified', 'vary', 'access-control-allow-origin', 'x-content-type-options'];

function seconds(): number {
  const raw = process.env.BENCH_WRK_SECONDS?.trim();
  const n = raw ? Number(raw) : 10;
  return Number.isFinite(n) && n >= 1 && n <= 120 ? Math.round(n) : 10;
}


/** One GET with node:http (fetch would decode the body): status, headers and the bytes as sent. */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; header: (name: string) => string | null; body: Buffer; sha1: string }>((resolve, reject) => {
    const req = http.get(url, { headers: { 'accept-encoding': 'identity', ...headers }, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const v = res.headers[name.toLowerCase()];
            return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
          },
          body,
          sha1: crypto.createHash('sha1').update(body).digest('hex'),
        });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

function latencyNote(r: WrkResult): string {
  const f = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : '?');
  return `p50 ${f(r.latencyMs.p50)}, p90 ${f(r.latencyMs.p90)}, p99 ${f(r.latencyMs.p99)}, max ${f(r.latencyMs.max)}, ${r.transferPerSec}/s`;
}

const scenario: Scenario = {
  name: 'read',
  summary: 'GET /api/v0/events under wrk: node server (scripts/start.ts) vs nginx on the same files (node ≥ 1/3 of nginx req/s)',
  async run(ctx) {
    // BENCH_WRK / BENCH_NGINX: another binary (e.g. an nginx built with brotli), or "none" to leave it out.
    const tool = (name: string, override: string | undefined) => (override ? (override === 'none' ? null : override) : which(name));
    const wrk = tool('wrk', process.env.BENCH_WRK);
    const nginx = tool('nginx', process.env.BENCH_NGINX);
    if (!wrk) {
      ctx.skip('read serving', `wrk is not installed; install it (and nginx) with: ${INSTALL}`);
      return;
    }
    if (!nginx) ctx.skip('nginx comparison', `nginx is not installed (node is measured alone); install it with: ${INSTALL}`);

    const data = await ctx.dataset();
    await ctx.ensureArtifacts();
    const secs = seconds();
    const load = { threads: 2, connections: 32, seconds: secs };
    const children: ChildProcess[] = [];
    try {
      const nodePort = await freePort();
      const nodeServer = await startBenchServer(ctx, { ...data.env, PORT: String(nodePort) });
      children.push(nodeServer);
      const nodeUrl = `http://127.0.0.1:${nodePort}${PATHNAME}`;

      let nginxUrl: string | null = null;
      if (nginx) {
        const nginxPort = await freePort();
        const setup = writeNginxConfig(path.join(ctx.workDir, 'nginx'), nginxPort, data.artifactsDir);
        const test = await ctx.run(nginx, ['-t', '-q', '-p', setup.prefix, '-e', setup.errorLog, '-c', setup.configFile], { timeoutMs: 10_000 });
        if (test.code !== 0) throw new Error(`nginx -t rejected ${setup.configFile}:\n${test.stderr}${test.stdout}`);
        const server = ctx.spawn(nginx, ['-p', setup.prefix, '-e', setup.errorLog, '-c', setup.configFile]);
        children.push(server);
        await waitForPort(nginxPort, 10_000, () => server.exitCode === null);
        nginxUrl = `http://127.0.0.1:${nginxPort}${PATHNAME}`;
        ctx.info(`nginx up (pid ${server.pid}, ${setup.configFile})`);
      }

      // Same URL, same bytes, the same headers that matter.
      const fromNode = await get(nodeUrl);
      ctx.check('node: GET /api/v0/events answers 200', fromNode.status === 200, `${fromNode.status}, ${fromNode.body.length} bytes`);
      const nodeGz = await get(nodeUrl, { 'accept-encoding': 'gzip' });
      const nodeBr = await get(nodeUrl, { 'accept-encoding': 'br' });
      ctx.info(`response body: identity ${fromNode.body.length} B, gzip ${nodeGz.body.length} B, br ${nodeBr.body.length} B`);
      ctx.info(`node  headers: ${SHOWN_HEADERS.map((h) => `${h}: ${fromNode.header(h) ?? '-'}`).join(' | ')}`);
      if (nginxUrl) {
        const fromNginx = await get(nginxUrl);
        ctx.info(`nginx headers: ${SHOWN_HEADERS.map((h) => `${h}: ${fromNginx.header(h) ?? '-'}`).join(' | ')}`);
        ctx.check('nginx: same status and bytes as node', fromNginx.status === 200 && fromNginx.sha1 === fromNode.sha1);
        const gz = await get(nginxUrl, { 'accept-encoding': 'gzip' });
        ctx.check('nginx: serves the .gz variant (gzip_static)', gz.header('content-encoding') === 'gzip' && gz.sha1 === nodeGz.sha1);
        const missing = await get(nginxUrl.replace(PATHNAME, '/api/v0/events/no-such-event/standings'));
        ctx.check(
          'nginx: unknown event → 404 problem+json',
          missing.status === 404 && (missing.header('content-type') ?? '').startsWith('application/problem+json'),
          `${missing.status} ${missing.header('content-type') ?? ''}`,
        );
      }

      // Warm both (JIT, file caches), then the measured runs, one server at a time.
      console.log(`\n   wrk -t${load.threads} -c${load.connections} -d${secs}s --latency ${PATHNAME} (each server alone, ${secs} s a run)`);
      await runWrk(ctx, wrk, nodeUrl, { ...load, seconds: 2 });
      if (nginxUrl) await runWrk(ctx, wrk, nginxUrl, { ...load, seconds: 2 });

      const nodeId = await runWrk(ctx, wrk, nodeUrl, load);
      ctx.figure('node, identity: requests/s', nodeId.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(nodeId) });
      let nginxId: WrkResult | null = null;
      if (nginxUrl) {
        nginxId = await runWrk(ctx, wrk, nginxUrl, load);
        ctx.figure('nginx, identity: requests/s', nginxId.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(nginxId) });
        ctx.figure('node / nginx, identity', nodeId.requestsPerSec / nginxId.requestsPerSec, '', { target: { min: 1 / 3 }, digits: 2 });
      }

      const gzip = ['Accept-Encoding: gzip'];
      const nodeGzRun = await runWrk(ctx, wrk, nodeUrl, { ...load, headers: gzip });
      ctx.figure('node, gzip: requests/s', nodeGzRun.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(nodeGzRun) });
      let nginxGzRun: WrkResult | null = null;
      if (nginxUrl) {
        nginxGzRun = await runWrk(ctx, wrk, nginxUrl, { ...load, headers: gzip });
        ctx.figure('nginx, gzip_static: requests/s', nginxGzRun.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(nginxGzRun) });
        ctx.figure('node / nginx, gzip', nodeGzRun.requestsPerSec / nginxGzRun.requestsPerSec, '', { digits: 2 });
      }
      const nodeBrRun = await runWrk(ctx, wrk, nodeUrl, { ...load, headers: ['Accept-Encoding: br'] });
      ctx.figure('node, br: requests/s', nodeBrRun.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(nodeBrRun) });

      const runs = [nodeId, nginxId, nodeGzRun, nginxGzRun, nodeBrRun].filter((r): r is WrkResult => r !== null);
      const errors = runs.filter((r) => r.non2xx > 0 || r.socketErrors !== null);
      ctx.check('every wrk run: only 2xx, no socket errors', errors.length === 0, errors.map((r) => `non-2xx ${r.non2xx}${r.socketErrors ? `, socket errors: ${r.socketErrors}` : ''}`).join('; '));
      const mem = procMemory(nodeServer.pid);
      if (mem) ctx.figure('node server: peak RSS (VmHWM)', mem.hwmKb / 1024, 'MB', { digits: 0 });
    } finally {
      for (const child of children.reverse()) await ctx.stop(child);
    }
  },
};

export default scenario;
