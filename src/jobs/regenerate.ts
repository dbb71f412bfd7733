// The regeneration job: every public read rendered into ARTIFACTS_DIR from one snapshot of the database
// (src/publish/regenerate.ts), then the write-ahead log folded back into the database file. The start-up
// render, the server's loop and `npm run regenerate` all run this one function. Publishing to the bucket is a job
// of its own (publish.ts): in the server a render never waits for the store; `npm run regenerate` publishes after.
import { checkpointWal } from '../db/checkpoint.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { folderWriteError } from '../folders.js';
import { formatResult, regenerate, regenerateOptions } from '../publish/regenerate.js';
import { FOLDER_RECORD_KEY, parseFolderRecord, type FolderRecord } from '../publish/folder-record.js';
import type { S3Settings } from '../publish/s3/object-store.js';
import { calendarUidDomain } from '../publish/uid-domain.js';
import { publishToBucket } from './publish.js';
import type { Job } from './scheduler.js';

export const REGENERATE_JOB = 'regenerate';

/**
 * One render; its one-line summary, and whether it changed a file. The schema must be migrated already (the server and
 * CLIs do it). `lockWaitMs`: how long to wait for another process's render of the folder (RenderLockHeldError after),
 * `signal`: aborted, no longer (the server stopping).
 */
export async function runRegeneration(
  config: Config,
  options: { lockWaitMs?: number; signal?: AbortSignal; busyTimeoutMs?: number } = {},
): Promise<{ line: string; changed: boolean }> {
  // Its own connection: the render holds one read snapshot across many awaits, which the server's writer
  // connection (synchronous write transactions) must never be inside. In the server, with the server's short busy
  // timeout (src/app/application.ts): its few writes must not hold up every request while another process writes.
  const reader = await openDatabase(config.databasePath, { migrate: false, busyTimeoutMs: options.busyTimeoutMs });
  try {
    const uidDomain = await calendarUidDomain(reader.db, config.publicBaseUrl);
    const result = await regenerate(reader.db, {
      ...regenerateOptions(config, uidDomain),
      lockWaitMs: options.lockWaitMs,
      signal: options.signal,
      ...(config.publishS3 ? { folderRecord: bucketFolderRecord(config.publishS3) } : {}),
    })
      .catch((error: unknown) => {
        throw folderWriteError(error, { name: 'ARTIFACTS_DIR', value: config.artifactsDir }) ?? error;
      });
    const line = `${formatResult(result)}${checkpointWal(reader.sqlite) ? '' : ' (WAL checkpoint deferred: the database was busy)'}`;
    return { line, changed: result.written + result.removed > 0 };
  } finally {
    await reader.close();
  }
}

const FOLDER_RECORD_TIMEOUT_MS = 3_000;

/**
 * The folder's record in the bucket (folder-record.ts), read only by a render into a folder with no manifest: the AWS SDK
 * is loaded then, not by every render (jobs/publish.ts says why). A time limit of a few seconds (3 s a try, two tries):
 * the server's start waits for its first render.
 */
function bucketFolderRecord(settings: S3Settings): () => Promise<FolderRecord | null | string> {
  return async () => {
    const { s3ObjectStore, StoreError } = await import('../publish/s3/object-store.js');
    let text: string | null;
    try {
      text = await s3ObjectStore(settings, { timeoutMs: FOLDER_RECORD_TIMEOUT_MS }).get(FOLDER_RECORD_KEY);
    } catch (error) {
      // Said, and the render goes on: serving never waits for the store (README, Publishing to a bucket).
      if (error instanceof StoreError && error.code === 'AccessDenied') return 'the key may not get it: allow it s3:GetObject';
      return error instanceof Error ? error.message : String(error);
    }
    if (text === null) return null;
    return parseFolderRecord(text) ?? 'it is not a record this release reads';
  };
}

/**
 * `npm run regenerate`: one render, then (with a bucket) one publish of it, in this process; and whether the
 * publish failed (the command then exits non-zero).
 */
export async function regenerateAndPublish(config: Config): Promise<{ line: string; publishFailed: boolean }> {
  const { line } = await runRegeneration(config);
  if (!config.publishS3) return { line, publishFailed: false };
  const published = await publishToBucket(config.artifactsDir, config.publishS3);
  return { line: `${line}; ${published.line}`, publishFailed: published.failed };
}

/**
 * The server's render job; `changed` is called after a render that changed a file (the server kicks the publish job).
 * `busyTimeoutMs`: its connection's (the server's, src/db/connect.ts SERVER_BUSY_TIMEOUT_MS).
 */
export function regenerationJob(config: Config, changed: () => void = () => {}, options: { busyTimeoutMs?: number } = {}): Job {
  return {
    name: REGENERATE_JOB,
    everyS: config.regenerateEveryS,
    run: async (stopping) => {
      const run = await runRegeneration(config, { signal: stopping, busyTimeoutMs: options.busyTimeoutMs });
      if (run.changed) changed();
      return run.line;
    },
  };
}
