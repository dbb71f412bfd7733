// An HTTP endpoint under wrk against its floor (nginx on the same file, a bare node:http reference doing the same
// transaction), alternating floor and endpoint (bench/alternate.ts), each run the same length and load. Prints
// every run, then requests/s and p99 with their floor and ratio, and whether any run had an error.
import { alternate, pairsNote, ratioOf, roundsFromEnv, type Alternation } from './alternate.js';
import type { BenchContext, Target } from './types.js';
import { latencyNote, runWrk, wrkErrors, type WrkLoad, type WrkResult } from './wrk.js';

export interface LoadSide {
  /** Short, for the per-run lines: "reference", "nginx", "node". */
  label: string;
  url: string;
}

export interface LoadComparison {
  /** The figure's name in the tables, e.g. "POST /api/v0/register". */
  name: string;
  floor: LoadSide;
  subject: LoadSide;
  load: WrkLoad;
  /** On subject / floor requests/s, e.g. { min: 0.5 }. */
  ratioTarget?: Target;
  /** On the subject's worst p99 of its runs, in ms. */
  p99Target?: Target;
}

const RUN = (r: WrkResult) => `${Math.round(r.requestsPerSec).toLocaleString('en-US').padStart(7)} req/s, ${latencyNote(r)}`;

export async function compareUnderLoad(ctx: BenchContext, wrk: string, c: LoadComparison): Promise<Alternation<WrkResult>> {
  const rounds = roundsFromEnv();
  const run = (side: LoadSide, tag: string) => async (round: number) => {
    const r = await runWrk(ctx, wrk, side.url, c.load);
    const errors = wrkErrors(r);
    ctx.info(`${tag}${round} ${side.label.padEnd(10)} ${RUN(r)}${errors ? `  ERRORS: ${errors}` : ''}`);
    return r;
  };
  ctx.info(`${c.name}: A = ${c.floor.label}, B = ${c.subject.label}, ${rounds} × (A B), wrk -t${c.load.threads} -c${c.load.connections} -d${c.load.seconds}s`);
  const runs = await alternate(rounds, run(c.floor, 'A'), run(c.subject, 'B'));

  const rps = ratioOf(runs.floor.map((r) => r.requestsPerSec), runs.subject.map((r) => r.requestsPerSec));
  ctx.compare(`${c.name} requests/s`, rps.value, rps.floor, 'req/s', {
    digits: 0,
    note: `(${c.subject.label} / ${c.floor.label}; ${pairsNote(rps)})`,
    ...(c.ratioTarget ? { ratioTarget: c.ratioTarget } : {}),
  });
  // The worst run of each side: a target on p99 holds for every run, not for a typical one.
  const worstP99 = (rs: WrkResult[]) => Math.max(...rs.map((r) => r.latencyMs.p99));
  ctx.compare(`${c.name} p99 latency (worst run)`, worstP99(runs.subject), worstP99(runs.floor), 'ms', {
    digits: 1,
    note: `(B runs ${runs.subject.map((r) => r.latencyMs.p99.toFixed(1)).join(', ')} ms)`,
    ...(c.p99Target ? { valueTarget: c.p99Target } : {}),
  });
  const failed = (rs: WrkResult[], label: string) =>
    rs.flatMap((r, i) => {
      const e = wrkErrors(r);
      return e ? [`${label} run ${i + 1}: ${e}`] : [];
    });
  const subjectErrors = failed(runs.subject, c.subject.label);
  ctx.check(`${c.name}: 0 errors (non-2xx, socket errors)`, subjectErrors.length === 0, subjectErrors.join('; '));
  const floorErrors = failed(runs.floor, c.floor.label);
  ctx.check(`${c.name}: 0 errors in the floor's runs`, floorErrors.length === 0, floorErrors.join('; '));
  return runs;
}
