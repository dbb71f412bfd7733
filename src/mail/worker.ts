// Delivers the outbox: polls for due messages (and wakes when a transaction queues one), renders each at send
// time (compose.ts: its links are minted then), hands it to a transport, records the outcome.
// Retryable failures come back with exponential backoff and jitter; permanent ones, or a message out
// of attempts, end as status 'failed' with the reason in last_error. One message failing never stops
// the others. Logs name the outbox id and tag only: bodies carry secret links, and a recipient's domain can name
// the person (a family's own domain); the id finds the row for an operator who needs more.
import type { OutboxMessage } from '../db/schema.js';
import type { SyncDb } from '../db/sync.js';
import { recipientOf } from './catalog.js';
import { composeForSending } from './compose.js';
import { messageIdFor } from './eml.js';
import { parseMailbox } from './headers.js';
import { claimDueEmails, markEmailCancelled, markEmailFailed, markEmailRetry, markEmailSent } from './outbox.js';
import { MailDeliveryError, toDeliveryError, type MailTransport } from './transport.js';

export interface MailWorkerOptions {
  /** The From of every message (config MAIL_FROM); checked at start. */
  from: string;
  /** PUBLIC_BASE_URL: the base of the links minted at send time. */
  baseUrl: string;
  /** Poll period. Default 1000 ms; kick() wakes the worker sooner. */
  intervalMs?: number;
  /** Messages claimed per round. Default 10 (claimed together, so batchSize / concurrency × the transport timeout must stay under leaseMs). */
  batchSize?: number;
  /** Sends in flight at once. Default 2. */
  concurrency?: number;
  /** Attempts before a message is given up. Default 100: with the default backoff, about a day of trying. */
  maxAttempts?: number;
  /** Backoff after the first failure, doubling each time. Default 5 s. */
  backoffBaseMs?: number;
  /** Backoff ceiling. Default 15 min. */
  backoffMaxMs?: number;
  /**
   * How long a claimed message stays invisible to other claims while it is being sent. It must outlast the
   * transport's own timeout; if the process dies mid-send the message is due again after it. Default 5 min.
   */
  leaseMs?: number;
  now?: () => Date;
  /** In [0, 1): the jitter source. */
  random?: () => number;
  log?: (line: string) => void;
  /**
   * How the worker's writes (claims, send-time links, outcomes) are committed. Default: each at once, in its own
   * transaction. The server passes its group commit (src/db/group-commit.ts), so that under a load of
   * registrations the worker's writes share the requests' fsyncs instead of adding their own, three per email.
   */
  commit?: <T>(work: () => T) => Promise<T>;
}

export interface MailWorker {
  /** Stops polling and waits for the round in progress. */
  stop(): Promise<void>;
  /** Runs rounds until nothing is due (now() as the worker sees it), for tests and shutdown. */
  drain(): Promise<void>;
  /** Wakes the worker now, e.g. right after a transaction that queued mail has committed. */
  kick(): void;
}

/**
 * Delay before the attempt after `failures` failed ones: base·2^(failures−1), capped, then "equal jitter"
 * (a uniform draw from the upper half) so that messages failing together do not retry in lockstep.
 */
export function backoffMs(failures: number, options: { baseMs?: number; maxMs?: number; random?: () => number } = {}): number {
  const base = options.baseMs ?? 5_000;
  const max = options.maxMs ?? 15 * 60_000;
  const random = options.random ?? Math.random;
  const exp = Math.min(max, base * 2 ** Math.min(Math.max(failures - 1, 0), 30));
  return Math.round(exp / 2 + (exp / 2) * random());
}

/** An error of SQLite itself (better-sqlite3's SqliteError: SQLITE_FULL, SQLITE_IOERR, SQLITE_BUSY…), not of a row. */
function isDatabaseError(err: unknown): boolean {
  const code = err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_');
}

