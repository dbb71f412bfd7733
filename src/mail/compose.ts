// Turns an outbox row into the email that leaves, at send time: its data is checked against its template and
// against what still holds (its kind's atSend: an email may have waited a day in the outbox), the links it carries
// are minted (only their hashes are stored, in the same transaction), then it is rendered.
import type { OutboxMessage } from '../db/schema.js';
import type { SyncDb } from '../db/sync.js';
import { mintLinkToken } from '../security/link-tokens.js';
import { CATALOG, isTemplateName, organizationContact, type EmailKind, type RenderContext, type SentEmail } from './catalog.js';
import type { z } from 'zod';

/** A row that can never be sent as it is (unknown template, data that no longer fits it). */
export class CorruptOutboxRowError extends Error {
  override name = 'CorruptOutboxRowError';
}

/** An email the worker does not send: what it said is no longer wanted or no longer public (send-time.ts). */
export interface CancelledEmail {
  cancelled: string;
}

/**
 * What the worker sends for a row: its kind's send-time check first (`atSend`: the follow still active, its
 * competitions still public), then the links and the render, in one transaction, so that no link is minted for an
 * email that is not sent. Throws CorruptOutboxRowError for a row that can never be sent.
 */
export function composeForSending(
  store: SyncDb,
  row: Pick<OutboxMessage, 'template' | 'data_json' | 'to_address'>,
  context: { baseUrl: string; now: Date },
): SentEmail | CancelledEmail {
  return compose(store, row, context, { to: row.to_address });
}

/**
 * Renders a row as it was queued, without the send-time check: for previews and tests that need its links.
 * The worker sends through composeForSending.
 */
export function composeEmail(
  store: SyncDb,
  row: Pick<OutboxMessage, 'template' | 'data_json'>,
  context: { baseUrl: string; now: Date },
): SentEmail {
  return compose(store, row, context, null) as SentEmail;
}

function compose(
  store: SyncDb,
  row: Pick<OutboxMessage, 'template' | 'data_json'>,
  context: { baseUrl: string; now: Date },
  /** The send-time check's facts of the row (its address), or null: no check. */
  check: { to: string } | null,
): SentEmail | CancelledEmail {
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
  const kindAtSend = kind.atSend;
  const atSend = check !== null && kindAtSend ? (data: unknown) => kindAtSend(store, data, context.now, check.to) : undefined;
  if (specs.length === 0 && !atSend && !kind.organizationOf) return kind.render(parsed.data, {}, context);
  const ready = store.transaction((): { data: unknown; links: Record<string, string>; contact: string | null } | CancelledEmail => {
    let data: unknown = parsed.data;
    if (atSend) {
      const decision = atSend(data);
      if ('cancel' in decision) return { cancelled: decision.cancel };
      data = decision.send;
    }
    const links: Record<string, string> = {};
    for (const [name, spec] of specs) {
      if (spec.when && !spec.when(data)) continue;
      const token = mintLinkToken(store, {
        purpose: spec.purpose,
        subjectId: spec.subject(data),
        now: context.now,
        expiresAt: spec.ttlMs === undefined ? null : new Date(context.now.getTime() + spec.ttlMs),
      });
      links[name] = `${context.baseUrl}${spec.path}?token=${token}`;
    }
    // Read as it leaves, as the rest of the send-time check: a contact the organization changed or removed since.
    const contact = kind.organizationOf ? organizationContact(store, kind.organizationOf(store, data)) : null;
    return { data, links, contact };
  });
  if ('cancelled' in ready) return ready;
  const withContact: RenderContext = { ...context, contact: ready.contact };
  const email = kind.render(ready.data, ready.links, withContact);
  // Replies reach the organization, not MAIL_FROM's no-reply mailbox: a parent answering a receipt, a player an
  // invitation. An email whose kind chose its own Reply-To keeps it.
  return ready.contact !== null && email.replyTo === undefined ? { ...email, replyTo: ready.contact } : email;
}
