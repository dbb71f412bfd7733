// The regeneration job as the bench runs it (the regenerate scenario, and the artifacts the read scenario
// serves): the one place to change when the job moves or is started another way.
import type { BenchContext, MeasuredRun } from './types.js';

/**
 * `node dist/regenerate.mjs`: the bundle of scripts/regenerate.ts made by scripts/build-if-needed.ts (which
 * `npm run bench` calls first), what the server's loop and cron run. A `.ts` script would run through tsx.
 */
export const REGENERATION_JOB = { script: 'dist/regenerate.mjs', args: [] as string[] };

/** One run of the job on the bench data, measured (wall time, peak RSS, CPU). */
export function runRegenerationJob(ctx: BenchContext, env: Record<string, string>, timeoutMs: number): Promise<MeasuredRun> {
  return ctx.runNodeScript(REGENERATION_JOB.script, env, timeoutMs, REGENERATION_JOB.args);
}

export function describeRegenerationJob(): string {
  return [REGENERATION_JOB.script, ...REGENERATION_JOB.args].join(' ');
}
