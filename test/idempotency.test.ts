// Idempotency keys belong to the client that sent them, and last a day (IDEMPOTENCY_WINDOW_MS).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_WINDOW_MS } from '../src/db/idempotency.js';
import { runRetention } from '../src/jobs/retention.js';
import * as register from '../src/pages/api/v0/register.js';
import { callEndpoint, inProcessApp, type InProcessApp } from './support/in-process.js';

let t: InProcessApp;
let clock: Date;
beforeEach(async () => {
  clock = new Date('2026-11-21T12:00:00Z');
  t = await inProcessApp({ mail: false, now: () => clock, env: { RATE_LIMIT_WRITES_PER_MIN: '0' } });
});
afterEach(async () => t.close());

const submit = async (client: string, key: string, name = 'Sam') => {
  const request = new Request('https://competitions.example/api/v0/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify({ org_id: 'riverside', name, email: 'sam@example.org' }),
  });
  const res = await callEndpoint(register.POST, request, t.app, { clientAddress: client });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', body: (await res.json()) as { id?: string } };
};
const registrations = () => t.app.store.all(t.app.store.q.selectFrom('registrations').select('id')).length;

describe('Idempotency-Key', () => {
  it('replays the first answer to the client that sent the key, and only to it', async () => {
    const first = await submit('198.51.100.1', 'k-1');
    const retry = await submit('198.51.100.1', 'k-1');
    expect(retry).toEqual({ ...first, replayed: true });
    // Another client with the same key makes its own registration, and never reads the first one's id.
    const other = await submit('203.0.113.9', 'k-1');
    expect(other.status).toBe(201);
    expect(other.replayed).toBe(false);
    expect(other.body.id).not.toBe(first.body.id);
    expect(registrations()).toBe(2);
  });

  it('cannot be squatted: a key another client used with another body is still free for its owner', async () => {
    expect((await submit('203.0.113.9', 'k-2', 'Squatter')).status).toBe(201);
    const owner = await submit('198.51.100.1', 'k-2', 'Sam');
    expect(owner.status).toBe(201);
    expect(owner.replayed).toBe(false);
  });

  it('expires after the window: the same key starts over, and the retention job forgets it', async () => {
    const first = await submit('198.51.100.1', 'k-3');
    clock = new Date(clock.getTime() + IDEMPOTENCY_WINDOW_MS - 1000);
    expect((await submit('198.51.100.1', 'k-3')).replayed).toBe(true);
    clock = new Date(clock.getTime() + 2000);
    const later = await submit('198.51.100.1', 'k-3');
    expect(later.replayed).toBe(false);
    expect(later.body.id).not.toBe(first.body.id);
    clock = new Date(clock.getTime() + IDEMPOTENCY_WINDOW_MS + 1000);
    expect(runRetention(t.app.store, clock)).toMatch(/, 1 idempotency keys, /);
    expect(t.app.store.all(t.app.store.q.selectFrom('idempotency_keys').selectAll())).toEqual([]);
  });
});
