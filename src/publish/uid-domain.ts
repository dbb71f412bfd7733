// The domain of the calendar UIDs (`match.event@domain`). A UID must never change for the life of a match, or
// calendar apps show the match twice; so the domain is the host of PUBLIC_BASE_URL when the database was first
// rendered, kept in the database from then on, whatever base URL a later run (or another command) is given.
import { retryWhileBusy, type Db } from '../db/connect.js';

export async function calendarUidDomain(db: Db, publicBaseUrl: string): Promise<string> {
  const host = new URL(publicBaseUrl).hostname.toLowerCase();
  // Read first: an UPDATE takes the write lock even when it changes nothing, and every render (the server's, each
  // minute) then waited for whatever other process held it (an on-call review: `regenerate failed: database is locked`).
  const kept = (await db.selectFrom('installation').select('uid_domain').executeTakeFirstOrThrow()).uid_domain;
  if (kept !== null) return kept;
  await retryWhileBusy(() => db.updateTable('installation').set({ uid_domain: host }).where('uid_domain', 'is', null).execute());
  const row = await db.selectFrom('installation').select('uid_domain').executeTakeFirstOrThrow();
  return row.uid_domain ?? host;
}
