// `npm run bench` on a tiny dataset: the command runs, its verifications hold, and it leaves nothing behind.
// Timing targets are not asserted here (a busy machine misses them); the full-size figures are the bench's job.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWrk } from '../bench/wrk.js';

const ROOT = path.resolve(import.meta.dirname, '..');

function bench(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, BENCH_EVENTS: '20', BENCH_MATCHES_PER_EVENT: '20', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('npm run bench', () => {
  it('lists its scenarios, and refuses an unknown one with status 2', () => {
    const list = bench(['--list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/regenerate/);
    expect(list.out).toMatch(/read/);
    const unknown = bench(['no-such-scenario']);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/unknown scenario/);
  });

  it('runs the regeneration scenario on a small dataset: no-change writes nothing, one change rewrites only its files', () => {
    for (const rss of ['time', 'self']) {
      const { code, out } = bench(['regenerate'], rss === 'self' ? { BENCH_RSS: 'self' } : {});
      expect(code, out).toBe(0);
      expect(out).toMatch(/SUMMARY/);
      expect(out).toMatch(/20 public events \(16 league, 4 knockout\), 400 matches/);
      // The summary table's line for a figure: "regenerate  NAME …  value  target  PASS|FAIL".
      const summary = out.slice(out.indexOf('SUMMARY'));
      const verdict = (name: string) =>
        summary.split('\n').find((l) => l.startsWith('regenerate') && l.includes(name))?.match(/(PASS|FAIL)$/)?.[1];
      for (const check of [
        'full: every event rendered',
        'no change: printed "files written 0"',
        'no change: no file touched on disk',
        'one change: only that event re-rendered',
        'one change: printed "files written" = artifacts rewritten',
        'one change: no file rewritten with identical bytes',
        'one change: every changed file was rewritten',
        'one change: its standings and calendar were updated',
      ]) {
        expect(verdict(check), `${check}\n${out}`).toBe('PASS');
      }
      expect(out).toMatch(/full: peak RSS\s+[\d.]+ MB/);
      expect(out).not.toMatch(/ERROR/);
    }
  });
});

describe('parseWrk', () => {
  it('reads requests/s, latency percentiles and errors', () => {
    const r = parseWrk(`Running 10s test @ http://127.0.0.1:8080/api/v0/events
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.24ms    1.05ms 363.41ms   85.89%
    Req/Sec     4.30k   512.00     5.00k    70.00%
  Latency Distribution
     50%  812.00us
     75%    3.73ms
     90%    6.51ms
     99%  212.99ms
  85510 requests in 10.00s, 47.50GB read
  Socket errors: connect 0, read 0, write 0, timeout 3
  Non-2xx or 3xx responses: 12
Requests/sec:   8551.00
Transfer/sec:      4.75GB
`);
    expect(r.requestsPerSec).toBe(8551);
    expect(r.requests).toBe(85510);
    expect(r.seconds).toBe(10);
    expect(r.latencyMs.p50).toBeCloseTo(0.812);
    expect(r.latencyMs.p99).toBeCloseTo(212.99);
    expect(r.latencyMs.max).toBeCloseTo(363.41);
    expect(r.non2xx).toBe(12);
    expect(r.socketErrors).toBe('connect 0, read 0, write 0, timeout 3');
    expect(r.transferPerSec).toBe('4.75GB');
  });
});
