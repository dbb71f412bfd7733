// The regeneration job as the bench runs it (the regenerate scenario, and the artifacts the read scenario
// serves): the one place to change when the job moves or is started another way.
import type { BenchContext, MeasuredRun } from './types.js';

/**
 * `npm run regenerate`, what cron runs: scripts/launch.mjs, which runs the job's bundle (dist/scripts/regenerate.mjs,
 * fresh: the bench builds first), the one-shot command that runs the same job function (src/jobs/regenerate.ts) as
 * the server's loop.
 */
export const REGENERATION_JOB = { script: 'scripts/launch.mjs', args: ['regenerate'] };

/** One run of the job on the bench data, measured (wall time, peak RSS, CPU). */
export function runRegenerationJob(ctx: BenchContext, env: Record<string, string>, timeoutMs: number): Promise<MeasuredRun> {
  return ctx.runNodeScript(REGENERATION_JOB.script, env, timeoutMs, REGENERATION_JOB.args);
}

export function describeRegenerationJob(): string {
  return [REGENERATION_JOB.script, ...REGENERATION_JOB.args].join(' ');
}
