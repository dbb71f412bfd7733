// The folder's record kept in the bucket its reads are published to (FOLDER_RECORD_KEY, put by the publisher, s3/publish.ts):
// its id, its render token and each competition's highest SEQUENCE and revision, as its manifest has them. A database
// restored from a backup is found behind its folder by the manifest (restored-calendars.ts); restored on a new machine,
// with an empty ARTIFACTS_DIR, nothing told it, and feeds went out with SEQUENCEs subscribers had already seen with other
// kickoffs, which Google Calendar keeps (README, Calendars). The first render into an empty folder reads this record
// instead (jobs/regenerate.ts, when a bucket is configured), raises what went back, then goes on under an id of its
// own: under the record's, a second folder of the same database (a release's, a command's) and the first took each
// other's tokens for a restore at every render (a review).
import crypto from 'node:crypto';
import { z } from 'zod';
import type { Manifest } from './regenerate.js';

/** Under the prefix, beside PUBLISHED_BY_KEY: a key no read has (a start-over publish never deletes it). */
export const FOLDER_RECORD_KEY = '.competitions/render-folder.json';

const recordSchema = z.object({
  /** installationDigest of the database that rendered the folder (the object may be public: not the id itself). */
  installation: z.string(),
  folder: z.string(),
  renderToken: z.string(),
  events: z.record(z.string(), z.object({ revision: z.number().int(), sequence: z.number().int().optional() })),
});
export type FolderRecord = z.output<typeof recordSchema>;

/** What a bucket may show of a database's installation id: a digest, the same one PUBLISHED_BY_KEY holds. */
export function installationDigest(installation: string): string {
  return crypto.createHash('sha256').update(`competitions installation ${installation}`).digest('hex');
}

/** The record of a manifest; null for one from before manifests named their database, folder and token. */
export function folderRecordOf(manifest: Manifest): FolderRecord | null {
  if (manifest.installation === undefined || manifest.folder === undefined || manifest.renderToken === undefined) return null;
  const events: FolderRecord['events'] = {};
  for (const [id, e] of Object.entries(manifest.events)) events[id] = e.sequence === undefined ? { revision: e.revision } : { revision: e.revision, sequence: e.sequence };
  return { installation: installationDigest(manifest.installation), folder: manifest.folder, renderToken: manifest.renderToken, events };
}

/** A record read back from the bucket; null when it is not one (damaged, or of a later release's shape). */
export function parseFolderRecord(text: string): FolderRecord | null {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
