// The regeneration job: every public read rendered into ARTIFACTS_DIR from one snapshot of the database
// (src/publish/regenerate.ts), then the write-ahead log folded back into the database file. The start-up
// render, the server's loop and `npm run regenerate` all run this one function.
import { checkpointWal } from '../db/checkpoint.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { formatResult, regenerate, regenerateOptions } from '../publish/regenerate.js';
import type { S3Settings } from '../publish/s3/object-store.js';
import { formatPublish, publishArtifacts } from '../publish/s3/publish.js';
import { calendarUidDomain } from '../publish/uid-domain.js';
import type { Job } from './scheduler.js';

export const REGENERATE_JOB = 'regenerate';

/** One run; resolves with its one-line summary. The schema must be migrated already (the server and CLIs do it). */
export async function runRegeneration(config: Config): Promise<string> {
  return (await regenerateAndPublish(config)).line;
}

/** One run, and whether its publish to the bucket failed (`npm run regenerate` then exits non-zero). */
export async function regenerateAndPublish(config: Config): Promise<{ line: string; publishFailed: boolean }> {
  // Its own connection: the render holds one read snapshot across many awaits, which the server's writer
  // connection (synchronous write transactions) must never be inside.
  const reader = await openDatabase(config.databasePath, { migrate: false });
  try {
    const uidDomain = await calendarUidDomain(reader.db, config.publicBaseUrl);
    const result = await regenerate(reader.db, regenerateOptions(config, uidDomain));
    const line = `${formatResult(result)}${checkpointWal(reader.sqlite) ? '' : ' (WAL checkpoint deferred: the database was busy)'}`;
    if (!config.publishS3) return { line, publishFailed: false };
    const published = await publishToBucket(config.artifactsDir, config.publishS3);
    return { line: `${line}; ${published.line}`, publishFailed: published.failed };
  } finally {
    await reader.close();
  }
}

/**
 * Publishing follows every render, in the same job (so it never reads a half-finished render of another run);
 * a store that fails or is slow costs this job time, never the local artifacts (already in place) or the server.
 */
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

export function regenerationJob(config: Config): Job {
  return { name: REGENERATE_JOB, everyS: config.regenerateEveryS, run: () => runRegeneration(config) };
}
