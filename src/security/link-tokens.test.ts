// What a link from an email opens (findLinkToken), on a real SQLite file with the real migrations: links minted as the
// mail worker mints them (mintLinkToken), only their hashes stored.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../../test/support/db.js';
import { SyncDb } from '../db/sync.js';
import { CONFIRM_LINK_TTL_MS } from '../mail/catalog.js';
import { findLinkToken, mintLinkToken } from './link-tokens.js';

let t: TestDb;
let store: SyncDb;
/** When the follow's confirmation was sent: its confirm link opens for 7 days from then. */
const SENT = new Date('2025-09-06T08:30:00Z');
beforeEach(async () => {
  t = await migratedDb();
  store = new SyncDb(t.sqlite);
});
afterEach(async () => t.close());

it.each<[string, number, boolean]>([
  ['the day it was sent', 3600_000, false],
  ['a millisecond before its 7 days are up', CONFIRM_LINK_TTL_MS - 1, false],
  // It expires after 7 days (README): its expires_at is the last instant it still opens, and a click then confirms.
  ['at the very instant its 7 days are up', CONFIRM_LINK_TTL_MS, false],
  ['a millisecond later', CONFIRM_LINK_TTL_MS + 1, true],
  ['a month later', 30 * 86_400_000, true],
])("a follow's confirm link, %s", (_label, after, expired) => {
  const token = store.transaction(() =>
    mintLinkToken(store, { purpose: 'follow-confirm', subjectId: 'fol_riverside_u12', now: SENT, expiresAt: new Date(SENT.getTime() + CONFIRM_LINK_TTL_MS) }),
  );
  expect(findLinkToken(store, 'follow-confirm', token, new Date(SENT.getTime() + after))).toEqual({ subjectId: 'fol_riverside_u12', expired });
});
