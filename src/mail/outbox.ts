// The email outbox: an email is a row written in the same transaction as the change that causes it (so it
// exists exactly when the change does) and leaves through the worker (worker.ts), which renders it at send time.
// A row records what to send: a template of the catalog and its data. Timestamps are RFC 3339 UTC with
// milliseconds, the format of the schema's strftime('%Y-%m-%dT%H:%M:%fZ') defaults, so they compare as strings.
import crypto from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import type { OutboxMessage } from '../db/schema.js';
import { prepared } from '../db/prepared.js';
import { chunks } from '../collections.js';
import type { SyncDb } from '../db/sync.js';
import { CATALOG, isTemplateName, type TemplateData, type TemplateName } from './catalog.js';
import { InvalidOutgoingEmailError, parseMailbox, validateExtraHeaders } from './headers.js';
import { mailboxOf } from './mailbox.js';

export { InvalidOutgoingEmailError };

export interface QueuedEmail<N extends TemplateName = TemplateName> {
  /** A single recipient: a bare address or `Name <address>`. */
  to: string;
  template: N;
  data: TemplateData<N>;
  /** A short category for logs, limits and the provider's statistics, e.g. `follow-confirm`. */
  tag?: string;
  /** The caller's clock (a service's `now`), so per-mailbox limits count by created_at. Also the first due time. */
  createdAt?: string | Date;
  /** Not before this instant (overrides createdAt as the first due time). */
  notBefore?: string | Date;
}

/** An email rendered by the caller (the 'prerendered' template). */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
  tag?: string;
}

export type EnqueueTiming = Pick<QueuedEmail, 'createdAt' | 'notBefore'>;

/** The schema's timestamp format: `2026-11-21T22:45:42.966Z`. */
export function toTimestamp(date: Date): string {
  return date.toISOString();
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** Any accepted instant in the schema's one format, so string comparisons stay right. */
function instant(value: string | Date, field: string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) throw new InvalidOutgoingEmailError(`${field} is not a valid instant`);
  return toTimestamp(d);
}

/**
 * Queues one email inside the caller's transaction (`store.transaction(...)`): if it rolls back, the email was
 * never queued; once it commits, the worker is woken. Throws InvalidOutgoingEmailError on a recipient, tag or
 * data that could never be sent. Returns the outbox id.
 */
export function queueEmail<N extends TemplateName>(store: SyncDb, email: QueuedEmail<N>): number {
  const id = insertEmail(store, email, {});
  store.signal('email-queued');
  return id;
}

/** The prefix of last_error on a row written withheld (withholdEmail). */
export const WITHHELD_PREFIX = 'withheld: ';

/**
 * Records an email the public asked for and that is not sent (`reason` says why), as a row that was never pending:
 * status 'failed', no attempt. It counts toward its mailbox's per-tag cap like one sent (recentEmails counts every
 * row), so that the cap's answers do not tell a stranger which requests were withheld, and retention deletes it
 * with the others.
 */
export function withholdEmail<N extends TemplateName>(store: SyncDb, email: QueuedEmail<N>, reason: string): number {
  return insertEmail(store, email, { status: 'failed', last_error: clip(`${WITHHELD_PREFIX}${reason}`) });
}

