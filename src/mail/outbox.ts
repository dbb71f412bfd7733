// The email outbox: mail is written here in the same transaction as the change that causes it, and
// leaves through the worker (worker.ts). Timestamps are RFC 3339 UTC with milliseconds, the format of
// the schema's strftime('%Y-%m-%dT%H:%M:%fZ') defaults, so they compare correctly as strings.
import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { DB, EmailOutboxTable, OutboxMessage } from '../db/schema.js';
import type { SyncDb } from '../db/sync.js';
import { InvalidOutgoingEmailError, parseMailbox, validateExtraHeaders } from './headers.js';

export { InvalidOutgoingEmailError };

export interface OutgoingEmail {
  /** A single recipient: a bare address or `Name <address>`. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
  /** A short category for logs and the provider's statistics, e.g. `follow-confirm`. */
  tag?: string;
}

/** When a queued message was created and when it may first go out; both default to the database's now. */
export interface EnqueueTiming {
  /** The caller's clock (a service's `now`), so per-address throttles can count by created_at. Also the first due time. */
  createdAt?: string | Date;
  /** Not before this instant (overrides createdAt as the first due time). */
  notBefore?: string | Date;
}

type DbOrTx = Kysely<DB> | Transaction<DB>;

/** The schema's timestamp format: `2026-11-21T22:45:42.966Z`. */
export function toTimestamp(date: Date): string {
  return date.toISOString();
}

const CONTROL = /[\u0000-\u001f\u007f]/;

function validate(msg: OutgoingEmail): OutgoingEmail {
  const to = msg.to.trim();
  parseMailbox(to); // throws unless it is one mailbox
  // A subject can carry a user-supplied name: fold any line break into a space instead of failing the request.
  const subject = msg.subject.replace(/\s+/g, ' ').trim();
  if (subject === '') throw new InvalidOutgoingEmailError('subject is empty');
  const headers = msg.headers ?? {};
  validateExtraHeaders(headers);
  if (msg.tag !== undefined && (msg.tag === '' || msg.tag.length > 100 || CONTROL.test(msg.tag))) {
    throw new InvalidOutgoingEmailError('tag must be 1 to 100 characters without control characters');
  }
  return { ...msg, to, subject, headers };
}

function insertValues(msg: OutgoingEmail & EnqueueTiming): Insertable<EmailOutboxTable> {
  const m = validate(msg);
  const createdAt = msg.createdAt === undefined ? undefined : instant(msg.createdAt, 'createdAt');
  const due = msg.notBefore === undefined ? createdAt : instant(msg.notBefore, 'notBefore');
  return {
    to_address: m.to,
    subject: m.subject,
    text_body: m.text,
    html_body: m.html,
    headers_json: JSON.stringify(m.headers ?? {}),
    tag: m.tag ?? null,
    ...(createdAt ? { created_at: createdAt } : {}),
    ...(due ? { next_attempt_at: due } : {}),
  };
}

/** Any accepted instant in the schema's one format, so string comparisons stay right. */
function instant(value: string | Date, field: string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) throw new InvalidOutgoingEmailError(`${field} is not a valid instant`);
  return toTimestamp(d);
}

/**
 * Queues one email. Pass the transaction that makes the change the email announces: if it rolls back,
 * the email was never queued. Returns the outbox id.
 */
export async function enqueueEmail(db: DbOrTx, msg: OutgoingEmail & EnqueueTiming): Promise<number> {
  const row = await db.insertInto('email_outbox').values(insertValues(msg)).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** enqueueEmail for the synchronous write path (SyncDb): call it inside `store.transaction(...)`. */
export function enqueueEmailSync(store: SyncDb, msg: OutgoingEmail & EnqueueTiming): number {
  const row = store.first(store.q.insertInto('email_outbox').values(insertValues(msg)).returning('id'));
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

/** The stored extra headers; throws on a row whose headers_json is not a string map. */
export function outboxHeaders(row: Pick<OutboxMessage, 'headers_json'>): Record<string, string> {
  const parsed: unknown = JSON.parse(row.headers_json);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('headers_json is not an object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v !== 'string') throw new Error('headers_json has a non-string value');
    out[k] = v;
  }
  return out;
}

/**
 * Claims up to `limit` due messages (pending, next_attempt_at <= now), oldest first, by moving their
 * next_attempt_at to now + leaseMs in the same statement. A claimed message is not due again until the
 * lease runs out, so overlapping ticks or a second process never pick it up twice; if the process dies
 * mid-send the lease expires and the message is retried (delivery is at least once).
 */
export async function claimDueEmails(
  db: DbOrTx,
  options: { now: Date; limit: number; leaseMs: number },
): Promise<OutboxMessage[]> {
  const now = toTimestamp(options.now);
  const leaseUntil = toTimestamp(new Date(options.now.getTime() + options.leaseMs));
  const due = db
    .selectFrom('email_outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('id')
    .limit(options.limit);
  const rows = await db
    .updateTable('email_outbox')
    .set({ next_attempt_at: leaseUntil })
    .where('id', 'in', due)
    .where('status', '=', 'pending')
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** Records a delivery. Returns false when the message was no longer pending. */
export async function markEmailSent(
  db: DbOrTx,
  id: number,
  outcome: { providerMessageId: string; sentAt: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('email_outbox')
    .set((eb) => ({
      status: 'sent',
      sent_at: toTimestamp(outcome.sentAt),
      provider_message_id: outcome.providerMessageId,
      attempts: eb('attempts', '+', 1),
      ...redactedTokens(eb),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records a failed attempt that will be retried at `nextAttemptAt`. */
export async function markEmailRetry(
  db: DbOrTx,
  id: number,
  outcome: { error: string; nextAttemptAt: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('email_outbox')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      next_attempt_at: toTimestamp(outcome.nextAttemptAt),
      last_error: clip(outcome.error),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives up on a message for good (status 'failed'); `error` says why and stays on the row. */
export async function markEmailFailed(db: DbOrTx, id: number, outcome: { error: string }): Promise<boolean> {
  const result = await db
    .updateTable('email_outbox')
    .set((eb) => ({ status: 'failed', attempts: eb('attempts', '+', 1), last_error: clip(outcome.error), ...redactedTokens(eb) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Links in emails carry secrets (confirm, unsubscribe, RSVP tokens) that the database otherwise holds only
 * as hashes. A message needs them until it leaves; once it is sent or given up, they are cut out of its
 * bodies and headers by the SQL function redact_tokens (registered on every connection, src/db/connect.ts).
 */
function redactedTokens(eb: ExpressionBuilder<DB, 'email_outbox'>) {
  const redact = (column: 'text_body' | 'html_body' | 'headers_json') => sql<string>`redact_tokens(${eb.ref(column)})`;
  return { text_body: redact('text_body'), html_body: redact('html_body'), headers_json: redact('headers_json') };
}

function clip(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}

/**
 * At server start: every pending message is due now. The server process is the only mail worker of its
 * database, so a lease still running is one a killed process left behind, and a restart is a fair moment to
 * retry what was backing off. Returns how many messages were waiting.
 */
export async function makePendingDue(db: DbOrTx, now: Date): Promise<number> {
  const result = await db
    .updateTable('email_outbox')
    .set({ next_attempt_at: toTimestamp(now) })
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
