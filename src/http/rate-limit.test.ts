import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.js';
import { RateLimiter } from './rate-limit.js';

describe('RateLimiter', () => {
  it('allows `limit` requests per window per key, then refuses with the time to reset', () => {
    let now = 0;
    const limiter = new RateLimiter('writes', 3, 60, () => now);
    const results = Array.from({ length: 4 }, () => limiter.take('a'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(limiter.take('b').allowed).toBe(true);
    now = 30_000;
    const refused = limiter.take('a');
    expect(refused).toMatchObject({ allowed: false, resetS: 30 });
    expect(limiter.headers(refused)).toEqual({
      'RateLimit-Policy': '"writes";q=3;w=60',
      RateLimit: '"writes";r=0;t=30',
      'Retry-After': '30',
    });
    now = 60_000;
    expect(limiter.take('a').allowed).toBe(true);
  });

  // The sweep that frees finished windows runs once a window length: it must not free one still running, or a client
  // at its limit would start again from nothing whenever the sweep passed.
  it('keeps counting a window still running when finished ones are swept', () => {
    let now = 0;
    const limiter = new RateLimiter('writes', 3, 60, () => now);
    limiter.take('done');
    now = 50_000;
    expect(Array.from({ length: 4 }, () => limiter.take('busy').allowed)).toEqual([true, true, true, false]);
    // 60 s after the last sweep: this take sweeps 'done' away, and 'busy' (10 s into its window) stays at its limit.
    now = 60_000;
    expect(limiter.take('busy')).toMatchObject({ allowed: false, resetS: 50 });
    expect(limiter.take('done').allowed).toBe(true);
  });

  // Retry-After is the time left in the window: a client (a club's form resubmitted by a parent) that waits exactly
  // that long must be let in, though no sweep has passed since its window began. Otherwise it is refused again and
  // told to wait one more second.
  it('lets a client in when it comes back after exactly the Retry-After it was told', () => {
    let now = 30_000;
    const limiter = new RateLimiter('writes', 3, 60, () => now);
    expect(Array.from({ length: 4 }, () => limiter.take('parent').allowed)).toEqual([true, true, true, false]);
    // This take sweeps (60 s after the last sweep); the parent's window, 30 s in, stays.
    now = 60_000;
    const refused = limiter.take('parent');
    expect(refused).toMatchObject({ allowed: false, resetS: 30 });
    now += refused.resetS * 1000;
    expect(limiter.take('parent')).toMatchObject({ allowed: true, remaining: 2, resetS: 60 });
  });

  it('is off with a limit of 0', () => {
    const limiter = new RateLimiter('writes', 0, 60);
    expect(Array.from({ length: 1000 }, () => limiter.take('a').allowed).every(Boolean)).toBe(true);
    expect(limiter.headers(limiter.take('a'))).toEqual({});
  });
});

describe('clientAddress', () => {
  const headers = (xff?: string) => new Headers(xff ? { 'x-forwarded-for': xff } : {});
  it.each([
    ['ignores X-Forwarded-For when the proxy is not trusted', headers('1.2.3.4'), 0, '10.0.0.1'],
    ['takes the entry our proxy appended when trusted', headers('6.6.6.6, 1.2.3.4'), 1, '1.2.3.4'],
    ['falls back to the socket without the header', headers(), 1, '10.0.0.1'],
    ['ignores an empty header', headers(' , '), 1, '10.0.0.1'],
    // A CDN in front of nginx (TRUST_PROXY=2): the CDN appended the visitor, nginx the CDN edge every visitor shares.
    ['behind two proxies, takes the entry the farther one appended', headers('6.6.6.6, 198.51.100.7, 203.0.113.1'), 2, '198.51.100.7'],
    ['behind two proxies, a request that came in past the farther one: its first entry', headers('198.51.100.7'), 2, '198.51.100.7'],
    // An IPv6 home connection holds a whole /56 (256 /64s): each of its addresses must not be a client of its own.
    ['counts an IPv6 address as its /56', headers('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), 1, '2001:db8:1:0::/56'],
    ['counts every address of one /56 as one client, its /64s too', headers('2001:DB8:1:ff::99'), 1, '2001:db8:1:0::/56'],
    ['the next /56 is another', headers('2001:db8:1:1ff::1'), 1, '2001:db8:1:100::/56'],
    ['expands :: before taking the /56', headers('2001:db8::1'), 1, '2001:db8:0:0::/56'],
    ['takes a bracketed IPv6 address', headers('[2001:db8:1:2::1]'), 1, '2001:db8:1:0::/56'],
    ['reads an IPv4 address written as IPv6 as that IPv4 address', headers('::ffff:198.51.100.9'), 1, '198.51.100.9'],
    ['keeps an entry that is no address as it is', headers('unknown'), 1, 'unknown'],
    // Some proxies append the client's port, which is new with every connection.
    ['drops the port after an IPv4 address', headers('203.0.113.5:51234'), 1, '203.0.113.5'],
    ['drops the port after a bracketed IPv6 address', headers('[2001:db8:1:2::1]:443'), 1, '2001:db8:1:0::/56'],
  ])('%s', (_label, h, trust, expected) => {
    expect(clientAddress(h, '10.0.0.1', trust)).toBe(expected);
  });

  it.each([
    ['2001:db8:aa:bb:1:2:3:4', '2001:db8:aa:0::/56'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['::1', '0:0:0:0::/56'],
    ['203.0.113.5', '203.0.113.5'],
  ])('keys the socket address %s as %s', (socket, expected) => {
    expect(clientAddress(headers('1.2.3.4'), socket, 0)).toBe(expected);
  });
});
