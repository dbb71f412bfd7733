// Idempotency-Key: a retried submit (same key, same body) gets the first answer instead of making a
// second row. Runs inside the caller's transaction, so the stored answer commits with the change.
import crypto from 'node:crypto';
import { InvalidFieldError } from '../errors.js';
import type { SyncDb } from './sync.js';

export interface StoredAnswer<B> {
  status: number;
  body: B;
  replayed: boolean;
}

const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

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
  scope: string,
  key: string | undefined,
  hash: string,
  produce: () => { status: number; body: B },
): StoredAnswer<B> {
  if (key === undefined) return { ...produce(), replayed: false };
  const previous = store.first(
    store.q.selectFrom('idempotency_keys').select(['request_hash', 'response_status', 'response_body'])
      .where('scope', '=', scope).where('key', '=', key),
  );
  if (previous) {
    if (previous.request_hash !== hash) {
      throw new InvalidFieldError('Idempotency-Key', 'was already used for a different request');
    }
    return { status: previous.response_status, body: JSON.parse(previous.response_body) as B, replayed: true };
  }
  const answer = produce();
  store.run(
    store.q.insertInto('idempotency_keys').values({
      scope, key, request_hash: hash, response_status: answer.status, response_body: JSON.stringify(answer.body),
    }),
  );
  return { ...answer, replayed: false };
}
