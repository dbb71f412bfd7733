// Idempotency-Key: a retried submit (same key, same body, same client) gets the first answer instead of making a
// second row. Runs inside the caller's transaction, so the stored answer commits with the change. A key belongs
// to the client that sent it (another client's same key is another key: it can neither read the first answer
// nor squat the key), and lives IDEMPOTENCY_WINDOW_MS: after that, the same key starts over.
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

export interface IdempotencyScope {
  /** The endpoint (`register`). */
  scope: string;
  /** Who sent the key: the client address. */
  client: string;
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

/** Call inside store.transaction(). */
export function idempotent<B>(
  store: SyncDb,
  id: IdempotencyScope,
  hash: string,
  produce: () => { status: number; body: B },
): StoredAnswer<B> {
  if (id.key === undefined) return { ...produce(), replayed: false };
  const where = store.q.selectFrom('idempotency_keys').where('scope', '=', id.scope).where('client', '=', id.client).where('key', '=', id.key);
  const expiredBefore = new Date(id.now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  const previous = store.first(where.select(['request_hash', 'response_status', 'response_body', 'created_at']));
  if (previous && previous.created_at >= expiredBefore) {
    if (previous.request_hash !== hash) {
      throw new InvalidFieldError('Idempotency-Key', 'was already used for a different request');
    }
    return { status: previous.response_status, body: JSON.parse(previous.response_body) as B, replayed: true };
  }
  const answer = produce();
  const row = {
    scope: id.scope, client: id.client, key: id.key, request_hash: hash, response_status: answer.status,
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

/** Forgets the keys whose window is over; returns how many. */
export function expireIdempotencyKeys(store: SyncDb, now: Date): number {
  const before = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
  return store.run(store.q.deleteFrom('idempotency_keys').where('created_at', '<', before));
}
