// Write side under load: the real node server on the demo data (file mail transport, rate limits lifted), each
// endpoint beside its floor, a bare node:http + better-sqlite3 reference (bench/reference/) doing the same SQL on
// the same database file, measured with wrk (2 threads, 32 connections) on 127.0.0.1, alternating reference and
// real server, A B A B (bench/alternate.ts, bench/load-compare.ts):
//   GET  /api/v0/rsvp/[matchId]   ≥ 0.5 of its reference's requests/s, p99 < 100 ms, 0 errors (measured first,
//                                 before the mail worker has thousands of queued emails to send)
//   POST /api/v0/register         ≥ 0.5 of its reference's requests/s, p99 < 100 ms, 0 errors
//   POST /api/v0/follow           for information (every request a new address: a new follow and an email)
// Both processes run during every run (only one under load): the real server's mail worker keeps sending the
// queued receipts, the reference's too, while either is measured.
// BENCH_WRK_SECONDS (default 10) sets the length of each run, BENCH_ROUNDS (default 2) the number of A B pairs.
import fs from 'node:fs';
import path from 'node:path';
import { freePort, which } from '../../test/support/processes.js';
import { compareUnderLoad } from '../load-compare.js';
import { REFERENCE_SERVERS, startReference, type RunningReference } from '../reference/start.js';
import { registerDifferences, rsvpSummaryDifferences } from '../reference/same-answers.js';
import { startBenchServer } from '../server.js';
import type { Scenario } from '../types.js';
import { latencyNote, runWrk, wrkErrors, wrkSeconds } from '../wrk.js';

const INSTALL = 'apt-get update && apt-get install -y wrk';
const RSVP_MATCH = 'rsl-prem-r07-2';
const REGISTRATION = {
  org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Bench Player {n}', name_ar: 'لاعب {n}',
  email: 'bench.{n}@example.org', date_of_birth: '2014-05-06', phone: '+962 79 555 0101',
};
const TARGETS = { ratioTarget: { min: 0.5 }, p99Target: { max: 100, exclusive: true } } as const;

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

const scenario: Scenario = {
  name: 'write',
  summary: 'register and RSVP summary under wrk -c32, each against a bare node:http reference on the same database, A B A B (≥ 0.5 of it, p99 < 100 ms, 0 errors); follow for information',
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
    // The real server first: it migrates the database and loads the demo data the references then use.
    const server = await startBenchServer(ctx, env);
    const references: RunningReference[] = [];
    try {
      const base = `http://127.0.0.1:${port}`;
      const rsvpRef = await startReference(REFERENCE_SERVERS.rsvpSummary, env.DATABASE_PATH);
      references.push(rsvpRef);
      const registerRef = await startReference(REFERENCE_SERVERS.register, env.DATABASE_PATH);
      references.push(registerRef);
      for (const r of references) ctx.info(`${r.started} (pid ${r.child.pid})`);

      // A floor only counts if it does the same work: same status, headers and body; the same registration and
      // outbox rows (bench/reference/same-answers.ts).
      const rsvpDiff = await rsvpSummaryDifferences(base, rsvpRef.url, RSVP_MATCH);
      ctx.check('RSVP summary reference: same answer as the endpoint', rsvpDiff.length === 0, rsvpDiff.join('; '));
      const check = { ...REGISTRATION, name: 'Bench Check', name_ar: 'فحص', email: 'bench.check-{who}@example.org' };
      const registerDiff = await registerDifferences(base, registerRef.url, env.DATABASE_PATH, check);
      ctx.check('register reference: same answer and rows as the endpoint', registerDiff.length === 0, registerDiff.join('; '));

      const load = { threads: 2, connections: 32, seconds: wrkSeconds() };
      const warm = { ...load, seconds: Math.min(2, load.seconds) };
      const rsvpPath = `/api/v0/rsvp/${RSVP_MATCH}`;
      console.log(`\n   GET ${rsvpPath}: reference (bench/reference/rsvp-summary-server.ts) against the node server`);
      // Warm-up (JIT, SQLite caches), not measured.
      for (const url of [rsvpRef.url, base]) await runWrk(ctx, wrk, `${url}${rsvpPath}`, warm);
      await compareUnderLoad(ctx, wrk, {
        name: 'GET /api/v0/rsvp/[matchId]',
        floor: { label: 'reference', url: `${rsvpRef.url}${rsvpPath}` },
        subject: { label: 'node', url: `${base}${rsvpPath}` },
        load,
        ...TARGETS,
      });

      console.log('\n   POST /api/v0/register: reference (bench/reference/register-server.ts) against the node server');
      const register = { ...load, script: postScript(dir, 'register', JSON.stringify(REGISTRATION)) };
      for (const url of [registerRef.url, base]) await runWrk(ctx, wrk, `${url}/api/v0/register`, { ...register, seconds: warm.seconds });
      await compareUnderLoad(ctx, wrk, {
        name: 'POST /api/v0/register',
        floor: { label: 'reference', url: `${registerRef.url}/api/v0/register` },
        subject: { label: 'node', url: `${base}/api/v0/register` },
        load: register,
        ...TARGETS,
      });

      // No floor and no target of its own in the issue: shown for information.
      console.log('\n   POST /api/v0/follow (information)');
      const follow = postScript(dir, 'follow', JSON.stringify({ org_id: 'riverside-sfl', email: 'fan.{n}@example.org' }));
      const f = await runWrk(ctx, wrk, `${base}/api/v0/follow`, { ...load, script: follow });
      ctx.figure('POST /api/v0/follow requests/s', f.requestsPerSec, 'req/s', { digits: 0, note: latencyNote(f) });
      ctx.check('POST /api/v0/follow: 0 errors (non-2xx, socket errors)', wrkErrors(f) === null, wrkErrors(f) ?? '');
    } finally {
      for (const r of references.reverse()) {
        const errors = r.output().split('\n').filter((l) => /failed|error/i.test(l));
        if (errors.length) ctx.info(`${r.started.split(' listening')[0]} printed: ${errors.slice(0, 3).join(' | ')}`);
        await ctx.stop(r.child);
      }
      await ctx.stop(server);
    }
  },
};

export default scenario;
