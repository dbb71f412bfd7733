// Read serving: the real node server (`scripts/start.ts`) against its floor, nginx serving the same ARTIFACTS_DIR
// under the same URL, measured with wrk in the same run, on the same machine, on 127.0.0.1, alternating nginx and
// node, A B A B (bench/alternate.ts, bench/load-compare.ts):
//   wrk -t2 -c32 -d10s --latency http://127.0.0.1:PORT/api/v0/events
// Target: node answers at least a third of nginx's requests per second. wrk sends no Accept-Encoding, so both
// serve the identity file; then (for information) both with gzip, and node alone with brotli (nginx-light has none).
// BENCH_WRK_SECONDS (default 10) sets the length of each measured run, BENCH_ROUNDS (default 2) the number of
// A B pairs; BENCH_WRK / BENCH_NGINX the binaries.
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { request } from '../http.js';
import { compareUnderLoad } from '../load-compare.js';
import { writeNginxConfig } from '../nginx.js';
import { startBenchServer } from '../server.js';
import { freePort, procMemory, waitForPort, which } from '../../test/support/processes.js';
import type { Scenario } from '../types.js';
import { latencyNote, runWrk, wrkErrors, wrkSeconds } from '../wrk.js';

const INSTALL = 'apt-get update && apt-get install -y nginx-light wrk';
const PATHNAME = '/api/v0/events';
const SHOWN_HEADERS = ['content-type', 'content-length', 'content-encoding', 'cache-control', 'etag', 'last-modified', 'vary', 'access-control-allow-origin', 'x-content-type-options'];

/** One GET with the bytes as sent (identity unless asked otherwise). */
const get = (url: string, headers: Record<string, string> = {}) => request(url, { headers: { 'accept-encoding': 'identity', ...headers } });

const scenario: Scenario = {
  name: 'read',
  summary: 'GET /api/v0/events under wrk -c32: node server against nginx on the same files, A B A B (node ≥ 1/3 of nginx req/s)',
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
    const secs = wrkSeconds();
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

      // Warm both (JIT, file caches), then the measured runs, one server at a time, alternating.
      console.log(`\n   wrk -t${load.threads} -c${load.connections} -d${secs}s --latency ${PATHNAME} (each server alone, ${secs} s a run)`);
      await runWrk(ctx, wrk, nodeUrl, { ...load, seconds: 2 });
      if (nginxUrl) await runWrk(ctx, wrk, nginxUrl, { ...load, seconds: 2 });

      const gzip = ['Accept-Encoding: gzip'];
      if (nginxUrl) {
        const nginxSide = { label: 'nginx', url: nginxUrl };
        const nodeSide = { label: 'node', url: nodeUrl };
        await compareUnderLoad(ctx, wrk, { name: 'GET /api/v0/events, identity', floor: nginxSide, subject: nodeSide, load, ratioTarget: { min: 1 / 3 } });
        await compareUnderLoad(ctx, wrk, { name: 'GET /api/v0/events, gzip', floor: nginxSide, subject: nodeSide, load: { ...load, headers: gzip } });
      } else {
        for (const [label, headers] of [['identity', []], ['gzip', gzip]] as const) {
          const r = await runWrk(ctx, wrk, nodeUrl, { ...load, headers: [...headers] });
          ctx.figure(`GET /api/v0/events, ${label} requests/s (node alone)`, r.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(r) });
          ctx.check(`GET /api/v0/events, ${label}: 0 errors (non-2xx, socket errors)`, wrkErrors(r) === null, wrkErrors(r) ?? '');
        }
      }
      const br = await runWrk(ctx, wrk, nodeUrl, { ...load, headers: ['Accept-Encoding: br'] });
      ctx.figure('GET /api/v0/events, br requests/s (node alone)', br.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(br) });
      ctx.check('GET /api/v0/events, br: 0 errors (non-2xx, socket errors)', wrkErrors(br) === null, wrkErrors(br) ?? '');
      const mem = procMemory(nodeServer.pid);
      if (mem) ctx.figure('node server: peak RSS (VmHWM)', mem.hwmKb / 1024, 'MB', { digits: 0 });
    } finally {
      for (const child of children.reverse()) await ctx.stop(child);
    }
  },
};

export default scenario;
