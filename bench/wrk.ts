// Runs wrk (bounded in time, 127.0.0.1 only) and reads its report.
import type { BenchContext } from './types.js';

export interface WrkResult {
  requests: number;
  seconds: number;
  requestsPerSec: number;
  transferPerSec: string;
  latencyMs: { avg: number; max: number; p50: number; p75: number; p90: number; p99: number };
  non2xx: number;
  socketErrors: string | null;
  raw: string;
}

function toMs(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text?.trim() ?? '');
  if (!m) return Number.NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 'ms' ? v : m[2] === 's' ? v * 1000 : v * 60_000;
}

export function parseWrk(out: string): WrkResult {
  const latency = /^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(out);
  const pct = (p: number) => toMs(new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(out)?.[1]);
  const total = /(\d+) requests in ([\d.]+)(ms|s|m)/.exec(out);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  if (!total || !rps) throw new Error(`could not read wrk's report:\n${out}`);
  return {
    requests: Number(total[1]),
    seconds: toMs(`${total[2]}${total[3]}`) / 1000,
    requestsPerSec: Number(rps),
    transferPerSec: /Transfer\/sec:\s+(\S+)/.exec(out)?.[1] ?? '?',
    latencyMs: { avg: toMs(latency?.[1]), max: toMs(latency?.[3]), p50: pct(50), p75: pct(75), p90: pct(90), p99: pct(99) },
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: /Socket errors: (.*)/.exec(out)?.[1] ?? null,
    raw: out,
  };
}

/** BENCH_WRK_SECONDS (default 10): the length of each measured wrk run. */
export function wrkSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_WRK_SECONDS?.trim();
  const n = raw ? Number(raw) : 10;
  return Number.isFinite(n) && n >= 1 && n <= 120 ? Math.round(n) : 10;
}

export interface WrkLoad {
  threads: number;
  connections: number;
  seconds: number;
  headers?: string[];
  /** A Lua script (-s), e.g. one that POSTs a new body each request. */
  script?: string;
}

/** "p50 0.81 ms, p90 …, p99 …, max …, 4.75MB/s" */
export function latencyNote(r: WrkResult): string {
  const f = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : '?');
  return `p50 ${f(r.latencyMs.p50)}, p90 ${f(r.latencyMs.p90)}, p99 ${f(r.latencyMs.p99)}, max ${f(r.latencyMs.max)}, ${r.transferPerSec}/s`;
}

/** What went wrong in a run (non-2xx/3xx answers, socket errors), or null when nothing did. */
export function wrkErrors(r: WrkResult): string | null {
  if (r.non2xx === 0 && r.socketErrors === null) return null;
  return [r.non2xx ? `${r.non2xx} non-2xx/3xx` : '', r.socketErrors ? `socket errors: ${r.socketErrors}` : ''].filter(Boolean).join(', ');
}

export async function runWrk(ctx: BenchContext, wrk: string, url: string, options: WrkLoad): Promise<WrkResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`load stays on 127.0.0.1: ${url}`);
  const args = ['-t', String(options.threads), '-c', String(options.connections), '-d', `${options.seconds}s`, '--latency'];
  for (const h of options.headers ?? []) args.push('-H', h);
  if (options.script) args.push('-s', options.script);
  args.push(url);
  const result = await ctx.run(wrk, args, { timeoutMs: (options.seconds + 30) * 1000 });
  if (result.timedOut) throw new Error(`wrk did not finish within ${options.seconds + 30} s`);
  if (result.code !== 0) throw new Error(`wrk failed (exit ${result.code ?? result.signal}): ${result.stderr}${result.stdout}`);
  return parseWrk(result.stdout);
}
