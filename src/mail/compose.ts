// Turns an outbox row into the email that leaves, at send time: its data is checked against its template, the
// links it carries are minted (only their hashes are stored, in the same transaction), then it is rendered.
import type { OutboxMessage } from '../db/schema.js';
import type { SyncDb } from '../db/sync.js';
import { mintLinkToken } from '../security/link-tokens.js';
import { CATALOG, isTemplateName, type EmailKind, type SentEmail } from './catalog.js';
import type { z } from 'zod';

/** A row that can never be sent as it is (unknown template, data that no longer fits it). */
export class CorruptOutboxRowError extends Error {
  override name = 'CorruptOutboxRowError';
}

export function composeEmail(
  store: SyncDb,
  row: Pick<OutboxMessage, 'template' | 'data_json'>,
  context: { baseUrl: string; now: Date },
): SentEmail {
  if (!isTemplateName(row.template)) throw new CorruptOutboxRowError(`no template "${row.template}"`);
  const kind = CATALOG[row.template] as EmailKind<z.ZodType>;
  let json: unknown;
  try {
    json = JSON.parse(row.data_json);
  } catch {
    throw new CorruptOutboxRowError('data_json is not JSON');
  }
  const parsed = kind.schema.safeParse(json);
  if (!parsed.success) throw new CorruptOutboxRowError(`data does not fit ${row.template}: ${parsed.error.issues[0]?.message}`);
  const specs = Object.entries(kind.links);
  const links: Record<string, string> = {};
  if (specs.length > 0) {
    store.transaction(() => {
      for (const [name, spec] of specs) {
        const token = mintLinkToken(store, {
          purpose: spec.purpose,
          subjectId: spec.subject(parsed.data),
          now: context.now,
          expiresAt: spec.ttlMs === undefined ? null : new Date(context.now.getTime() + spec.ttlMs),
        });
        links[name] = `${context.baseUrl}${spec.path}?token=${token}`;
      }
    });
  }
  return kind.render(parsed.data, links, { baseUrl: context.baseUrl });
}
