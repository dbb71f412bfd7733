// Followers' updates at scale (issue 12.7), with the real job (`npm run updates`, scripts/launch.mjs updates, each run a
// process of its own so that its peak RSS is its own) on the bench database:
//   (a) the baseline run (the job's first look at the 2,000 events: what exists is not news), for information;
//   (b) 100,000 confirmed follows (one in four of a league, the rest of an organization), then 1,000 match changes
//       (results, moved kick-offs, postponements) in public competitions, then `npm run updates -- --now`:
//       ≤ 60 s (process wall) and ≤ 300 MB peak RSS, every follow in scope of a change gets one digest;
//   (c) the same command again, nothing new: ≤ 1 s as the job prints it, no email queued.
// The targets are the issue's, absolute: no simpler program does this work to set a floor beside it.
import { openSqlite } from '../../src/db/connect.js';
import { formatNumber } from '../context.js';
import type { BenchContext, MeasuredRun, Scenario } from '../types.js';

const FOLLOWS = Number(process.env.BENCH_FOLLOWS ?? 100_000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 1_000);

interface Printed { changes: number; follows: number; emails: number; ms: number; line: string }

function parse(stdout: string): Printed | null {
  const line = stdout.split('\n').find((l) => l.startsWith('updates:'))?.trim();
  const m = line && /^updates: (\d+) changes found, (\d+) follows considered, (\d+) emails queued, (\d+) ms$/.exec(line);
  return m ? { changes: Number(m[1]), follows: Number(m[2]), emails: Number(m[3]), ms: Number(m[4]), line: line! } : null;
}

async function updatesOnce(ctx: BenchContext, env: Record<string, string>, args: string[]): Promise<{ run: MeasuredRun; printed: Printed }> {
  // As `npm run updates` runs it: scripts/launch.mjs, the command's bundle (the bench builds first).
  const run = await ctx.runNodeScript('scripts/launch.mjs', env, 10 * 60_000, ['updates', ...args]);
  if (run.timedOut) throw new Error('npm run updates did not finish within 10 minutes');
  const printed = parse(run.stdout);
  if (run.code !== 0 || !printed) throw new Error(`npm run updates failed (exit ${run.code ?? run.signal}):\n${run.stdout}${run.stderr}`);
  ctx.info(`printed: ${printed.line}`);
  return { run, printed };
}

/** A deterministic pseudo-random sequence (the same follows and changes every run). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
}

const scenario: Scenario = {
  name: 'updates',
  summary: `followers' updates: ${formatNumber(FOLLOWS)} follows, ${formatNumber(CHANGES)} match changes (≤ 60 s, ≤ 300 MB), then a quiet run (≤ 1 s)`,
  async run(ctx) {
    const ds = await ctx.dataset();
    const env: Record<string, string> = { ...ds.env, MAIL_TRANSPORT: 'file', ENV_FILE: 'none' };
    ctx.info('baseline: the job\'s first run records what exists');
    const baseline = await updatesOnce(ctx, env, ['--now']);
    ctx.figure('updates: baseline run (process wall)', baseline.run.wallMs / 1000, 's', { digits: 1 });

    const sqlite = openSqlite(env.DATABASE_PATH!);
    const random = lcg(12);
    let inScope = 0;
    try {
      const leagues = sqlite.prepare(`SELECT l.id, l.org_id FROM leagues l ORDER BY l.id`).all() as { id: string; org_id: string }[];
      const newest = (sqlite.prepare(`SELECT coalesce(max(id), 0) AS id FROM update_changes`).get() as { id: number }).id;
      const insert = sqlite.prepare(
        `INSERT INTO follows (id, org_id, league_id, email, status, confirmed_at, told_through, alerted_through)
         VALUES (?, ?, ?, ?, 'active', '2026-01-01T00:00:00Z', ?, ?)`,
      );
      sqlite.transaction(() => {
        for (let i = 0; i < FOLLOWS; i++) {
          const league = leagues[Math.floor(random() * leagues.length)]!;
          const byLeague = random() < 0.25;
          insert.run(`fol_bench_${i}`, league.org_id, byLeague ? league.id : null, `fan${i}@bench.example`, newest, newest);
        }
      })();
      // Changes: scheduled matches of public events get a result, a new kick-off or a postponement.
      const scheduled = sqlite.prepare(
        `SELECT m.id, m.kickoff_at FROM matches m JOIN events e ON e.id = m.event_id
         WHERE e.is_public = 1 AND m.status = 'scheduled' AND m.home_team_id IS NOT NULL AND m.away_team_id IS NOT NULL ORDER BY m.id`,
      ).all() as { id: string; kickoff_at: string | null }[];
      const picked = new Set<number>();
      while (picked.size < Math.min(CHANGES, scheduled.length)) picked.add(Math.floor(random() * scheduled.length));
      const result = sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = ?, away_score = ? WHERE id = ?`);
      const move = sqlite.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`);
      const postpone = sqlite.prepare(`UPDATE matches SET status = 'postponed' WHERE id = ?`);
      sqlite.transaction(() => {
        for (const i of picked) {
          const m = scheduled[i]!;
          const r = random();
          if (r < 0.6) result.run(Math.floor(random() * 4), Math.floor(random() * 4), m.id);
          else if (r < 0.9) move.run(new Date(Date.parse(m.kickoff_at ?? '2027-01-01T00:00:00Z') + 86_400_000).toISOString().replace('.000Z', 'Z'), m.id);
          else postpone.run(m.id);
        }
      })();
      ctx.info(`${formatNumber(FOLLOWS)} confirmed follows and ${formatNumber(picked.size)} match changes written`);
      inScope = picked.size;
    } finally {
      sqlite.close();
    }

    const busy = await updatesOnce(ctx, env, ['--now']);
    ctx.figure('updates: changes found', busy.printed.changes, 'changes', { target: { min: inScope } });
    ctx.figure('updates: emails queued', busy.printed.emails, 'emails');
    ctx.figure(`updates: ${formatNumber(FOLLOWS)} follows × ${formatNumber(inScope)} changes (process wall)`, busy.run.wallMs / 1000, 's', { target: { max: 60 }, digits: 1 });
    ctx.figure('updates: the job itself (printed ms)', busy.printed.ms / 1000, 's', { digits: 2 });
    if (busy.run.maxRssKb !== null) ctx.figure('updates: peak RSS', busy.run.maxRssKb / 1024, 'MB', { target: { max: 300 }, digits: 0 });
    else ctx.skip('updates: peak RSS', 'no way to read the peak RSS of a child here (install GNU time: apt-get install time)');

    const quiet = await updatesOnce(ctx, env, ['--now']);
    ctx.figure('updates: a run with nothing new (printed ms)', quiet.printed.ms / 1000, 's', { target: { max: 1 }, digits: 3 });
    ctx.check('updates: a run with nothing new queues no email', quiet.printed.emails === 0, quiet.printed.line);
  },
};

export default scenario;
