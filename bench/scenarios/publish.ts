// Publishing the reads to a bucket (issue 14) against a real S3 implementation on this machine: Ceph's RADOS
// Gateway (test/support/ceph-rgw.ts), the full dataset's artifacts:
//   (a) the first publish of every object (time, objects put), for information;
//   (b) a quiet run: 0 PUTs, ≤ 1 s;
//   (c) one league result recorded and regenerated, then published: the PUT count (that event's standings and
//       calendar, its two teams' calendars, each calendar also under its `.ics` URL) and the time, ≤ 1 s.
// Publishing runs in-process here (src/publish/s3/publish.ts, the function the publish job and `npm run regenerate` call).
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { openSqlite } from '../../src/db/connect.js';
import { s3ObjectStore } from '../../src/publish/s3/object-store.js';
import { publishArtifacts, type PublishResult } from '../../src/publish/s3/publish.js';
import { gatewayUnavailable, startGateway } from '../../test/support/ceph-rgw.js';
import { runRegenerationJob } from '../regeneration-job.js';
import type { Scenario } from '../types.js';

const scenario: Scenario = {
  name: 'publish',
  summary: 'publishing the reads to Ceph RGW: the first publish, a quiet run (0 PUTs), one result (PUTs, time)',
  async run(ctx) {
    const unavailable = gatewayUnavailable();
    if (unavailable) return ctx.skip('publish', unavailable);
    const ds = await ctx.dataset();
    await ctx.ensureArtifacts();
    const gw = await startGateway();
    try {
      process.env.AWS_ACCESS_KEY_ID = gw.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY = gw.secretAccessKey;
      const bucket = 'bench-reads';
      await new S3Client({ region: 'us-east-1', endpoint: gw.endpoint, forcePathStyle: true }).send(new CreateBucketCommand({ Bucket: bucket }));
      const store = s3ObjectStore({ bucket, endpoint: gw.endpoint, region: 'us-east-1', prefix: '', forcePathStyle: true });
      const publish = async (label: string): Promise<PublishResult> => {
        const r = await publishArtifacts(ds.artifactsDir, store);
        ctx.info(`${label}: ${r.put} put / ${r.unchanged} unchanged / ${r.deleted} deleted, ${r.failed} failed, ${r.ms} ms${r.problem ? ` (${r.problem})` : ''}`);
        return r;
      };
      const first = await publish('first publish');
      ctx.figure('publish: first publish of every object', first.ms / 1000, 's', { digits: 1 });
      ctx.check('publish: every object put, none failed', first.failed === 0 && first.put > 0, `${first.put} put`);
      const quiet = await publish('quiet run');
      ctx.figure('publish: quiet run, PUTs', quiet.put, 'PUTs', { target: { max: 0 } });
      ctx.figure('publish: quiet run, time', quiet.ms / 1000, 's', { target: { max: 1 }, digits: 3 });

      const sqlite = openSqlite(ds.env.DATABASE_PATH!);
      let match: { id: string } | undefined;
      try {
        match = sqlite.prepare(
          `SELECT m.id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 AND e.competition_type = 'league'
           AND m.status = 'scheduled' AND m.home_team_id IS NOT NULL AND m.away_team_id IS NOT NULL ORDER BY m.id LIMIT 1`,
        ).get() as { id: string } | undefined;
        if (match) sqlite.prepare(`UPDATE matches SET status = 'completed', home_score = 1, away_score = 1 WHERE id = ?`).run(match.id);
      } finally {
        sqlite.close();
      }
      if (!match) return ctx.skip('publish: one result', 'no scheduled league match in the dataset');
      const regen = await runRegenerationJob(ctx, ds.env, 5 * 60_000);
      if (regen.code !== 0) throw new Error(`regeneration failed:\n${regen.stdout}${regen.stderr}`);
      const one = await publish(`one result (${match.id})`);
      ctx.figure('publish: one result, PUTs (standings, calendar and two team calendars, each calendar under its two URLs)', one.put, 'PUTs', { target: { max: 7 } });
      ctx.figure('publish: one result, time', one.ms / 1000, 's', { target: { max: 1 }, digits: 3 });
    } finally {
      await gw.stop();
    }
  },
};

export default scenario;
