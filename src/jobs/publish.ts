// The publish job: the rendered reads to the bucket a CDN serves (src/publish/s3/publish.ts), a job of its own beside
// the regeneration job. A store that is slow, down or refuses one object costs this job time, never a render: in the
// server the render runs on its schedule whatever a publish is doing, and kicks this job after every render that
// changed a file; this job also runs on the render's period, so that what failed is tried again in a quiet hour.
// A publish reads the manifest of the last render that completed and puts only bytes that manifest describes
// (publish.ts): a render running meanwhile never gets a half-rendered set of files into the bucket.
import type { Config } from '../config.js';
import type { S3Settings } from '../publish/s3/object-store.js';
import { formatPublish, publishArtifacts } from '../publish/s3/publish.js';
import { JobRunFailed, type Job } from './scheduler.js';

export const PUBLISH_JOB = 'publish';

/** One publish of what ARTIFACTS_DIR holds; its line, and whether something failed (`npm run regenerate` exits 1). */
export async function publishToBucket(artifactsDir: string, settings: S3Settings): Promise<{ line: string; failed: boolean }> {
  // Loaded only where a bucket is configured: the AWS SDK adds about 17 MB to every process that imports it, and
  // the full render's peak memory has a bound (300 MB).
  const { s3ObjectStore } = await import('../publish/s3/object-store.js');
  const store = s3ObjectStore(settings);
  try {
    const result = await publishArtifacts(artifactsDir, store);
    return { line: formatPublish(store.description, result), failed: result.failed > 0 || result.problem !== null };
  } catch (error) {
    return { line: `publish to ${store.description} failed: ${error instanceof Error ? error.message : String(error)}`, failed: true };
  }
}

/** The server's publish job, when a bucket is configured. */
export function publishJob(config: Config & { publishS3: S3Settings }): Job {
  return {
    name: PUBLISH_JOB,
    everyS: config.regenerateEveryS,
    run: async () => {
      const { line, failed } = await publishToBucket(config.artifactsDir, config.publishS3);
      if (failed) throw new JobRunFailed(line);
      return line;
    },
  };
}
