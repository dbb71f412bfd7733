// npm run bench [-- NAME…]: generates a large dataset in a temporary directory and runs the benchmark
// scenarios of bench/registry.ts (all of them, or the ones named), printing each figure next to its
// floor (the same work done by the simplest possible program, measured in the same run: bench/alternate.ts),
// their ratio and the target, then a summary table. A missed target is a finding, not a failure: the exit status is 0 unless
// the bench itself could not run (bad arguments: 2; a scenario crashed: 1).
//
//   npm run bench                      every scenario, full size (2,000 events, 200,000 matches)
//   npm run bench -- regenerate read   only these
//   npm run bench -- --list            the scenarios
//   BENCH_EVENTS=50 BENCH_MATCHES_PER_EVENT=20 npm run bench    a quick smoke run
//   BENCH_KEEP=1 …                     keep the temporary directory (database, artifacts, nginx config)
//   BENCH_WRK_SECONDS=5 …              length of each wrk run (default 10)
//   BENCH_ROUNDS=3 …                   pairs of floor / measured runs, alternating A B A B (default 2)
//   BENCH_RSS=self …                   measure peak RSS with process.resourceUsage() even if /usr/bin/time exists
//   BENCH_NGINX=/path or none, BENCH_WRK=/path or none    which binaries the read scenario uses
import os from 'node:os';
import { BenchState, sourcesChangedSince } from './context.js';
import { datasetSizeFromEnv } from '../test/support/dataset.js';
import { killAllNow, stopAll } from '../test/support/processes.js';
import { scenarios } from './registry.js';
import type { RecordedFigure } from './types.js';
import { buildIfNeeded } from '../scripts/build-if-needed.js';

function usage(): string {
  const names = scenarios.map((s) => `  ${s.name.padEnd(14)} ${s.summary}`).join('\n');
  return `usage: npm run bench [-- [--list] [NAME…]]\n\nscenarios:\n${names}\n\nenvironment: BENCH_EVENTS, BENCH_MATCHES_PER_EVENT, BENCH_SEED, BENCH_KEEP=1, BENCH_WRK_SECONDS, BENCH_ROUNDS, BENCH_RSS=self, BENCH_NGINX, BENCH_WRK`;
}

/** Every figure of the run: its value, its floor and the ratio (value / floor) when it has one, its target and verdict. */
function printSummary(figures: RecordedFigure[]): void {
  const header: RecordedFigure = { scenario: 'scenario', name: 'figure', value: 'value', floor: 'floor', ratio: 'ratio', target: 'target', verdict: 'INFO' };
  const rows = [header, ...figures];
  const width = (key: 'scenario' | 'name' | 'value' | 'floor' | 'ratio' | 'target') => Math.max(...rows.map((r) => r[key].length));
  const w = { scenario: width('scenario'), name: width('name'), value: width('value'), floor: width('floor'), ratio: width('ratio'), target: width('target') };
  const rule = '─'.repeat(w.scenario + w.name + w.value + w.floor + w.ratio + w.target + 20);
  console.log(`\n${rule}\nSUMMARY (ratio = value / floor, the floor measured in the same run, alternating)\n${rule}`);
  rows.forEach((r, i) => {
    const verdict = i === 0 ? 'result' : r.verdict === 'INFO' ? '' : r.verdict;
    console.log(
      `${r.scenario.padEnd(w.scenario)}  ${r.name.padEnd(w.name)}  ${r.value.padStart(w.value)}  ${r.floor.padStart(w.floor)}  ${r.ratio.padStart(w.ratio)}  ${r.target.padEnd(w.target)}  ${verdict}`.trimEnd(),
    );
    if (i === 0) console.log(rule);
  });
  const count = (v: string) => figures.filter((f) => f.verdict === v).length;
  console.log(`${rule}\n${count('PASS')} passed, ${count('FAIL')} missed, ${count('SKIP')} skipped, ${count('ERROR')} errors, ${count('WARN')} warnings`);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h') || args.includes('--list')) {
    console.log(usage());
    return 0;
  }
  const unknown = args.filter((a) => !scenarios.some((s) => s.name === a));
  if (unknown.length > 0) {
    console.error(`unknown scenario or option: ${unknown.join(', ')}\n\n${usage()}`);
    return 2;
  }
  const selected = args.length > 0 ? scenarios.filter((s) => args.includes(s.name)) : scenarios;
  // The server and the regeneration bundle measured are the ones built from the current sources.
  buildIfNeeded();

  let size;
  try {
    size = datasetSizeFromEnv();
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const state = new BenchState(size);
  const keep = process.env.BENCH_KEEP === '1';
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the servers and load generators…`);
    void stopAll().finally(() => {
      state.cleanup(keep);
      process.exit(130);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAllNow);

  const [load1, load5] = os.loadavg();
  console.log(
    `bench: node ${process.version}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, ` +
      `load average ${load1!.toFixed(2)} / ${load5!.toFixed(2)} (1 / 5 min)` +
      (load1! > 0.7 ? '  ⚠ the machine is busy: figures may be inflated' : ''),
  );
  console.log(`scenarios: ${selected.map((s) => s.name).join(', ')}`);

  let errors = 0;
  try {
    for (const scenario of selected) {
      console.log(`\n══ ${scenario.name}: ${scenario.summary}`);
      const ctx = state.context(scenario.name);
      const startedAt = Date.now();
      try {
        await scenario.run(ctx);
        const changed = sourcesChangedSince(startedAt);
        if (changed.length > 0) {
          const shown = `${changed.slice(0, 4).join(', ')}${changed.length > 4 ? ` and ${changed.length - 4} more` : ''}`;
          console.log(`   ⚠ the code changed while ${scenario.name} ran (${shown}): its figures may mix two versions`);
          state.record(scenario.name, 'code unchanged during the scenario', `${changed.length} files changed`, '', 'WARN');
        }
      } catch (error) {
        if (interrupted) break;
        errors++;
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        console.error(`   ERROR in ${scenario.name}: ${message}`);
        state.record(scenario.name, 'scenario crashed (see above)', 'error', '', 'ERROR');
      } finally {
        await stopAll();
      }
    }
  } finally {
    await stopAll();
    state.cleanup(keep);
  }
  printSummary(state.figures);
  return errors > 0 ? 1 : 0;
}

process.exitCode = await main();
