// The floor of a full regeneration (bench/reference/compress-floor.ts): its input, the identity files of a
// render copied out of ARTIFACTS_DIR; the script bundled like the job (one .mjs file, plain node, no tsx), so both
// processes pay the same start-up; and one measured run.
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import type { Snapshot } from './artifacts.js';
import type { FloorResult } from './reference/compress-floor.js';
import type { BenchContext, MeasuredRun } from './types.js';

const SOURCE = path.resolve(import.meta.dirname, 'reference/compress-floor.ts');

export interface FloorInput {
  dir: string;
  files: number;
  bytes: number;
  /** Bytes of the .gz and .br files of the render: what compressing the identity files must give. */
  variantBytes: number;
}

/** Copies every artifact's identity file (the ones with a .gz and a .br beside them) from a render into dir. */
export function copyIdentityFiles(artifactsDir: string, render: Snapshot, dir: string): FloorInput {
  fs.rmSync(dir, { recursive: true, force: true });
  const input: FloorInput = { dir, files: 0, bytes: 0, variantBytes: 0 };
  for (const [rel, state] of render) {
    const gz = render.get(`${rel}.gz`);
    const br = render.get(`${rel}.br`);
    if (!gz || !br) continue;
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.copyFileSync(path.join(artifactsDir, rel), path.join(dir, rel));
    input.files++;
    input.bytes += Number(state.size);
    input.variantBytes += Number(gz.size) + Number(br.size);
  }
  return input;
}

/** bench/reference/compress-floor.ts as one ES module in dir (workers run the same file). */
export function bundleFloor(dir: string): string {
  const outfile = path.join(dir, 'compress-floor.mjs');
  buildSync({ entryPoints: [SOURCE], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
  return outfile;
}

export async function runFloor(ctx: BenchContext, script: string, input: FloorInput): Promise<{ run: MeasuredRun; result: FloorResult }> {
  const run = await ctx.runNodeScript(script, {}, 5 * 60_000, [input.dir]);
  if (run.timedOut) throw new Error(`the regeneration floor (${script}) did not finish within 5 minutes`);
  if (run.code !== 0) throw new Error(`the regeneration floor (${script}) failed (exit ${run.code ?? run.signal}):\n${run.stdout}${run.stderr}`);
  const line = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return { run, result: JSON.parse(line) as FloorResult };
  } catch {
    throw new Error(`could not read the floor's result line: ${line}`);
  }
}
