// The contract between `npm run bench` and its scenarios. A scenario is one file under bench/scenarios/
// exporting a default `Scenario`, plus one line in bench/registry.ts.
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { DatasetSize, DatasetSummary } from '../test/support/dataset.js';

/** A target a figure is held to: `{ max: 20 }` means "≤ 20", `{ min: 0.33 }` means "≥ 0.33". */
export type Target = { max: number; exclusive?: boolean } | { min: number; exclusive?: boolean };

export type Verdict = 'PASS' | 'FAIL' | 'INFO' | 'SKIP' | 'ERROR' | 'WARN';

export interface FigureOptions {
  target?: Target;
  /** Printed after the value, e.g. "(includes node + tsx start-up)". */
  note?: string;
  /** Digits after the decimal point; by default chosen from the magnitude. */
  digits?: number;
}

/** A figure beside its floor (bench/alternate.ts): the ratio is value / floor. */
export interface CompareOptions {
  /** Held to the ratio, e.g. `{ min: 0.5 }` (at least half the floor's requests/s) or `{ max: 2 }` (at most twice its time). */
  ratioTarget?: Target;
  /** Held to the value itself, e.g. a p99 `{ max: 100, exclusive: true }` in ms. */
  valueTarget?: Target;
  note?: string;
  digits?: number;
}

export interface RecordedFigure {
  scenario: string;
  name: string;
  value: string;
  /** The same figure for the floor, measured in the same run ('' when the figure has none). */
  floor: string;
  /** value / floor ('' when the figure has no floor). */
  ratio: string;
  target: string;
  verdict: Verdict;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time of the child process as seen by the bench (spawn to exit). */
  wallMs: number;
  timedOut: boolean;
}

export interface MeasuredRun extends RunResult {
  /** Peak resident set size of the child, in kB (null when it could not be read). */
  maxRssKb: number | null;
  /** How maxRssKb was obtained. */
  rssSource: '/usr/bin/time -v' | 'process.resourceUsage()' | 'none';
  /** CPU seconds of the child (user, system), or null when not measured. */
  cpu: { user: number; system: number } | null;
}

export interface BenchDataset extends DatasetSummary {
  /** Environment for any child that should use the bench data (DATABASE_PATH, ARTIFACTS_DIR, …). */
  env: Record<string, string>;
  artifactsDir: string;
}

export interface BenchContext {
  /** The project root (cwd of every child). */
  readonly root: string;
  /** A temporary directory for this bench run (removed at the end unless BENCH_KEEP=1). */
  readonly workDir: string;
  readonly size: DatasetSize;
  /** The bench database: generated on first call (timed and printed), shared by every scenario of the run. */
  dataset(): Promise<BenchDataset>;
  /** Brings ARTIFACTS_DIR up to date with the current database: runs the regeneration job (bench/regeneration-job.ts). */
  ensureArtifacts(): Promise<void>;

  /** Prints a figure line (with its target and PASS/FAIL) and records it for the summary table. */
  figure(name: string, value: number, unit: string, options?: FigureOptions): void;
  /** Prints a figure with its floor and their ratio (value / floor), PASS/FAIL against the targets given, and records it. */
  compare(name: string, value: number, floor: number, unit: string, options?: CompareOptions): void;
  /** Prints a yes/no verification (PASS/FAIL) and records it. */
  check(name: string, ok: boolean, detail?: string): void;
  /** Prints an indented informational line (not in the summary). */
  info(text: string): void;
  /** Records that (part of) the scenario was skipped, with the reason and how to fix it. */
  skip(name: string, reason: string): void;

  /** Spawns a child tracked by the bench: it is stopped on exit, error or Ctrl-C. */
  spawn(command: string, args: string[], options?: SpawnOptions): ChildProcess;
  /** Runs a command to completion (bounded by timeoutMs) and captures its output. */
  run(command: string, args: string[], options?: SpawnOptions & { timeoutMs?: number }): Promise<RunResult>;
  /** Runs `node [--import tsx] <script> [args]` (a .mjs bundle without tsx) and measures its wall time and peak RSS. */
  runNodeScript(script: string, env: Record<string, string>, timeoutMs?: number, args?: string[]): Promise<MeasuredRun>;
  /** Stops a tracked child (its whole process group): SIGTERM, then SIGKILL after graceMs. */
  stop(child: ChildProcess, graceMs?: number): Promise<void>;
}

export interface Scenario {
  /** What you type after `npm run bench --`. Lowercase, no spaces. */
  name: string;
  /** One line for `npm run bench -- --list`. */
  summary: string;
  run(ctx: BenchContext): Promise<void>;
}
