// The secrets in email links (follow confirm / unsubscribe, RSVP): minted when the email is sent, stored only
// as SHA-256 hashes with what they open, and checked in constant time. One row per link: an email that is
// retried mints new links, and the links of earlier attempts (or earlier emails) keep working until they expire.
import type { SyncDb } from '../db/sync.js';
import { hashToken, isTokenShaped, newToken, tokenMatches } from './tokens.js';

import type { LinkPurpose } from '../db/schema.js';

export type { LinkPurpose };

/** The links of a follow (its subject a follow's id): confirm, and unsubscribe. */
export const FOLLOW_LINK_PURPOSES = ['follow-confirm', 'follow-unsubscribe'] as const satisfies readonly LinkPurpose[];

/** Creates a token for `subjectId` and stores its hash; call inside a transaction. Returns the raw token. */
export function mintLinkToken(
  store: SyncDb,
  link: { purpose: LinkPurpose; subjectId: string; now: Date; expiresAt: Date | null },
): string {
  const token = newToken();
  store.run(
    store.q.insertInto('link_tokens').values({
      hash: hashToken(token),
      purpose: link.purpose,
      subject_id: link.subjectId,
      created_at: link.now.toISOString(),
      expires_at: link.expiresAt?.toISOString() ?? null,
    }),
  );
  return token;
}

export interface FoundLink {
  subjectId: string;
  expired: boolean;
}

/** What a presented token opens, or undefined for anything that is not one of our tokens for this purpose. */
export function findLinkToken(store: SyncDb, purpose: LinkPurpose, token: string, now: Date): FoundLink | undefined {
  if (!isTokenShaped(token)) return undefined;
  const row = store.first(
    store.q.selectFrom('link_tokens').select(['hash', 'subject_id', 'expires_at'])
      .where('hash', '=', hashToken(token)).where('purpose', '=', purpose),
  );
  if (!row || !tokenMatches(token, row.hash)) return undefined;
  return { subjectId: row.subject_id, expired: row.expires_at !== null && Date.parse(row.expires_at) < now.getTime() };
}
