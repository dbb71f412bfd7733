// Write side under load: the real node server on the demo data (file mail transport, rate limits lifted),
// measured with wrk, 32 connections, on 127.0.0.1:
//   POST /api/v0/register      target ≥ 800 requests/s, p99 ≤ 100 ms, no error
//   GET  /api/v0/rsvp/[matchId] target ≥ 2,000 requests/s (measured first, before the outbox fills)
//   POST /api/v0/follow        for information (every request a new address: a new follow and an email)
// BENCH_WRK_SECONDS (default 10) sets the length of each run.
import fs from 'node:fs';
import path from 'node:path';
import { freePort, which } from '../../test/support/processes.js';
import type { BenchContext, Scenario } from '../types.js';
import { parseWrk, type WrkResult } from '../wrk.js';
import { startBenchServer } from '../server.js';

const INSTALL = 'apt-get update && apt-get install -y wrk';

function seconds(): number {
  const n = Number(process.env.BENCH_WRK_SECONDS ?? 10);
  return Number.isFinite(n) && n >= 1 && n <= 120 ? Math.round(n) : 10;
}

/** A wrk Lua script that POSTs JSON, `{n}` in the body replaced by a per-thread counter. */
function postScript(dir: string, name: string, body: string): string {
  const file = path.join(dir, `${name}.lua`);
  fs.writeFileSync(
    file,
    `local counter = 0
local thread_id = 0
function setup(thread) thread_id = thread_id + 1; thread:set("tid", thread_id) end
function init(args) prefix = tostring(tid) .. "-" end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  local body = string.gsub(${JSON.stringify(body)}, "{n}", prefix .. counter)
  return wrk.format(nil, nil, nil, body)
end
`,
  );
  return file;
}

async function wrkRun(ctx: BenchContext, wrk: string, url: string, script: string | null): Promise<WrkResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`load stays on 127.0.0.1: ${url}`);
  const s = seconds();
  const args = ['-t', '2', '-c', '32', '-d', `${s}s`, '--latency'];
  if (script) args.push('-s', script);
  args.push(url);
  const r = await ctx.run(wrk, args, { timeoutMs: (s + 30) * 1000 });
  if (r.code !== 0) throw new Error(`wrk failed (exit ${r.code ?? r.signal}): ${r.stderr}${r.stdout}`);
  return parseWrk(r.stdout);
}

function report(ctx: BenchContext, label: string, r: WrkResult, minRps?: number, maxP99?: number): void {
  ctx.info(`${label}: ${r.requests} requests in ${r.seconds.toFixed(1)} s, latency p50 ${r.latencyMs.p50.toFixed(2)} ms, p99 ${r.latencyMs.p99.toFixed(2)} ms${r.socketErrors ? `, socket errors: ${r.socketErrors}` : ''}`);
  ctx.figure(`${label} requests/s`, r.requestsPerSec, 'req/s', minRps === undefined ? {} : { target: { min: minRps } });
  if (maxP99 !== undefined) ctx.figure(`${label} p99 latency`, r.latencyMs.p99, 'ms', { target: { max: maxP99 } });
  ctx.check(`${label}: every answer 2xx/3xx, no socket error`, r.non2xx === 0 && r.socketErrors === null, `${r.non2xx} non-2xx`);
}

const scenario: Scenario = {
  name: 'write',
  summary: 'register, follow and RSVP summary under wrk -c32 against the node server (rate limits lifted)',
  async run(ctx) {
    const wrk = which('wrk');
    if (!wrk) return ctx.skip('write', `wrk is not installed: ${INSTALL}`);
    const dir = path.join(ctx.workDir, 'write');
    fs.mkdirSync(dir, { recursive: true });
    const port = await freePort();
    const env = {
      DATABASE_PATH: path.join(dir, 'app.db'),
      ARTIFACTS_DIR: path.join(dir, 'artifacts'),
      MAIL_DIR: path.join(dir, 'mail'),
      MAIL_TRANSPORT: 'file',
      RATE_LIMIT_WRITES_PER_MIN: '0',
      RATE_LIMIT_READS_PER_MIN: '0',
      FOLLOW_EMAILS_PER_DAY: '0',
      REGENERATE_EVERY_S: '3600',
      HOST: '127.0.0.1',
      PORT: String(port),
    };
    const server = await startBenchServer(ctx, env);
    try {
      const base = `http://127.0.0.1:${port}`;
      // Warm-up: JIT and SQLite caches.
      await wrkRun(ctx, wrk, `${base}/api/v0/rsvp/rsl-prem-r07-2`, null).catch(() => undefined);

      // The summary first: after the writes, the mail worker is still sending thousands of queued emails.
      report(ctx, 'GET /api/v0/rsvp/[matchId]', await wrkRun(ctx, wrk, `${base}/api/v0/rsvp/rsl-prem-r07-2`, null), 2000);

      const register = postScript(dir, 'register', JSON.stringify({
        org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Bench Player {n}', name_ar: 'لاعب {n}',
        email: 'bench.{n}@example.org', date_of_birth: '2014-05-06', phone: '+962 79 555 0101',
      }));
      report(ctx, 'POST /api/v0/register', await wrkRun(ctx, wrk, `${base}/api/v0/register`, register), 800, 100);

      const follow = postScript(dir, 'follow', JSON.stringify({ org_id: 'riverside-sfl', email: 'fan.{n}@example.org' }));
      // No target of its own in the issue: shown for information.
      report(ctx, 'POST /api/v0/follow', await wrkRun(ctx, wrk, `${base}/api/v0/follow`, follow));
    } finally {
      await ctx.stop(server);
    }
  },
};

export default scenario;
