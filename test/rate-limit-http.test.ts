// Rate limits over HTTP: per client address and route, not dodged by a forged X-Forwarded-For when no
// proxy is trusted, and a cap on confirmation emails per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './support/http.js';
import { readEmails } from './support/mail.js';
import { startService, type RunningService } from './support/server.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '5', RATE_LIMIT_READS_PER_MIN: '5', FOLLOW_EMAILS_PER_DAY: '2' });
});
afterAll(async () => svc?.stop());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  request(svc.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('rate limits', () => {
  it('hold under a burst from one address, forged X-Forwarded-For or not, with Retry-After and RateLimit', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 12; i++) {
      last = await post('/api/v0/register', { org_id: 'riverside-sfl', name: `Burst ${i}`, email: `burst${i}@example.org` }, {
        'X-Forwarded-For': `203.0.113.${i}`,
      });
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    expect(last!.headers['content-type']).toBe('application/problem+json');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.headers['ratelimit']).toMatch(/^"writes";r=0;t=\d+$/);
    expect(last!.headers['ratelimit-policy']).toBe('"writes";q=5;w=60');
    // Another route has its own budget.
    const follow = await post('/api/v0/follow', { org_id: 'riverside-sfl', email: 'budget@example.org' });
    expect(follow.status).toBe(200);
  });

  it('caps confirmation emails to one address across organizations', async () => {
    const email = 'target@example.org';
    const a = await post('/api/v0/follow', { org_id: 'riverside-sfl', email }, {});
    const b = await post('/api/v0/follow', { org_id: 'amman-yfa', email });
    const c = await post('/api/v0/follow', { org_id: 'northgate-ssa', email });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect(Number(c.headers['retry-after'])).toBeGreaterThan(3600);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await readEmails(svc.env.MAIL_DIR!)).filter((e) => e.to === email)).toHaveLength(2);
  });

  it('limit the RSVP summary read too, whose cacheable answers carry no per-client RateLimit state (a CDN serves them to everyone)', async () => {
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await request(`${svc.url}/api/v0/rsvp/rsl-prem-r07-2`));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    for (const ok of answers.slice(0, 5)) {
      expect(ok.headers['cache-control']).toMatch(/^public/);
      expect(ok.headers['ratelimit']).toBeUndefined();
      expect(ok.headers['ratelimit-policy']).toBeUndefined();
    }
    const refused = answers[5]!;
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.headers['ratelimit']).toMatch(/^"reads";r=0;t=\d+$/);
  });
});

describe('behind a trusted proxy', () => {
  let proxied: RunningService;
  beforeAll(async () => {
    proxied = await startService({ RATE_LIMIT_WRITES_PER_MIN: '2', TRUST_PROXY: 'true' });
  });
  afterAll(async () => proxied?.stop());

  it('keys on the address the proxy appended, not on what the client wrote before it', async () => {
    const send = (xff: string) =>
      request(`${proxied.url}/api/v0/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': xff },
        body: JSON.stringify({ org_id: 'riverside-sfl', name: 'Proxy', email: 'proxy@example.org' }),
      });
    // The same real client (198.51.100.7) forging different first entries: one budget.
    const forged = [await send('1.1.1.1, 198.51.100.7'), await send('2.2.2.2, 198.51.100.7'), await send('3.3.3.3, 198.51.100.7')];
    expect(forged.map((r) => r.status)).toEqual([201, 201, 429]);
    // Another real client has its own.
    expect((await send('198.51.100.8')).status).toBe(201);
  });
});
