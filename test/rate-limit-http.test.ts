// Rate limits over HTTP: per client address and route, not dodged by a forged X-Forwarded-For when no
// proxy is trusted, and a cap on confirmation emails per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './support/http.js';
import { linkIn, readEmails, waitForEmail } from './support/mail.js';
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

  // A review: an Arabic club's parent, past the route's budget (a school's registration day, one address), got the
  // English-first page: the refusal was answered before the body, which names the organization, was read.
  it('a form refused for too many requests: a page in the language of the organization it names', async () => {
    const form = (fields: Record<string, string>, query = '') =>
      request(`${svc.url}/api/v0/register${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Mode': 'navigate' },
        body: new URLSearchParams(fields).toString(),
      });
    // A mistyped email: taken by no one, whatever the budget left from the test above.
    const arabic = { org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Rate Form', email: 'not-an-address' };
    let res = await form(arabic);
    for (let i = 0; i < 6 && res.status !== 429; i++) res = await form(arabic);
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['ratelimit']).toMatch(/^"writes";r=0;t=\d+$/);
    expect(res.text).toContain('<html lang="ar" dir="rtl">');
    expect(/<h1>([^<]*)<\/h1>/.exec(res.text)?.[1]).toBe('طلبات كثيرة');
    expect(res.text).not.toContain('class="other-language"');
    // A body that cannot be read names it in its raw bytes, or in the query of the action, as for any refusal.
    const unread = await request(`${svc.url}/api/v0/register?org_id=amman-yfa`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Mode': 'navigate' },
      body: 'name=%DA%E3%D1',
    });
    expect([unread.status, /<html lang="(\w+)"/.exec(unread.text)?.[1]]).toEqual([429, 'ar']);
    // An organization nobody has: both languages, English first.
    const nobody = await form({ ...arabic, org_id: 'nobody' });
    expect([nobody.status, /<html lang="(\w+)"/.exec(nobody.text)?.[1]]).toEqual([429, 'en']);
    expect(nobody.text).toContain('<h2>طلبات كثيرة</h2>');
    // A script is refused with the problem document, as before.
    const script = await post('/api/v0/register', arabic);
    expect([script.status, script.headers['content-type']]).toEqual([429, 'application/problem+json']);
  });

  it('caps confirmation emails to one address across organizations', async () => {
    const email = 'target@example.org';
    const a = await post('/api/v0/follow', { org_id: 'riverside-sfl', email }, {});
    const b = await post('/api/v0/follow', { org_id: 'amman-yfa', email });
    const c = await post('/api/v0/follow', { org_id: 'northgate-ssa', email });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect(Number(c.headers['retry-after'])).toBeGreaterThan(3600);
    // The limit reached is the mailbox's: nothing left until it resets, not the client's own budget ("writes";r=…).
    expect(c.headers['ratelimit']).toBe(`"mailbox";r=0;t=${c.headers['retry-after']}`);
    expect(c.headers['ratelimit-policy']).toBe('"writes";q=5;w=60, "mailbox";q=2;w=86400');
    // In whole hours: to the second, it told a stranger when the owner asked for their first follow of the day.
    expect(Number(c.headers['retry-after']) % 3600).toBe(0);
    // The follow asked for moments ago is answered as any other scope at the cap: it answered 200, which told a
    // stranger which organization the owner had just asked to follow.
    const recent = await post('/api/v0/follow', { org_id: 'riverside-sfl', email });
    expect(recent.status).toBe(429);
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

// A review: behind a CDN in front of nginx, the last X-Forwarded-For entry is the CDN edge's, so every visitor of an
// edge shared one allowance of writes (20 a minute) on registration day. TRUST_PROXY=2 keys on the visitor.
describe('behind a CDN and nginx (TRUST_PROXY=2)', () => {
  let proxied: RunningService;
  beforeAll(async () => {
    proxied = await startService({ RATE_LIMIT_WRITES_PER_MIN: '2', TRUST_PROXY: '2' });
  });
  afterAll(async () => proxied?.stop());

  it('gives each visitor of one CDN edge their own allowance, and a forged entry none', async () => {
    const EDGE = '203.0.113.1';
    const send = (xff: string, n: number) =>
      request(`${proxied.url}/api/v0/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': xff },
        body: JSON.stringify({ org_id: 'riverside-sfl', name: `Visitor ${n}`, email: `visitor${n}@example.org` }),
      });
    const statuses: number[] = [];
    // Four visitors through the same edge, two registrations each: none refused.
    for (let n = 0; n < 8; n++) statuses.push((await send(`198.51.100.${n % 4}, ${EDGE}`, n)).status);
    expect(statuses).toEqual(Array(8).fill(201));
    // One visitor forging what comes before its own entry: still one allowance.
    const forged = [await send(`1.1.1.1, 198.51.100.9, ${EDGE}`, 8), await send(`2.2.2.2, 198.51.100.9, ${EDGE}`, 9), await send(`3.3.3.3, 198.51.100.9, ${EDGE}`, 10)];
    expect(forged.map((r) => r.status)).toEqual([201, 201, 429]);
  });
});

