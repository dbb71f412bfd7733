// A database restored from a backup goes back in time, and its matches' SEQUENCE with it, below what calendar apps
// already read from the feeds rendered since the backup: an operator's review restored one, moved a match, and the
// feed gave it the SEQUENCE subscribers had already seen with another kickoff, so Google Calendar kept the old one
// (README, Calendars: a UID's SEQUENCE never goes down). The artifacts folder remembers. Each folder has an id of its
// own in its manifest; each render that changes it writes a new token (renderTokenOf) into the manifest and into the
// database, under that id (render_folders: one database may render into several folders). A database whose token for
// the folder is not the manifest's, or that has none, is older than what the folder published. Its competitions'
// matches are then raised past the highest SEQUENCE each one rendered (its manifest entry's `sequence`), before the
// render reads them. (A first version compared the competitions' revisions, which changes made after the restore and
// before the render caught up with.)
import { sql } from 'kysely';
import { retryWhileBusy, type Db } from '../db/connect.js';
import { newId } from '../security/tokens.js';
import type { ManifestEvent } from './render-organization.js';
import { contentHash } from './store.js';

/** A new folder's id. */
export const newFolderId = (): string => newId('fld');

/**
 * A manifest's token: its own content's hash, its token aside. Revisions only rise, so no two states of a folder share
 * one, and two renders of the same data (one thread or several) write the same bytes, manifest included.
 */
export function renderTokenOf(manifest: { renderToken?: string }): string {
  return contentHash(JSON.stringify({ ...manifest, renderToken: undefined }));
}

/**
 * Whether the database went back behind the folder: the manifest (of this installation) names its folder and its
 * token, and the database's token for that folder (null: none) is another. Pure.
 */
export function wentBack(
  manifest: { installation?: string; folder?: string; renderToken?: string },
  database: { installation: string; token: string | null },
): boolean {
  return manifest.installation === database.installation && manifest.folder !== undefined && manifest.renderToken !== undefined &&
    manifest.renderToken !== database.token;
}

/** The database's token for `folder`, null when it has none. */
export async function folderToken(db: Db, folder: string | undefined): Promise<string | null> {
  if (folder === undefined) return null;
  return (await db.selectFrom('render_folders').select('token').where('folder', '=', folder).executeTakeFirst())?.token ?? null;
}

/** How long a render waits to record its token while another process holds the write lock. */
const TOKEN_WAIT_MS = 120_000;

/** Records the folder's new token in the database. */
export async function recordFolderToken(db: Db, folder: string, token: string): Promise<void> {
  // Waited for on a timer while another process holds the write lock (the server's connections wait only briefly):
  // a token not recorded would be taken for a restore by the next render, which raises every calendar's SEQUENCE once.
  // Two minutes, not a write's 10 s (the diff review: a lock held longer made the next render do just that), which
  // outlasts an import's transaction.
  await retryWhileBusy(() => db.insertInto('render_folders').values({ folder, token }).onConflict((oc) => oc.column('folder').doUpdateSet({ token })).execute(), TOKEN_WAIT_MS);
}

/**
 * Raises each match of the competitions the folder rendered past the highest SEQUENCE rendered there, and each such
 * competition's revision, so that the render writes it again; in one transaction; how many competitions.
 */
export async function raiseRestoredCalendars(db: Db, rendered: Record<string, Pick<ManifestEvent, 'revision' | 'sequence'>>, now: Date): Promise<number> {
  const raised = Object.entries(rendered).filter(([, e]) => e.sequence !== undefined);
  if (raised.length === 0) return 0;
  await retryWhileBusy(() => db.transaction().execute(async (trx) => {
    for (const [id, e] of raised) {
      // SEQUENCE, DTSTAMP and the revision only: no trigger watches them, so nothing else is raised.
      await trx.updateTable('matches')
        .set({ sequence: sql<number>`max(sequence, ${e.sequence}) + 1`, updated_at: now.toISOString() })
        .where('event_id', '=', id).execute();
      // Past the revision the folder rendered, not one more than the restored one: a restore after one change came back
      // to the very revision the manifest held, and the render trusted it (a user's check found the old feed kept).
      await trx.updateTable('events').set({ revision: sql<number>`max(revision, ${e.revision}) + 1` }).where('id', '=', id).execute();
    }
  }));
  return raised.length;
}
