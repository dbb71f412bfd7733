// The endpoints answer real `Request` objects in-process, on the application the composition root builds: no
// server, no socket, the real database and services underneath.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as follow from '../src/pages/api/v0/follow.js';
import * as register from '../src/pages/api/v0/register.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rsvpSummaryHandler } from '../src/server/rsvp-summary.js';
import { callEndpoint, inProcessApp, type InProcessApp } from './support/in-process.js';

let t: InProcessApp;
beforeEach(async () => {
  t = await inProcessApp({ mail: false, env: { RATE_LIMIT_WRITES_PER_MIN: '2' } });
});
afterEach(async () => t.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`https://competitions.example${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('endpoints in-process', () => {
  it('POST /api/v0/register: 201, the row and its queued receipt, in the documented shape', async () => {
    const res = await callEndpoint(register.POST, post('/api/v0/register', { org_id: 'riverside', name: 'Sam', email: 'sam@example.org' }), t.app);
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { status: string; id: string };
    expect(body.status).toBe('submitted');
    const { store } = t.app;
    expect(store.first(store.q.selectFrom('registrations').select('name').where('id', '=', body.id))).toEqual({ name: 'Sam' });
    expect(store.all(store.q.selectFrom('email_outbox').select(['template', 'to_address']))).toEqual([
      { template: 'registration-receipt', to_address: 'sam@example.org' },
    ]);
  });

  it('validates, maps domain errors and rate-limits per client address, as over HTTP', async () => {
    const bad = await callEndpoint(follow.POST, post('/api/v0/follow', { org_id: 'no-such-org', email: 'x@example.org' }), t.app);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ type: '/docs#problem-validation-failed', errors: [{ field: 'org_id' }] });
    const limited = await callEndpoint(follow.POST, post('/api/v0/follow', { org_id: 'riverside', email: 'y@example.org' }), t.app);
    expect(limited.status).toBe(200);
    const third = await callEndpoint(follow.POST, post('/api/v0/follow', { org_id: 'riverside', email: 'z@example.org' }), t.app);
    expect(third.status).toBe(429);
    const other = await callEndpoint(follow.POST, post('/api/v0/follow', { org_id: 'riverside', email: 'z@example.org' }), t.app, {
      clientAddress: '198.51.100.1',
    });
    expect(other.status).toBe(200);
  });

  it('GET /api/v0/rsvp/[matchId] (the node server answers it, not Astro): the counts with validators, 304 on a repeat, 404 for an unknown match', async () => {
    const handler = rsvpSummaryHandler(t.app);
    const server = http.createServer((req, res) => {
      if (!handler(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v0/rsvp`;
    try {
      const first = await fetch(`${base}/rs-m1`);
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ match_id: 'rs-m1', summary: { yes: 0, no: 0, maybe: 0, pending: 0 }, teams: [] });
      const etag = first.headers.get('etag')!;
      expect((await fetch(`${base}/rs-m1`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
      expect((await fetch(`${base}/nope`)).status).toBe(404);
      expect((await fetch(`${base}/rs-m1`, { method: 'DELETE' })).status).toBe(405);
      // The answer endpoint beside it is Astro's: the handler lets it pass.
      expect((await fetch(`${base}/respond`)).status).toBe(418);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
