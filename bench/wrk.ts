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

export async function runWrk(
  ctx: BenchContext,
  wrk: string,
  url: string,
  options: { threads: number; connections: number; seconds: number; headers?: string[] },
): Promise<WrkResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`load stays on 127.0.0.1: ${url}`);
  const args = ['-t', String(options.threads), '-c', String(options.connections), '-d', `${options.seconds}s`, '--latency'];
  for (const h of options.headers ?? []) args.push('-H', h);
  args.push(url);
  const result = await ctx.run(wrk, args, { timeoutMs: (options.seconds + 30) * 1000 });
  if (result.timedOut) throw new Error(`wrk did not finish within ${options.seconds + 30} s`);
  if (result.code !== 0) throw new Error(`wrk failed (exit ${result.code ?? result.signal}): ${result.stderr}${result.stdout}`);
  return parseWrk(result.stdout);
}
