// Regeneration of the read artifacts with the real job (bench/regeneration-job.ts: the one place that says how it
// is started), each run a separate process (so its peak RSS is its own):
//   (a) full render of the whole dataset into an empty ARTIFACTS_DIR (the last render moved aside), against its
//       floor: compressing the same identity bytes with the same settings on every core
//       (bench/reference/compress-floor.ts). After one warm-up render on one thread (not measured; it gives the
//       floor its input and the bytes every run must write), floor and full render (render workers) alternate,
//       A B A B (bench/alternate.ts): full / floor ≤ 2 (median process walls), peak RSS < 300 MB, the same bytes;
//   (b) a second run with nothing changed: ≤ 1 s, no file written ("files written 0" and no mtime moved);
//   (c) one league result recorded: ≤ 1 s, only the files whose bytes changed are rewritten.
// Process walls include node's start-up and module loading on both sides; the "printed" figure is what the job
// itself reports for the regeneration, the floor's "compression alone" what it spent compressing.
// BENCH_ROUNDS (default 2) sets the number of A B pairs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../src/db/connect.js';
import { alternate, median, pairsNote, ratioOf, roundsFromEnv } from '../alternate.js';
import { diffSnapshots, groupVariants, snapshot, type Snapshot } from '../artifacts.js';
import { formatNumber } from '../context.js';
import { bundleFloor, copyIdentityFiles, runFloor } from '../regeneration-floor.js';
import { describeRegenerationJob, runRegenerationJob } from '../regeneration-job.js';
import type { WriteFilesResult } from '../reference/write-files.js';
import type { BenchContext, MeasuredRun, Scenario } from '../types.js';

const WRITE_FILES = 'bench/reference/write-files.ts';

interface Printed {
  events: number | null;
  rendered: number | null;
  written: number | null;
  ms: number | null;
  line: string;
}

function parseLine(stdout: string): Printed {
  const line = stdout.split('\n').find((l) => l.includes('files written')) ?? stdout.trim();
  const num = (re: RegExp) => {
    const m = re.exec(line)?.[1];
    return m === undefined ? null : Number(m);
  };
  return {
    events: num(/(\d+) events/),
    rendered: num(/\((\d+) rendered\)/),
    written: num(/files written (\d+)/),
    ms: num(/(\d+) ms\b/),
    line: line.trim(),
  };
}

async function regenerateOnce(ctx: BenchContext, env: Record<string, string>): Promise<{ run: MeasuredRun; printed: Printed }> {
  const loadBefore = os.loadavg()[0]!;
  const run = await runRegenerationJob(ctx, env, 5 * 60_000);
  if (run.timedOut) throw new Error(`${describeRegenerationJob()} did not finish within 5 minutes`);
  if (run.code !== 0) throw new Error(`${describeRegenerationJob()} failed (exit ${run.code ?? run.signal}):\n${run.stdout}${run.stderr}`);
  const printed = parseLine(run.stdout);
  ctx.info(`printed: ${printed.line}`);
  const cpu = run.cpu ? `CPU ${run.cpu.user.toFixed(2)} s user + ${run.cpu.system.toFixed(2)} s system, ` : '';
  ctx.info(`${cpu}load average before the run ${loadBefore.toFixed(2)}`);
  return { run, printed };
}

