// The state one `npm run bench` shares between its scenarios (dataset, artifacts, figures), and the
// per-scenario BenchContext handed to each of them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDataset, describeDataset, type DatasetSize } from '../test/support/dataset.js';
import { runToEnd, spawnTracked, stopChild } from '../test/support/processes.js';
import { describeRegenerationJob, runRegenerationJob } from './regeneration-job.js';
import type { BenchContext, BenchDataset, CompareOptions, FigureOptions, MeasuredRun, RecordedFigure, Target, Verdict } from './types.js';

export const ROOT = path.resolve(import.meta.dirname, '..');
const REPORT_RSS = pathToFileURL(path.join(import.meta.dirname, 'report-rss.ts')).href;

/** Fixed for every child: the manifest of a render is only trusted by a run with the same settings. */
export const BENCH_PUBLIC_BASE_URL = 'https://competitions.example';
export const BENCH_REGENERATE_EVERY_S = '3600';

export function formatNumber(value: number, digits?: number): string {
  const d = digits ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return value.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

function formatTarget(target: Target, unit: string): string {
  const u = unit === '×' ? unit : unit ? ` ${unit}` : '';
  const n = (v: number) => String(Number(v.toPrecision(2)));
  if ('max' in target) return `${target.exclusive ? '<' : '≤'} ${n(target.max)}${u}`;
  return `${target.exclusive ? '>' : '≥'} ${n(target.min)}${u}`;
}

/** A ratio as printed: "2.09×", "0.495×" (three digits below 1, so 0.495 does not read as a met 0.5). */
export function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(ratio < 1 ? 3 : 2)}×` : '?';
}

function meets(value: number, target: Target): boolean {
  if ('max' in target) return target.exclusive ? value < target.max : value <= target.max;
  return target.exclusive ? value > target.min : value >= target.min;
}

/**
 * Project files changed after `sinceMs` (src/, scripts/, config files; the bench itself lives in bench/): other people editing
 * the code while the bench runs would make its figures mix two versions of it.
 */
export function sourcesChangedSince(sinceMs: number): string[] {
  const changed: string[] = [];
  const walk = (rel: string) => {
    const full = path.join(ROOT, rel);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      if (rel.endsWith('node_modules')) return;
      for (const name of fs.readdirSync(full)) walk(path.join(rel, name));
    } else if (stat.mtimeMs > sinceMs) {
      changed.push(rel);
    }
  };
  for (const rel of ['src', 'scripts', 'package.json', 'astro.config.mjs']) walk(rel);
  return changed.sort();
}

export class BenchState {
  readonly figures: RecordedFigure[] = [];
  readonly workDir: string;
  private datasetPromise: Promise<BenchDataset> | null = null;

  constructor(readonly size: DatasetSize) {
    this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'competitions-bench-'));
    // mkdtemp makes it 0700: nginx's workers (user nobody when started as root) must be able to read the artifacts.
    fs.chmodSync(this.workDir, 0o755);
  }

  dataset(): Promise<BenchDataset> {
    this.datasetPromise ??= (async () => {
      const file = path.join(this.workDir, 'app.db');
      const artifactsDir = path.join(this.workDir, 'artifacts');
      console.log(
        `\n── dataset: generating ${this.size.events} events × ${this.size.matchesPerEvent} matches ` +
          `(BENCH_EVENTS / BENCH_MATCHES_PER_EVENT) in ${this.workDir}`,
      );
      const summary = await createDataset(file, this.size);
      console.log(`   ${describeDataset(summary)}`);
      this.record('dataset', 'generate the database (one transaction)', `${formatNumber(summary.ms / 1000)} s`, '', 'INFO');
      console.log(`   generated in ${formatNumber(summary.ms / 1000)} s`);
      const env: Record<string, string> = {
        DATABASE_PATH: file,
        ARTIFACTS_DIR: artifactsDir,
        MAIL_DIR: path.join(this.workDir, 'mail'),
        MAIL_TRANSPORT: 'file',
        PUBLIC_BASE_URL: BENCH_PUBLIC_BASE_URL,
        REGENERATE_EVERY_S: BENCH_REGENERATE_EVERY_S,
        HOST: '127.0.0.1',
        ASTRO_TELEMETRY_DISABLED: '1',
      };
      return { ...summary, env, artifactsDir };
    })();
    return this.datasetPromise;
  }

  /**
   * Runs the regeneration job, always: it renders what the database changed since the artifacts were last rendered
   * (everything the first time, nothing on a quiet run, in a fraction of a second), so no scenario has to say that it
   * changed the database (the updates scenario's 1,000 match changes once reached the publish scenario unrendered).
   */
  async ensureArtifacts(ctx: BenchContext): Promise<void> {
    const data = await this.dataset();
    const run = await runRegenerationJob(ctx, data.env, 10 * 60_000);
    if (run.code !== 0) throw new Error(`${describeRegenerationJob()} failed (exit ${run.code}):\n${run.stdout}${run.stderr}`);
    ctx.info(`artifacts brought up to date first (${describeRegenerationJob()}, not measured): ${run.stdout.trim()}`);
  }

  record(scenario: string, name: string, value: string, target: string, verdict: Verdict, floor = '', ratio = ''): void {
    this.figures.push({ scenario, name, value, floor, ratio, target, verdict });
  }

  context(scenario: string): BenchContext {
    const state = this;
    // name, value, then (for a figure with a floor) the floor and the ratio, then the target and the verdict.
    const line = (name: string, value: string, target: string, verdict: Verdict, note?: string, floor = '', ratio = '') => {
      const shownTarget = target ? `target ${target}` : '';
      const mark = verdict === 'INFO' ? '' : verdict;
      const shownFloor = floor ? `floor ${floor}` : '';
      console.log(
        `   ${name.padEnd(52)} ${value.padStart(13)}  ${shownFloor.padStart(19)}  ${ratio.padStart(7)}   ${shownTarget.padEnd(20)} ${mark.padEnd(5)}${note ? ` ${note}` : ''}`.trimEnd(),
      );
      state.record(scenario, name, value, target, verdict, floor, ratio);
    };
    const ctx: BenchContext = {
      root: ROOT,
      workDir: state.workDir,
      size: state.size,
      dataset: () => state.dataset(),
      ensureArtifacts: () => state.ensureArtifacts(ctx),
      figure(name: string, value: number, unit: string, options: FigureOptions = {}) {
        const shown = `${formatNumber(value, options.digits)}${unit ? ` ${unit}` : ''}`;
        const target = options.target ? formatTarget(options.target, unit) : '';
        const verdict: Verdict = options.target ? (meets(value, options.target) ? 'PASS' : 'FAIL') : 'INFO';
        line(name, shown, target, verdict, options.note);
      },
      compare(name: string, value: number, floor: number, unit: string, options: CompareOptions = {}) {
        const shown = (v: number) => `${formatNumber(v, options.digits)}${unit ? ` ${unit}` : ''}`;
        const ratio = value / floor;
        const targets = [
          options.ratioTarget ? formatTarget(options.ratioTarget, '×') : '',
          options.valueTarget ? formatTarget(options.valueTarget, unit) : '',
        ].filter(Boolean);
        const met = (options.ratioTarget ? meets(ratio, options.ratioTarget) : true) && (options.valueTarget ? meets(value, options.valueTarget) : true);
        const verdict: Verdict = targets.length === 0 ? 'INFO' : met ? 'PASS' : 'FAIL';
        line(name, shown(value), targets.join(', '), verdict, options.note, shown(floor), formatRatio(ratio));
      },
      check(name: string, ok: boolean, detail?: string) {
        line(name, ok ? 'yes' : 'no', 'yes', ok ? 'PASS' : 'FAIL', detail);
      },
      info(text: string) {
        for (const l of text.split('\n')) console.log(`     ${l}`);
      },
      skip(name: string, reason: string) {
        console.log(`   SKIPPED ${name}: ${reason}`);
        state.record(scenario, name, 'skipped', '', 'SKIP');
      },
      spawn: (command, args, options = {}) => spawnTracked(command, args, { cwd: ROOT, ...options }),
      run: (command, args, options = {}) => runToEnd(command, args, { cwd: ROOT, ...options }),
      stop: (child, graceMs) => stopChild(child, graceMs),
      async runNodeScript(script: string, env: Record<string, string>, timeoutMs = 10 * 60_000, args: string[] = []): Promise<MeasuredRun> {
        const childEnv = { ...process.env, ...env };
        // A bundled script (.mjs) runs as it is; TypeScript goes through tsx.
        const loader = script.endsWith('.mjs') ? [] : ['--import', 'tsx'];
        // BENCH_RSS=self: measure with the preload even when /usr/bin/time is there.
        const time = process.env.BENCH_RSS !== 'self' && fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
        if (time) {
          const result = await runToEnd(time, ['-v', process.execPath, ...loader, script, ...args], { cwd: ROOT, env: childEnv, timeoutMs });
          // GNU time appends its report to the child's stderr.
          const at = result.stderr.lastIndexOf('\tCommand being timed:');
          const report = at === -1 ? '' : result.stderr.slice(at);
          const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1];
          const user = /User time \(seconds\): ([\d.]+)/.exec(report)?.[1];
          const system = /System time \(seconds\): ([\d.]+)/.exec(report)?.[1];
          // GNU time exits with the child's status, or reports the signal that ended it.
          return {
            ...result,
            stderr: at === -1 ? result.stderr : result.stderr.slice(0, at),
            maxRssKb: rss ? Number(rss) : null,
            rssSource: rss ? '/usr/bin/time -v' : 'none',
            cpu: user && system ? { user: Number(user), system: Number(system) } : null,
          };
        }
        const result = await runToEnd(process.execPath, ['--import', 'tsx', '--import', REPORT_RSS, script, ...args], { cwd: ROOT, env: childEnv, timeoutMs });
        const report = /\nBENCH_MAX_RSS_KB=(\d+) BENCH_CPU_US=(\d+),(\d+)\n/.exec(result.stderr);
        return {
          ...result,
          stderr: report ? result.stderr.replace(report[0], '') : result.stderr,
          maxRssKb: report ? Number(report[1]) : null,
          rssSource: report ? 'process.resourceUsage()' : 'none',
          cpu: report ? { user: Number(report[2]) / 1e6, system: Number(report[3]) / 1e6 } : null,
        };
      },
    };
    return ctx;
  }

  cleanup(keep: boolean): void {
    if (keep) {
      console.log(`\nkept the bench data (BENCH_KEEP=1): ${this.workDir}`);
      return;
    }
    fs.rmSync(this.workDir, { recursive: true, force: true });
  }
}
