// Regeneration of the read artifacts with the real `scripts/regenerate.ts`, each run a separate process
// (so its peak RSS is its own):
//   (a) full render of the whole dataset into an empty ARTIFACTS_DIR: ≤ 20 s, peak RSS < 300 MB;
//   (b) a second run with nothing changed: ≤ 1 s, no file written ("files written 0" and no mtime moved);
//   (c) one league result recorded: ≤ 1 s, only the files whose bytes changed are rewritten.
// The process wall time includes node + tsx start-up (and module loading); the "ms" figure is what the
// script itself reports for the regeneration.
import fs from 'node:fs';
import os from 'node:os';
import { openSqlite } from '../../src/db/connect.js';
import { diffSnapshots, groupVariants, snapshot } from '../artifacts.js';
import type { BenchContext, MeasuredRun, Scenario } from '../types.js';

// The one-shot command: the same job function (src/jobs/regenerate.ts) the server's loop runs every minute.
const SCRIPT = 'scripts/regenerate.ts';

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
  const run = await ctx.runNodeScript(SCRIPT, env, 5 * 60_000);
  if (run.timedOut) throw new Error(`${SCRIPT} did not finish within 5 minutes`);
  if (run.code !== 0) throw new Error(`${SCRIPT} failed (exit ${run.code ?? run.signal}):\n${run.stdout}${run.stderr}`);
  const printed = parseLine(run.stdout);
  ctx.info(`printed: ${printed.line}`);
  const cpu = run.cpu ? `CPU ${run.cpu.user.toFixed(2)} s user + ${run.cpu.system.toFixed(2)} s system, ` : '';
  ctx.info(`${cpu}load average before the run ${loadBefore.toFixed(2)}`);
  return { run, printed };
}

function reportTimes(ctx: BenchContext, label: string, run: MeasuredRun, printed: Printed, maxS: number): void {
  if (printed.ms === null) ctx.check(`${label}: the script printed its "N ms"`, false, printed.line);
  else ctx.figure(`${label}: regeneration (printed ms)`, printed.ms / 1000, 's', { target: { max: maxS }, digits: 3 });
  ctx.figure(`${label}: process wall`, run.wallMs / 1000, 's', {
    target: { max: maxS },
    digits: 3,
    note: '(node + tsx start-up included)',
  });
}

const scenario: Scenario = {
  name: 'regenerate',
  summary: 'scripts/regenerate.ts: full render (≤ 20 s, RSS < 300 MB), no-change run and one-result run (≤ 1 s, minimal writes)',
  async run(ctx) {
    const data = await ctx.dataset();
    const env = data.env;

    // What every run pays before the script's first line: node + the tsx loader (best of 3).
    let startupMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const r = await ctx.run(process.execPath, ['--import', 'tsx', '-e', '0'], { timeoutMs: 30_000 });
      if (r.code === 0) startupMs = Math.min(startupMs, r.wallMs);
    }
    if (Number.isFinite(startupMs)) {
      ctx.figure('node + tsx start-up alone (best of 3)', startupMs / 1000, 's', { digits: 3, note: '(part of every process wall below)' });
    }

    // (a) Full regeneration into an empty directory.
    console.log(`\n   (a) full regeneration: ${data.events} events, ${data.matches} matches → empty ARTIFACTS_DIR`);
    fs.rmSync(data.artifactsDir, { recursive: true, force: true });
    ctx.artifactsAreFresh(false);
    const full = await regenerateOnce(ctx, env);
    reportTimes(ctx, 'full', full.run, full.printed, 20);
    if (full.run.maxRssKb === null) ctx.check('full: peak RSS measured', false, 'neither /usr/bin/time -v nor the preload reported it');
    else ctx.figure('full: peak RSS', full.run.maxRssKb / 1024, 'MB', { target: { max: 300, exclusive: true }, note: `(${full.run.rssSource})` });
    ctx.check('full: every event rendered', full.printed.rendered === data.events && full.printed.events === data.events, `${full.printed.rendered ?? '?'} of ${data.events}`);
    const afterFull = snapshot(data.artifactsDir);
    const bytes = [...afterFull.values()].reduce((sum, f) => sum + Number(f.size), 0);
    ctx.info(`${afterFull.size} files on disk, ${(bytes / 1e6).toFixed(1)} MB (identity + .gz + .br, and the manifest)`);
    ctx.artifactsAreFresh(true);

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
    let match: { id: string; event_id: string } | undefined;
    try {
      match = sqlite
        .prepare(
          `SELECT m.id, m.event_id FROM matches m JOIN events e ON e.id = m.event_id
           WHERE e.is_public = 1 AND e.competition_type = 'league' AND e.status = 'in_progress' AND m.status = 'scheduled'
             AND m.home_team_id IS NOT NULL AND m.away_team_id IS NOT NULL
           ORDER BY e.starts_at DESC, m.round_ordinal, m.bracket_position, m.id LIMIT 1`,
        )
        .get() as { id: string; event_id: string } | undefined;
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
    const own = (f: string) =>
      f.startsWith(`api/v0/events/${match.event_id}/`) || f.startsWith(`api/v0/calendar/${match.event_id}.`) ||
      f.startsWith('api/v0/events.json') || f === '.manifest.json';
    ctx.check('one change: only that event’s files (+ list, manifest) touched', diff.rewritten.every(own) && diff.added.length === 0 && diff.removed.length === 0);
    ctx.check(
      'one change: its standings and calendar were updated',
      diff.contentChanged.includes(`api/v0/events/${match.event_id}/standings.json`) &&
        diff.contentChanged.includes(`api/v0/calendar/${match.event_id}.ics`),
    );
  },
};

export default scenario;