function insertEmail<N extends TemplateName>(
  store: SyncDb,
  email: QueuedEmail<N>,
  outcome: { status?: 'failed'; last_error?: string },
): number {
  const to = email.to.trim();
  const { address } = parseMailbox(to); // throws unless it is one mailbox
  if (email.tag !== undefined && (email.tag === '' || email.tag.length > 100 || CONTROL.test(email.tag))) {
    throw new InvalidOutgoingEmailError('tag must be 1 to 100 characters without control characters');
  }
  if (!isTemplateName(email.template)) throw new InvalidOutgoingEmailError(`no template "${String(email.template)}"`);
  const parsed = CATALOG[email.template].schema.safeParse(email.data);
  if (!parsed.success) throw new InvalidOutgoingEmailError(`data of ${email.template}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const createdAt = email.createdAt === undefined ? undefined : instant(email.createdAt, 'createdAt');
  const due = email.notBefore === undefined ? createdAt : instant(email.notBefore, 'notBefore');
  const row = store.first(
    store.q
      .insertInto('email_outbox')
      .values({
        message_key: crypto.randomBytes(16).toString('hex'),
        to_address: to,
        mailbox: mailboxOf(address),
        template: email.template,
        data_json: JSON.stringify(parsed.data),
        tag: email.tag ?? null,
        ...(createdAt ? { created_at: createdAt } : {}),
        ...(due ? { next_attempt_at: due } : {}),
        ...outcome,
      })
      .returning('id'),
  );
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

/** Queues an email its caller rendered (a subject line break folds into a space: a name can carry one). */
export function enqueueEmailSync(store: SyncDb, msg: OutgoingEmail & EnqueueTiming): number {
  const subject = msg.subject.replace(/\s+/g, ' ').trim();
  if (subject === '') throw new InvalidOutgoingEmailError('subject is empty');
  const headers = msg.headers ?? {};
  validateExtraHeaders(headers);
  return queueEmail(store, {
    to: msg.to,
    template: 'prerendered',
    data: { subject, text: msg.text, html: msg.html, headers },
    tag: msg.tag,
    createdAt: msg.createdAt,
    notBefore: msg.notBefore,
  });
}

const RECENT = prepared((q, p: { mailbox: string; tag: string; since: string }) =>
  q.selectFrom('email_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('mailbox', '=', p.mailbox).where('tag', '=', p.tag)
    .where('created_at', '>', p.since),
);

/**
 * The emails of one kind a mailbox was sent since an instant, for its per-mailbox cap: how many, and when the
 * oldest of them was (when the cap frees a place). Counted by SQLite on the index rather than read into
 * JavaScript: a registration asks twice inside its transaction, and an organization's mailbox holds up to its cap
 * (200) of notices a day.
 */
export function recentEmails(store: SyncDb, query: { address: string; tag: string; since: Date }): { count: number; oldest: string | null } {
  const row = store.first(RECENT.bind({ mailbox: mailboxOf(query.address), tag: query.tag, since: toTimestamp(query.since) }));
  return { count: row?.count ?? 0, oldest: row?.oldest ?? null };
}

/**
 * Claims up to `limit` due messages (pending, next_attempt_at <= now), longest due first (then in the order they
 * were queued), by moving their next_attempt_at to now + leaseMs in the same statement. A claimed message is not
 * due again until the lease runs out, so overlapping rounds or a second process never pick it up twice; if the
 * process dies mid-send the lease expires and the message is retried (delivery is at least once).
 *
 * In the order of the email_outbox_due index (status, next_attempt_at, then the rowid): SQLite reads the first
 * `limit` entries and stops. Ordered by id alone it read every due row and sorted them for each claim: with the
 * 12,000 receipts a burst of registrations leaves, a millisecond and more per claim, inside the shared commit the
 * requests wait on, and the worker claims every ten emails.
 */
export function claimDueEmails(store: SyncDb, options: { now: Date; limit: number; leaseMs: number }): OutboxMessage[] {
  const now = toTimestamp(options.now);
  const leaseUntil = toTimestamp(new Date(options.now.getTime() + options.leaseMs));
  const due = store.q
    .selectFrom('email_outbox').select('id')
    .where('status', '=', 'pending').where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at').orderBy('id').limit(options.limit);
  const rows = store.all(
    store.q.updateTable('email_outbox').set({ next_attempt_at: leaseUntil })
      .where('id', 'in', due).where('status', '=', 'pending')
      .returningAll(),
  );
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Gives claimed messages back, due at `at`, no attempt counted: the worker paused its sending before it tried them
 * (worker.ts pauseSending).
 */
export function releaseClaims(store: SyncDb, ids: readonly number[], at: Date): number {
  if (ids.length === 0) return 0;
  return store.run(
    store.q.updateTable('email_outbox').set({ next_attempt_at: toTimestamp(at) })
      .where('id', 'in', ids).where('status', '=', 'pending'),
  );
}

/**
 * Records a delivery. Returns false when the message was no longer pending. A prerendered row from before
 * emails were rendered at send time may hold secret links: they are cut out once it has left.
 */
export function markEmailSent(store: SyncDb, id: number, outcome: { providerMessageId: string | null; sentAt: Date }): boolean {
  return store.run(MARK_SENT.bind({ id, sentAt: toTimestamp(outcome.sentAt), providerMessageId: outcome.providerMessageId })) > 0;
}

// Compiled once: the mail worker records one per email, and building it took more of the main thread than
// SQLite running it.
const MARK_SENT = prepared((q, p: { id: number; sentAt: string; providerMessageId: string | null }) =>
  q.updateTable('email_outbox')
    .set((eb) => ({
      status: 'sent',
      sent_at: p.sentAt,
      provider_message_id: p.providerMessageId,
      attempts: eb('attempts', '+', 1),
      data_json: sql<string>`redact_tokens(${eb.ref('data_json')})`,
    }))
    .where('id', '=', p.id).where('status', '=', 'pending'),
);

/** Records a failed attempt that will be retried at `nextAttemptAt`. */
export function markEmailRetry(store: SyncDb, id: number, outcome: { error: string; nextAttemptAt: Date }): boolean {
  return (
    store.run(
      store.q.updateTable('email_outbox')
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          next_attempt_at: toTimestamp(outcome.nextAttemptAt),
          last_error: clip(outcome.error),
        }))
        .where('id', '=', id).where('status', '=', 'pending'),
    ) > 0
  );
}

/** Gives up on a message for good (status 'failed'); `error` says why and stays on the row. */
export function markEmailFailed(store: SyncDb, id: number, outcome: { error: string }): boolean {
  return (
    store.run(
      store.q.updateTable('email_outbox')
        .set((eb) => ({
          status: 'failed',
          attempts: eb('attempts', '+', 1),
          last_error: clip(outcome.error),
          data_json: sql<string>`redact_tokens(${eb.ref('data_json')})`,
        }))
        .where('id', '=', id).where('status', '=', 'pending'),
    ) > 0
  );
}

/**
 * The prefix of last_error on a row whose address the provider refused for good (a MailDeliveryError's
 * addressRefused: Postmark's 406 inactive recipient, a 300 naming the recipient). Read by addressRefused: the mail
 * review found a member whose invitation Postmark refused shown as invited, not answered, everywhere.
 */
export const ADDRESS_REFUSED_PREFIX = 'permanent: address refused: ';

/** Whether an outbox row's last_error says the provider refused its address for good (ADDRESS_REFUSED_PREFIX). */
export function addressRefused(lastError: string | null): boolean {
  return lastError !== null && lastError.startsWith(ADDRESS_REFUSED_PREFIX);
}

/** The prefix of last_error on a row the worker cancelled: no status of its own, the outbox keeps three. */
export const CANCELLED_PREFIX = 'cancelled at send time: ';

/**
 * Records that a message will never be sent because what it said no longer holds (send-time.ts): status 'failed'
 * (retention deletes it with the others after 30 days), last_error `cancelled at send time: <reason>`, and no
 * attempt counted, since none was made.
 */
export function markEmailCancelled(store: SyncDb, id: number, outcome: { reason: string }): boolean {
  return (
    store.run(
      store.q.updateTable('email_outbox')
        .set((eb) => ({
          status: 'failed',
          last_error: clip(`${CANCELLED_PREFIX}${outcome.reason}`),
          data_json: sql<string>`redact_tokens(${eb.ref('data_json')})`,
        }))
        .where('id', '=', id).where('status', '=', 'pending'),
    ) > 0
  );
}

/**
 * The emails `ids` emptied of what they said (their data `{}`; the address and kind stay), those still waiting
 * cancelled with `reason`: a registration removed takes its details with it, but its emails still count against
 * their mailboxes' daily limits, which count outbox rows (an attacker's review removed a stranger's junk
 * registrations, and the same mailbox got its day's receipts again). The retention job deletes them with every other
 * email, 30 days after they end. How many were emptied.
 */
export function emptyEmails(store: SyncDb, ids: readonly number[], reason: string): number {
  // Not CANCELLED_PREFIX ("cancelled at send time"): these are cancelled before it, by the operator.
  let emptied = 0;
  for (const chunk of chunks(ids)) {
    store.run(store.q.updateTable('email_outbox').set({ status: 'failed', last_error: clip(`cancelled: ${reason}`) }).where('id', 'in', chunk).where('status', '=', 'pending'));
    emptied += store.run(store.q.updateTable('email_outbox').set({ data_json: '{}' }).where('id', 'in', chunk));
  }
  return emptied;
}

function clip(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}

// Named: SQLite's planner takes email_outbox_due for `status = 'pending'` (an equality on its first column) and then
// reads every pending row for the minimum; the partial index answers it from its first entry.
const OLDEST_PENDING = {
  compile: () =>
    CompiledQuery.raw(
      `SELECT min(created_at) AS oldest FROM email_outbox INDEXED BY email_outbox_pending_age WHERE status = 'pending'`,
    ) as CompiledQuery<{ oldest: string | null }>,
};

/**
 * When the oldest email still pending was queued (null: none is), for the health read: a backlog that does not drain
 * (a token Postmark refuses, Postmark unreachable) shows here, where each failed attempt is only a line on stderr. The
 * first entry of the email_outbox_pending_age index, whatever the backlog's size.
 */
export function oldestPendingEmail(store: SyncDb): string | null {
  return store.first(OLDEST_PENDING)?.oldest ?? null;
}

/**
 * How many notices to organizations' registration_emails (a registration's, or the summary past the daily cap) the
 * provider refused for their address (ADDRESS_REFUSED_PREFIX) since `since`, for the health read: the mail review found
 * an organization losing every notice to a refused address while /healthz said nothing. A failed row's
 * next_attempt_at is the end of its last attempt's lease (claimDueEmails), so it dates the refusal to within that
 * lease; read through the email_outbox_due index (status, next_attempt_at): only the day's failed rows.
 */
export function registrationNoticesRefused(store: SyncDb, since: Date): number {
  return store.first(NOTICES_REFUSED.bind({ since: toTimestamp(since) }))?.n ?? 0;
}

const NOTICES_REFUSED = prepared((q, p: { since: string }) =>
  q.selectFrom('email_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'failed').where('next_attempt_at', '>=', p.since)
    .where('template', 'in', ['registration-notice', 'registration-overflow'])
    .where(sql<string>`substr(last_error, 1, ${sql.lit(ADDRESS_REFUSED_PREFIX.length)})`, '=', ADDRESS_REFUSED_PREFIX),
);

/**
 * At server start: every pending message is due now. The server process is the only mail worker of its
 * database (it holds the database's server lock, src/server/server-lock.ts: a second server refuses to start), so a
 * lease still running is one a killed process left behind, and a restart is a fair moment to retry what was backing
 * off. Returns how many messages were waiting.
 */
export function makePendingDue(store: SyncDb, now: Date): number {
  return store.run(store.q.updateTable('email_outbox').set({ next_attempt_at: toTimestamp(now) }).where('status', '=', 'pending'));
}