describe('behind a trusted proxy', () => {
  let proxied: RunningService;
  beforeAll(async () => {
    proxied = await startService({ RATE_LIMIT_WRITES_PER_MIN: '2', TRUST_PROXY: 'true' });
  });
  afterAll(async () => proxied?.stop());

  /** A registration through the trusted proxy, which says the client is `xff`. */
  const registerThrough = (xff: string, name: string, email: string) =>
    request(`${proxied.url}/api/v0/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': xff },
      body: JSON.stringify({ org_id: 'riverside-sfl', name, email }),
    });

  it('keys on the address the proxy appended, not on what the client wrote before it', async () => {
    const send = (xff: string) => registerThrough(xff, 'Proxy', 'proxy@example.org');
    // The same real client (198.51.100.7) forging different first entries: one budget.
    const forged = [await send('1.1.1.1, 198.51.100.7'), await send('2.2.2.2, 198.51.100.7'), await send('3.3.3.3, 198.51.100.7')];
    expect(forged.map((r) => r.status)).toEqual([201, 201, 429]);
    // Another real client has its own.
    expect((await send('198.51.100.8')).status).toBe(201);
  });

  it.each([
    ['iCloud', ['fan@icloud.com', 'fan@me.com', 'fan@mac.com', 'f.a.n+club@me.com']],
    ['Yandex', ['ivan.petrov@yandex.ru', 'ivan-petrov@ya.ru', 'ivan.petrov@yandex.com', 'ivan-petrov@yandex.kz']],
  ])('caps confirmation emails to one %s mailbox across the domains and spellings that reach it', async (provider, spellings) => {
    // Each from its own client, so that only the per-mailbox cap (3 a day) stands in the way. Each domain was a
    // mailbox of its own: four confirmation emails reached one inbox.
    const answers = [];
    for (const [i, email] of spellings.entries()) {
      const res = await request(`${proxied.url}/api/v0/follow`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `192.0.2.${40 + i + (provider === 'iCloud' ? 0 : 10)}` },
        body: JSON.stringify({ org_id: 'amman-yfa', email }),
      });
      answers.push(res.status);
    }
    expect(answers).toEqual([200, 200, 200, 429]);
  });

  it('counts the addresses of one IPv6 /56 as one client, as an IPv4 address written as IPv6 is that address', async () => {
    const send = (xff: string) => registerThrough(xff, 'Six', 'six@example.org');
    // One home connection walking through its /64s (an attacker's review: 120 registrations a minute from six of
    // them): one budget.
    const walk = [await send('2001:db8:5:6::1'), await send('2001:db8:5:7::2'), await send('2001:db8:5:ff:ffff:1:2:3')];
    expect(walk.map((r) => r.status)).toEqual([201, 201, 429]);
    // The next /56 is another client.
    expect((await send('2001:db8:5:106::1')).status).toBe(201);
    const mapped = [await send('198.51.100.20'), await send('::ffff:198.51.100.20')];
    expect(mapped.map((r) => r.status)).toEqual([201, 201]);
    expect((await send('198.51.100.20')).status).toBe(429);
  });

  it('counts a client whose proxy writes its port as one client, whatever port each connection had', async () => {
    const send = (xff: string) => registerThrough(xff, 'Port', 'port@example.org');
    const ports = [await send('198.51.100.30:50001'), await send('198.51.100.30:50002'), await send('198.51.100.30:50003')];
    expect(ports.map((r) => r.status)).toEqual([201, 201, 429]);
    expect((await send('198.51.100.30')).status).toBe(429);
  });
});

describe('RFC 8058 one-click unsubscribe', () => {
  // Mailbox providers POST `List-Unsubscribe=One-Click` from their own servers: many people behind one address.
  // Found by a review (/tmp/review-mail-repro/one-click-limit.test.ts): past the per-address writes limit the
  // page answered 429 and the follow stayed active. A POST with a token the database knows is now counted per
  // follow; unknown and malformed tokens still per address.
  let svc: RunningService;
  const PROVIDER = '209.85.220.41';
  const FOLLOWERS = 8;
  const links: string[] = [];
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '3', TRUST_PROXY: 'true' });
    for (let i = 0; i < FOLLOWERS; i++) {
      const email = `oneclick.${i}@example.org`;
      const follow = await request(`${svc.url}/api/v0/follow`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${i}` },
        body: JSON.stringify({ org_id: 'riverside-sfl', email }),
      });
      expect(follow.status).toBe(200);
      const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
      const header = mail.headers['list-unsubscribe']!;
      expect(header).toBe(`<${linkIn(mail.text, '/follow/unsubscribe?token=')}>`);
      links.push(header.slice(1, -1));
    }
  }, 120_000);
  afterAll(async () => svc?.stop());

  const oneClick = (url: string) =>
    request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': PROVIDER },
      body: 'List-Unsubscribe=One-Click',
    });
  const outcome = (page: string) => /data-outcome="([a-z_]+)"/.exec(page)?.[1];

  it('honours every one-click POST from one provider address, past the per-address writes limit', async () => {
    const answers = [];
    for (const link of links) answers.push(await oneClick(link));
    expect(answers.map((a) => a.status)).toEqual(links.map(() => 200));
    expect(answers.map((a) => outcome(a.text))).toEqual(links.map(() => 'unsubscribed'));
    // Counted per follow (each has its own allowance); a repeat is idempotent.
    const again = await oneClick(links[0]!);
    expect([again.status, outcome(again.text)]).toEqual([200, 'already_unsubscribed']);
  });

  it('still counts unknown and malformed tokens against the address, so guessing is as slow as any write', async () => {
    const guess = (i: number) => `${svc.url}/follow/unsubscribe?token=${String(i).padStart(43, 'A')}`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await oneClick(guess(i))).status);
    statuses.push((await oneClick(`${svc.url}/follow/unsubscribe?token=short`)).status);
    statuses.push((await oneClick(`${svc.url}/follow/unsubscribe`)).status);
    statuses.push((await oneClick(guess(99))).status);
    expect(statuses).toEqual([404, 404, 404, 429, 429, 429]);
    // A known token from the same (now limited) address is still answered.
    const known = await oneClick(links[1]!);
    expect([known.status, outcome(known.text)]).toEqual([200, 'already_unsubscribed']);
  });

  it('limits the repeats of one known token (per follow), without touching anyone else', async () => {
    const repeats = [];
    for (let i = 0; i < 3; i++) repeats.push((await oneClick(links[2]!)).status);
    // links[2] was posted once by the first test: this minute allows it three.
    expect(repeats).toEqual([200, 200, 429]);
    expect((await oneClick(links[3]!)).status).toBe(200);
  });
});
