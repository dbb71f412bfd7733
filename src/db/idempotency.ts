// Idempotency-Key: a retried submit (same key, same body) gets the first answer instead of making a second row, from
// whatever client address it comes: a phone that lost the answer on Wi-Fi retries over mobile data (a review's
// retry from a second address made a second registration, notices and receipt). Runs inside the caller's
// transaction, so the stored answer commits with the change. A key is kept per client: another client's same key
// with another body is another key (it can neither read the first answer nor squat the key); only the same body,
// which its sender already has whole, gets the first answer. A key lives IDEMPOTENCY_WINDOW_MS: after that, the
// same key starts over.
//
// A submit without a key is keyed by its own body for REPEAT_WINDOW_MS (answerKey): an HTML form cannot send the
// header, and a double click, a refresh that posts again or a retry after a dropped answer sends the same body, from
// any address as well (the body names the person: the same name, email and fields are the same registration).
import crypto from 'node:crypto';
import { InvalidFieldError } from '../errors.js';
import type { SyncDb } from './sync.js';

export interface StoredAnswer<B> {
  status: number;
  body: B;
  replayed: boolean;
}

const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** How long a key's answer is kept: a day, as long as any client retries a submit. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/**
 * How long a submit without a key answers the same body again: an hour covers a double click, a page refreshed
 * and a retry, and an hour later a person sending the same registration again means to (its notice was lost, the
 * organizer asked for it again).
 */
export const REPEAT_WINDOW_MS = 3600_000;

/** The scope of the answers kept for bodies sent without a key: `register` → `register:repeat`. */
const REPEAT_SUFFIX = ':repeat';

/** How long the answers of `scope` are kept. */
export function windowOf(scope: string): number {
  return scope.endsWith(REPEAT_SUFFIX) ? REPEAT_WINDOW_MS : IDEMPOTENCY_WINDOW_MS;
}

/** Where a submit's answer is kept: under the client's key, or under the request's hash when it sent none. */
export function answerKey(scope: string, key: string | undefined, hash: string): { scope: string; key: string } {
  return key === undefined ? { scope: scope + REPEAT_SUFFIX, key: hash } : { scope, key };
}

export interface IdempotencyScope {
  /** The endpoint (`register`). */
  scope: string;
  /** Who sent the key: the client address. */
  client: string;
  /** The Idempotency-Key header; without one, the request's hash is the key (answerKey). */
  key: string | undefined;
  now: Date;
}

export function checkIdempotencyKey(key: string | null): string | undefined {
  if (key === null) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new InvalidFieldError('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
  }
  return key;
}

export function requestHash(value: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

const ANSWER_COLUMNS = ['request_hash', 'response_status', 'response_body', 'created_at'] as const;

/**
 * The stored answers of a key: this client's own, or (`hash`) the same body's from any client, the oldest first.
 * Exported for the test that reads its query plan: through an index each, never a scan of the scope.
 */
export function storedAnswerQuery(store: SyncDb, slot: { scope: string; key: string }, notBefore: string, by: { client: string } | { hash: string }) {
  const keyed = store.q.selectFrom('idempotency_keys').select(ANSWER_COLUMNS)
    .where('scope', '=', slot.scope).where('key', '=', slot.key).where('created_at', '>=', notBefore);
  return 'client' in by ? keyed.where('client', '=', by.client).limit(1) : keyed.where('request_hash', '=', by.hash).orderBy('created_at').limit(1);
}

/** Call inside store.transaction(). */
export function idempotent<B>(
  store: SyncDb,
  id: IdempotencyScope,
  hash: string,
  produce: () => { status: number; body: B },
): StoredAnswer<B> {
  const { scope, key } = answerKey(id.scope, id.key, hash);
  const expiredBefore = new Date(id.now.getTime() - windowOf(scope)).toISOString();
  // This client's own use of the key first (its other body is refused), then the same body under the key from
  // another address (the oldest: the first answer).
  const previous = store.first(storedAnswerQuery(store, { scope, key }, expiredBefore, { client: id.client }))
    ?? store.first(storedAnswerQuery(store, { scope, key }, expiredBefore, { hash }));
  if (previous) {
    if (previous.request_hash !== hash) {
      throw new InvalidFieldError('Idempotency-Key', 'was already used for a different request');
    }
    return { status: previous.response_status, body: JSON.parse(previous.response_body) as B, replayed: true };
  }
  const answer = produce();
  const row = {
    scope, client: id.client, key, request_hash: hash, response_status: answer.status,
    response_body: JSON.stringify(answer.body), created_at: id.now.toISOString(),
  };
  // An expired key is replaced: its window is over.
  store.run(
    store.q.insertInto('idempotency_keys').values(row)
      .onConflict((oc) => oc.columns(['scope', 'client', 'key']).doUpdateSet({
        request_hash: row.request_hash, response_status: row.response_status, response_body: row.response_body, created_at: row.created_at,
      })),
  );
  return { ...answer, replayed: false };
}

/** Forgets the answers whose window is over (a key's after a day, a body's after an hour); returns how many. */
export function expireIdempotencyKeys(store: SyncDb, now: Date): number {
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  return store.run(
    store.q.deleteFrom('idempotency_keys').where((eb) => eb.or([
      eb('created_at', '<', before(IDEMPOTENCY_WINDOW_MS)),
      eb.and([eb('scope', 'like', `%${REPEAT_SUFFIX}`), eb('created_at', '<', before(REPEAT_WINDOW_MS))]),
    ])),
  );
}