export function startMailWorker(store: SyncDb, transport: MailTransport, options: MailWorkerOptions): MailWorker {
  parseMailbox(options.from); // a bad MAIL_FROM fails at start, not as a permanent failure of every message
  const intervalMs = options.intervalMs ?? 1_000;
  const batchSize = options.batchSize ?? 10;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const maxAttempts = options.maxAttempts ?? 100;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((line: string) => console.log(line));
  const backoff = { baseMs: options.backoffBaseMs, maxMs: options.backoffMaxMs, random: options.random };
  const commit = options.commit ?? (async <T>(work: () => T): Promise<T> => work());

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | null = null;
  let again = false;
  let draining = 0;

  const describe = (row: OutboxMessage) => `mail #${row.id} tag=${row.tag ?? '-'}`;

  async function attemptSend(row: OutboxMessage): Promise<{ messageId: string } | { cancelled: string } | MailDeliveryError> {
    // The send-time check first (compose.ts): a follower who unsubscribed, or a competition made private, since
    // the row was queued means it is not sent at all. A row that cannot be rendered is caught inside the work, so
    // that only its own error makes it a permanent failure: never a failed commit, nor the database failing under it
    // (a full disk while its links are minted), which leaves it claimed, to be sent once its lease is over.
    const composed = await commit(() => {
      try {
        return { email: composeForSending(store, row, { baseUrl: options.baseUrl, now: now() }) };
      } catch (err) {
        if (isDatabaseError(err)) throw err;
        return { error: err };
      }
    });
    if ('error' in composed) {
      const why = composed.error instanceof Error ? composed.error.message : String(composed.error);
      return new MailDeliveryError(`cannot be rendered: ${why}`, { permanent: true, kind: 'corrupt-row' });
    }
    const email = composed.email;
    if ('cancelled' in email) return email;
    try {
      return await transport.send({
        outboxId: row.id,
        messageId: messageIdFor(row.message_key, options.from),
        from: options.from,
        to: recipientOf(row),
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: email.headers,
        tag: row.tag ?? undefined,
      });
    } catch (err) {
      return toDeliveryError(err);
    }
  }

  /** What a send's outcome writes to the row, and the line logged once that is committed. */
  function outcomeRecord(row: OutboxMessage, outcome: Awaited<ReturnType<typeof attemptSend>>): { record: () => void; line: string } {
    const attempt = row.attempts + 1;
    if ('cancelled' in outcome) {
      // The reason is one of send-time.ts's fixed sentences: nothing of the row's content reaches the log.
      return { record: () => markEmailCancelled(store, row.id, { reason: outcome.cancelled }), line: `cancelled at send time: ${outcome.cancelled}` };
    }
    if (!(outcome instanceof MailDeliveryError)) {
      const sentAt = now();
      return { record: () => markEmailSent(store, row.id, { providerMessageId: outcome.messageId, sentAt }), line: `sent (attempt ${attempt})` };
    }
    const err = outcome;
    if (err.permanent) {
      return { record: () => markEmailFailed(store, row.id, { error: `permanent: ${err.message}` }), line: `failed permanently (attempt ${attempt}): ${err.kind}` };
    }
    if (attempt >= maxAttempts) {
      return {
        record: () => markEmailFailed(store, row.id, { error: `gave up after ${attempt} attempts: ${err.message}` }),
        line: `failed: gave up after ${attempt} attempts: ${err.kind}`,
      };
    }
    const delay = backoffMs(attempt, backoff);
    const nextAttemptAt = new Date(now().getTime() + delay);
    return {
      record: () => markEmailRetry(store, row.id, { error: err.message, nextAttemptAt }),
      line: `attempt ${attempt} failed, retry in ${Math.round(delay / 1000)} s: ${err.kind}`,
    };
  }

  async function deliver(row: OutboxMessage): Promise<void> {
    const { record, line } = outcomeRecord(row, await attemptSend(row));
    await commit(record);
    log(`${describe(row)} ${line}`);
  }

  async function runBatch(rows: OutboxMessage[]): Promise<void> {
    const queue = [...rows];
    const lane = async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        try {
          await deliver(row);
        } catch (err) {
          // Recording the outcome failed (the database is busy or gone). The claim's lease makes the
          // message due again later: at worst it is sent twice, never lost.
          log(`${describe(row)} outcome not recorded: ${err instanceof Error ? err.name : 'error'}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, lane));
  }

  /** One drain of the outbox; concurrent callers share it, and a call during it asks for one more pass. */
  function pump(): Promise<void> {
    if (round) {
      again = true;
      return round;
    }
    const drainRounds = async () => {
      for (;;) {
        again = false;
        const rows = await commit(() => claimDueEmails(store, { now: now(), limit: batchSize, leaseMs }));
        if (rows.length === 0) {
          if (again && (!stopped || draining > 0)) continue;
          return;
        }
        await runBatch(rows);
        if (stopped && draining === 0) return;
      }
    };
    // Cleared in a callback, never synchronously: a pass that finds nothing finishes without awaiting, and must
    // not clear `round` before it has been assigned.
    const current = drainRounds().finally(() => {
      if (round === current) round = null;
    });
    round = current;
    return current;
  }

  function schedule(delayMs = intervalMs): void {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      pump()
        .catch((err: unknown) => log(`mail worker: round failed: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => schedule());
    }, delayMs);
    timer.unref();
  }
  schedule(0); // a backlog left by the last run goes out right away

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (round) await round.catch(() => undefined);
    },
    async drain() {
      // A round in progress may have claimed before the caller's latest enqueue: pump() asks it for another pass.
      draining++;
      try {
        await pump();
      } finally {
        draining--;
      }
    },
    kick() {
      if (stopped) return;
      // A round in progress takes the kick as one more pass and nothing else: a handler attached to its promise
      // per kick would be held until the round ends, and under steady writes a round never ends (the soak's
      // server, at 1,900 requests a second, held 68,000 more of them after 150 s, its heap 33 MB larger).
      if (round) {
        again = true;
        return;
      }
      pump().catch((err: unknown) => log(`mail worker: round failed: ${err instanceof Error ? err.message : String(err)}`));
    },
  };
}