/** bench/reference/write-files.ts: the render in `source` written again into `target`, nothing else. */
async function writeFilesOnce(ctx: BenchContext, source: string, target: string): Promise<WriteFilesResult> {
  const run = await ctx.runNodeScript(WRITE_FILES, {}, 5 * 60_000, [source, target]);
  if (run.code !== 0) throw new Error(`${WRITE_FILES} failed (exit ${run.code ?? run.signal}):\n${run.stdout}${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as WriteFilesResult;
}

function reportTimes(ctx: BenchContext, label: string, run: MeasuredRun, printed: Printed, maxS: number): void {
  if (printed.ms === null) ctx.check(`${label}: the script printed its "N ms"`, false, printed.line);
  else ctx.figure(`${label}: regeneration (printed ms)`, printed.ms / 1000, 's', { target: { max: maxS }, digits: 3 });
  ctx.figure(`${label}: process wall`, run.wallMs / 1000, 's', {
    target: { max: maxS },
    digits: 3,
    note: '(node start-up included)',
  });
}

/** Files of `after` whose bytes differ from `before` (or that only one of them has), the manifest aside. */
function differentBytes(before: Snapshot, after: Snapshot): string[] {
  const names = new Set([...before.keys(), ...after.keys()].filter((f) => f !== '.manifest.json'));
  return [...names].filter((f) => before.get(f)?.sha1 !== after.get(f)?.sha1).sort();
}

const scenario: Scenario = {
  name: 'regenerate',
  summary: 'the regeneration job: full render against its floor (compression on every core), A B A B (≤ 2×, RSS < 300 MB); no-change and one-result runs (≤ 1 s, minimal writes)',
  async run(ctx) {
    const data = await ctx.dataset();
    const env = data.env;

    // What every process pays before its first line, the job's and the floor's alike (best of 3).
    let startupMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const r = await ctx.run(process.execPath, ['-e', '0'], { timeoutMs: 30_000 });
      if (r.code === 0) startupMs = Math.min(startupMs, r.wallMs);
    }
    if (Number.isFinite(startupMs)) {
      ctx.figure('node start-up alone (best of 3)', startupMs / 1000, 's', { digits: 3, note: '(part of every process wall below)' });
    }

    // (a) Full regeneration into an empty directory, against its floor.
    console.log(`\n   (a) full regeneration: ${data.events} events, ${data.matches} matches → empty ARTIFACTS_DIR (${describeRegenerationJob()})`);
    // Each full run starts from an empty ARTIFACTS_DIR, the last render moved aside, not deleted, until the end of
    // the scenario: deleting a render's files makes the next minutes' file creation several times slower on
    // these machines (the same 65,000 atomic writes took 2.6–4.2 s of system time after no deletion, 12.9–20.5 s
    // right after one), a cost of the bench's clean-up that would land in the run. Their ext4 has no journal
    // (/sys/fs/ext4/vda/journal_task: <none>), and without one ext4 passes over every inode freed in the last minute
    // (six while its inode table block is unwritten) when it allocates one, looking each up (find_inode_bit and
    // recently_deleted, fs/ext4/ialloc.c): 27% of the perf samples of a one-thread render started right after a
    // deletion were there.
    const asideDir = path.join(ctx.workDir, 'regenerate-aside');
    let asideRuns = 0;
    const fullRun = async (threads?: number) => {
      if (fs.existsSync(data.artifactsDir)) {
        fs.mkdirSync(asideDir, { recursive: true });
        fs.renameSync(data.artifactsDir, path.join(asideDir, String(asideRuns++)));
      }
      const full = await regenerateOnce(ctx, threads === undefined ? env : { ...env, REGENERATE_THREADS: String(threads) });
      return { ...full, after: snapshot(data.artifactsDir) };
    };
    // The warm-up renders on one thread: the measured runs (render workers) must write its bytes.
    const warm = await fullRun(1);
    ctx.info(`warm-up render on one thread (not measured): process wall ${formatNumber(warm.run.wallMs / 1000, 3)} s`);
    const bytes = [...warm.after.values()].reduce((sum, f) => sum + Number(f.size), 0);
    ctx.info(`${warm.after.size} files on disk, ${(bytes / 1e6).toFixed(1)} MB (identity + .gz + .br, and the manifest)`);
    const input = copyIdentityFiles(data.artifactsDir, warm.after, path.join(ctx.workDir, 'regenerate-floor'));
    const floorScript = bundleFloor(ctx.workDir);
    const cores = os.availableParallelism();
    ctx.info(`floor: ${input.files} identity files, ${(input.bytes / 1e6).toFixed(1)} MB → gzip 9 + brotli 6 (compressVariants) on ${cores} worker threads`);

    const rounds = roundsFromEnv();
    ctx.info(`A = floor, B = full regeneration, ${rounds} × (A B)`);
    const runs = await alternate(
      rounds,
      async (round) => {
        const writes = await writeFilesOnce(ctx, data.artifactsDir, path.join(asideDir, `writes-${round}`));
        ctx.info(`A${round} writes alone ${formatNumber((writes.writeMs + writes.flushMs) / 1000, 3).padStart(7)} s  (${writes.files} files on one thread, CPU ${writes.userS.toFixed(2)} s user + ${writes.systemS.toFixed(2)} s system; flush ${formatNumber(writes.flushMs / 1000, 3)} s)`);
        const floor = await runFloor(ctx, floorScript, input);
        ctx.info(`A${round} floor  process wall ${formatNumber(floor.run.wallMs / 1000, 3).padStart(7)} s  (compression alone ${formatNumber(floor.result.compressMs / 1000, 3)} s on ${floor.result.workers} workers)`);
        return { ...floor, writes };
      },
      async (round) => {
        const full = await fullRun();
        const rss = full.run.maxRssKb === null ? '?' : formatNumber(full.run.maxRssKb / 1024, 0);
        ctx.info(`B${round} full   process wall ${formatNumber(full.run.wallMs / 1000, 3).padStart(7)} s  (printed ${full.printed.ms ?? '?'} ms, peak RSS ${rss} MB)`);
        return full;
      },
    );
    const wall = ratioOf(runs.floor.map((r) => r.run.wallMs / 1000), runs.subject.map((r) => r.run.wallMs / 1000));
    const printed = median(runs.subject.map((r) => (r.printed.ms ?? Number.NaN) / 1000));
    const compressOnly = median(runs.floor.map((r) => r.result.compressMs / 1000));
    ctx.compare('full regeneration, process wall', wall.value, wall.floor, 's', {
      ratioTarget: { max: 2 },
      digits: 3,
      note: `(${pairsNote(wall)}; job printed ${formatNumber(printed, 3)} s, floor compression alone ${formatNumber(compressOnly, 3)} s)`,
    });
    const writesOf = (r: (typeof runs.floor)[number]) => (r.writes.writeMs + r.writes.flushMs) / 1000;
    const writesAlone = median(runs.floor.map(writesOf));
    ctx.figure('full: its files written alone (one thread, informational)', writesAlone, 's', {
      digits: 3,
      note: `(median; the same ${runs.floor[0]!.writes.files} files written atomically and flushed, nothing rendered or compressed: kernel time on these machines swings from run to run)`,
    });
    // Not the floor: what the ratio would be if the floor also paid for the files the job must write, measured
    // in the same round, so that a reader can tell the machine's file system from our render in the ratio above.
    const withWrites = ratioOf(runs.floor.map((r) => r.run.wallMs / 1000 + writesOf(r)), runs.subject.map((r) => r.run.wallMs / 1000));
    ctx.compare('full against floor + its files written (informational)', withWrites.value, withWrites.floor, 's', {
      digits: 3,
      note: `(${pairsNote(withWrites)}; each round's floor process wall plus its writes alone, one after the other, not at once)`,
    });
    const rss = runs.subject.map((r) => r.run.maxRssKb);
    if (rss.some((kb) => kb === null)) ctx.check('full: peak RSS measured', false, 'neither /usr/bin/time -v nor the preload reported it');
    else {
      const worst = Math.max(...(rss as number[])) / 1024;
      ctx.figure('full: peak RSS (worst run)', worst, 'MB', { target: { max: 300, exclusive: true }, note: `(${runs.subject[0]!.run.rssSource})` });
    }
    const notAll = runs.subject.filter((r) => r.printed.rendered !== data.events || r.printed.events !== data.events);
    ctx.check('full: every event rendered, every run', notAll.length === 0, notAll.map((r) => `${r.printed.rendered ?? '?'} of ${data.events}`).join(', '));
    const moved = runs.subject.flatMap((r) => differentBytes(warm.after, r.after));
    ctx.check('full: every run writes the bytes of the one-thread render', moved.length === 0, moved.length ? groupVariants([...new Set(moved)]).slice(0, 5).join(', ') : '');
    const floorOut = runs.floor.map((r) => r.result);
    ctx.check(
      'floor: its gzip + brotli bytes = the render\'s .gz + .br files',
      floorOut.every((r) => r.files === input.files && r.outBytes === input.variantBytes),
      `${floorOut[0]?.files} files → ${floorOut[0]?.outBytes} bytes; the render: ${input.files} files, ${input.variantBytes} bytes of variants`,
    );
    const afterFull = runs.subject[runs.subject.length - 1]!.after;
    fs.rmSync(asideDir, { recursive: true, force: true });

    // (b) Nothing changed in the database.
    console.log('\n   (b) second run, nothing changed');
    const nothing = await regenerateOnce(ctx, env);
    const afterNothing = snapshot(data.artifactsDir);
    const diffNothing = diffSnapshots(afterFull, afterNothing);
    reportTimes(ctx, 'no change', nothing.run, nothing.printed, 1);
    ctx.check('no change: printed "files written 0"', nothing.printed.written === 0, `files written ${nothing.printed.written ?? '?'}`);
    const touched = [...diffNothing.rewritten, ...diffNothing.added, ...diffNothing.removed];
    ctx.check('no change: no file touched on disk (inode/mtime/size)', touched.length === 0, touched.length ? `${touched.length}: ${groupVariants(touched).slice(0, 5).join(', ')}` : '');

    // (c) One league result: a scheduled match becomes completed 2-1.
    console.log('\n   (c) one match result recorded');
    const sqlite = openSqlite(env.DATABASE_PATH!);
    let match: { id: string; event_id: string; home_team_id: string; away_team_id: string } | undefined;
    try {
      match = sqlite
        .prepare(
          `SELECT m.id, m.event_id, m.home_team_id, m.away_team_id FROM matches m JOIN events e ON e.id = m.event_id
           WHERE e.is_public = 1 AND e.competition_type = 'league' AND e.status = 'in_progress' AND m.status = 'scheduled'
             AND m.home_team_id IS NOT NULL AND m.away_team_id IS NOT NULL
           ORDER BY e.starts_at DESC, m.round_ordinal, m.bracket_position, m.id LIMIT 1`,
        )
        .get() as typeof match;
      if (match) {
        sqlite
          .prepare(`UPDATE matches SET status = 'completed', home_score = 2, away_score = 1 WHERE id = ?`)
          .run(match.id);
      }
    } finally {
      sqlite.close();
    }
    if (!match) {
      ctx.skip('one change', 'the dataset has no scheduled league match in an in-progress league (dataset too small?)');
      return;
    }
    ctx.info(`UPDATE matches SET status = 'completed', home_score = 2, away_score = 1 WHERE id = '${match.id}' (event ${match.event_id})`);
    const change = await regenerateOnce(ctx, env);
    const afterChange = snapshot(data.artifactsDir);
    const diff = diffSnapshots(afterNothing, afterChange);
    reportTimes(ctx, 'one change', change.run, change.printed, 1);
    ctx.check('one change: only that event re-rendered', change.printed.rendered === 1, `${change.printed.rendered ?? '?'} rendered`);
    const identityRewritten = diff.rewritten.filter((f) => !/\.(gz|br)$/.test(f) && f !== '.manifest.json');
    ctx.info(`files rewritten on disk (${diff.rewritten.length}): ${groupVariants(diff.rewritten).join(', ') || 'none'}`);
    if (diff.added.length || diff.removed.length) ctx.info(`added: ${diff.added.join(', ') || 'none'}; removed: ${diff.removed.join(', ') || 'none'}`);
    ctx.info(`files whose bytes changed (${diff.contentChanged.length}): ${groupVariants(diff.contentChanged).join(', ') || 'none'}`);
    ctx.check(
      'one change: printed "files written" = artifacts rewritten',
      change.printed.written === identityRewritten.length,
      `printed ${change.printed.written ?? '?'}, on disk ${identityRewritten.length}`,
    );
    ctx.check(
      'one change: no file rewritten with identical bytes',
      diff.rewrittenSameContent.length === 0,
      diff.rewrittenSameContent.length ? groupVariants(diff.rewrittenSameContent).join(', ') : '',
    );
    ctx.check(
      'one change: every changed file was rewritten',
      diff.contentChanged.every((f) => diff.rewritten.includes(f)),
    );
    const { home_team_id: home, away_team_id: away } = match;
    const own = (f: string) =>
      f.startsWith(`api/v0/events/${match.event_id}/`) || f.startsWith(`api/v0/calendar/${match.event_id}.`) ||
      f.startsWith(`api/v0/teams/${home}.`) || f.startsWith(`api/v0/teams/${away}.`) ||
      f.startsWith('api/v0/events.json') || f === '.manifest.json';
    ctx.check('one change: only that event’s files and its two teams’ calendars (+ list, manifest) touched', diff.rewritten.every(own) && diff.added.length === 0 && diff.removed.length === 0);
    ctx.check(
      'one change: its standings and calendar were updated',
      diff.contentChanged.includes(`api/v0/events/${match.event_id}/standings.json`) &&
        diff.contentChanged.includes(`api/v0/calendar/${match.event_id}.ics`),
    );
  },
};

export default scenario;
