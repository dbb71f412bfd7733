// The read endpoints (1, 2, 3, 5) over HTTP against the running service, demo data loaded.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKS_DIR } from '../src/publish/folder-lock.js';
import { RENDER_LOCK } from '../src/publish/regenerate.js';
import { processState } from '../src/publish/run-marker.js';
import { MIN_COMPRESSED_BYTES } from '../src/publish/store.js';
import { tempDir } from './support/db.js';
import { inviteAsBefore, startService, type RunningService } from './support/server.js';
import { request } from './support/http.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc?.stop());

const READS = [
  ['/api/v0/events', 'application/json; charset=utf-8'],
  ['/api/v0/events/rsl-prem-2026-27/standings', 'application/json; charset=utf-8'],
  ['/api/v0/events/rsl-cup-2026/bracket', 'application/json; charset=utf-8'],
  ['/api/v0/calendar/rsl-prem-2026-27', 'text/calendar; charset=utf-8'],
] as const;

describe.each(READS)('GET %s', (path, contentType) => {
  it('answers 200 with the contract headers', async () => {
    const res = await request(svc.url + path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(contentType);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600, stale-if-error=86400');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(Date.parse(res.headers['last-modified']!)).not.toBeNaN();
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const get = await request(svc.url + path);
    const head = await request(svc.url + path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['etag']).toBe(get.headers['etag']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });

  it('answers 304 to If-None-Match and If-Modified-Since, 200 to a stale validator', async () => {
    const first = await request(svc.url + path);
    const etag = first.headers['etag']!;
    const byEtag = await request(svc.url + path, { headers: { 'If-None-Match': etag } });
    expect(byEtag.status).toBe(304);
    expect(byEtag.body.length).toBe(0);
    expect(byEtag.headers['etag']).toBe(etag);
    expect(byEtag.headers['access-control-allow-origin']).toBe('*');
    const listed = await request(svc.url + path, { headers: { 'If-None-Match': `"other", W/${etag}` } });
    expect(listed.status).toBe(304);
    const bySince = await request(svc.url + path, { headers: { 'If-Modified-Since': first.headers['last-modified']! } });
    expect(bySince.status).toBe(304);
    const stale = await request(svc.url + path, { headers: { 'If-None-Match': '"not-it"' } });
    expect(stale.status).toBe(200);
    const older = await request(svc.url + path, { headers: { 'If-Modified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
    expect(older.status).toBe(200);
  });

  it('answers 200 to an If-Modified-Since later than its clock (an invalid date, RFC 9110 13.1.3)', async () => {
    for (const future of [new Date(Date.now() + 3_600_000).toUTCString(), 'Fri, 31 Dec 9999 23:59:59 GMT']) {
      const res = await request(svc.url + path, { headers: { 'If-Modified-Since': future } });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['br', (b: Buffer) => zlib.brotliDecompressSync(b)],
    ['gzip', (b: Buffer) => zlib.gunzipSync(b)],
    ['gzip, deflate, br;q=1', (b: Buffer) => zlib.brotliDecompressSync(b)],
    ['br;q=0, gzip', (b: Buffer) => zlib.gunzipSync(b)],
  ])('serves the compressed variant for Accept-Encoding: %s', async (accept, decode) => {
    const plain = await request(svc.url + path);
    const res = await request(svc.url + path, { headers: { 'Accept-Encoding': accept } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(accept.startsWith('br;q=0') ? 'gzip' : accept.includes('br') ? 'br' : 'gzip');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['etag']).not.toBe(plain.headers['etag']);
    expect(res.body.length).toBeLessThan(plain.body.length);
    expect(decode(res.body).equals(plain.body)).toBe(true);
  });

  it('answers identity for Accept-Encoding it does not offer', async () => {
    const res = await request(svc.url + path, { headers: { 'Accept-Encoding': 'deflate, identity' } });
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('a read too short to gain from compression', () => {
  // A league's bracket is "[]": stored without .gz and .br (MIN_COMPRESSED_BYTES), served as it is to every client.
  it.each(['br', 'gzip', 'gzip, deflate, br'])('answers its identity bytes to Accept-Encoding: %s', async (accept) => {
    const res = await request(svc.url + '/api/v0/events/rsl-prem-2026-27/bracket', { headers: { 'Accept-Encoding': accept } });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.body.toString()).toBe('[]');
  });

  it('is documented with the size the store uses', async () => {
    const doc = (await request(svc.url + '/api/v0/openapi.json')).json<{ components: { parameters: Record<string, { description: string }>; headers: Record<string, { description: string }> } }>();
    expect(doc.components.parameters.AcceptEncoding!.description).toContain(`under ${MIN_COMPRESSED_BYTES} bytes`);
    expect(doc.components.headers.ContentEncoding!.description).toContain(`under ${MIN_COMPRESSED_BYTES} bytes`);
  });
});

describe('the RSVP summary', () => {
  it('revalidates by its ETag alone: its own Last-Modified in If-Modified-Since gets the counts again', async () => {
    const { default: Sqlite } = await import('better-sqlite3');
    const db = new Sqlite(svc.env.DATABASE_PATH!);
    try {
      inviteAsBefore(svc, db, 'rsl-prem-r07-2');
    } finally {
      db.close();
    }
    const target = `${svc.url}/api/v0/rsvp/rsl-prem-r07-2`;
    const first = await request(target);
    expect(first.status).toBe(200);
    const lastModified = first.headers['last-modified']!;
    expect(Date.parse(lastModified)).not.toBeNaN();
    // Counts change twice within the second a date tells, and when an invitation is withdrawn: a review got 304 with
    // stale counts. Only the ETag, of the counts themselves, answers 304.
    const dated = await request(target, { headers: { 'If-Modified-Since': lastModified } });
    expect(dated.status).toBe(200);
    expect(dated.json()).toEqual(first.json());
    expect((await request(target, { headers: { 'If-None-Match': first.headers.etag! } })).status).toBe(304);
  });
});

describe('read bodies', () => {
  it('lists public events only, with the spec fields, then their organization and its time zone, newest first', async () => {
    const events = (await request(svc.url + '/api/v0/events')).json<Record<string, unknown>[]>();
    expect(events.length).toBe(7);
    for (const e of events) {
      expect(Object.keys(e)).toEqual([
        'league_id', 'event_id', 'league_name', 'event_name', 'competition_type', 'status', 'starts_at', 'ends_at',
        'venue_city', 'champion_name', 'org_id', 'timezone', 'language', 'event_name_ar', 'league_name_ar', 'champion_name_ar',
      ]);
    }
    expect(events.map((e) => e.event_id)).not.toContain('nssa-futsal-friendlies-2026');
    const starts = events.map((e) => e.starts_at as string);
    expect([...starts].sort().reverse()).toEqual(starts);
    const byId = Object.fromEntries(events.map((e) => [e.event_id, e]));
    expect(byId['rsl-cup-2026']!.champion_name).toBe('Westgate Wanderers');
    expect(byId['nssa-futsal-champs-2026']!.champion_name).toBe('Northgate Academy Y10');
    expect(byId['rsl-prem-2026-27']!.champion_name).toBeNull();
    expect([byId['rsl-prem-2026-27']!.org_id, byId['rsl-prem-2026-27']!.timezone]).toEqual(['riverside-sfl', 'Europe/London']);
    expect([byId['amm-u14-winter-cup-2026']!.org_id, byId['amm-u14-winter-cup-2026']!.timezone]).toEqual(['amman-yfa', 'Asia/Amman']);
    // Its organization's language: an app tells an Arabic competition by it, not by guessing from its names.
    expect([byId['amm-u14-winter-cup-2026']!.language, byId['rsl-prem-2026-27']!.language]).toEqual(['ar', 'en']);
    // The Arabic names given beside the names, null where none was.
    expect([byId['amm-u12-autumn-2026']!.league_name_ar, byId['rsl-cup-2026']!.league_name_ar, byId['rsl-cup-2026']!.champion_name_ar]).toEqual(['دوري تحت 12 سنة', null, null]);
  });

  // An API review's Arabic club site showed one club of its Arabic table in Latin letters ("Amman International
  // Academy"), which its calendar named in Arabic: the Arabic name comes beside the name as written.
  it("gives the Arabic name beside a club's name, as its calendars show it", async () => {
    const rows = (await request(svc.url + '/api/v0/events/amm-u12-autumn-2026/standings')).json<Array<Record<string, unknown>>>();
    const aia = rows.find((r) => r.team_id === 'amm-u12-aia')!;
    expect([aia.club_name, aia.club_name_ar]).toEqual(['Amman International Academy', 'أكاديمية عمّان الدولية']);
    const feed = (await request(svc.url + '/api/v0/calendar/amm-u12-autumn-2026')).text;
    expect(feed).toContain('أكاديمية عمّان الدولية');
  });

  it("gives an event's org_id that the follow endpoint takes", async () => {
    const events = (await request(svc.url + '/api/v0/events')).json<Record<string, string>[]>();
    const prem = events.find((e) => e.event_id === 'rsl-prem-2026-27')!;
    const res = await request(svc.url + '/api/v0/follow', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ org_id: prem.org_id, league_id: prem.league_id, email: 'standings-fan@example.org' }),
    });
    expect([res.status, res.json()]).toEqual([200, { status: 'confirm_email_sent' }]);
  });

  it('ranks the demo league by points, goal difference, then head-to-head', async () => {
    const rows = (await request(svc.url + '/api/v0/events/rsl-prem-2026-27/standings')).json<{ rank: number; club_name: string; points: number }[]>();
    expect(rows.map((r) => [r.rank, r.club_name, r.points])).toEqual([
      [1, 'Riverside Rovers', 15],
      [2, 'Harbour Lane FC', 10],
      [3, 'Ashford Park Rangers', 10],
      [4, 'Old Mill Athletic', 7],
      [5, 'Crown & Anchor FC', 7],
      [6, 'Al-Noor FC', 0],
    ]);
  });

  it("gives each standings row its team_id, whose team calendar answers 200", async () => {
    const rows = (await request(svc.url + '/api/v0/events/rsl-prem-2026-27/standings')).json<{ club_name: string; team_id: string }[]>();
    expect(rows.map((r) => [r.club_name, r.team_id])).toEqual([
      ['Riverside Rovers', 'rsl-rovers'],
      ['Harbour Lane FC', 'rsl-harbour-lane'],
      ['Ashford Park Rangers', 'rsl-ashford-park'],
      ['Old Mill Athletic', 'rsl-old-mill'],
      ['Crown & Anchor FC', 'rsl-crown-anchor'],
      ['Al-Noor FC', 'rsl-al-noor'],
    ]);
    for (const { team_id } of rows) {
      const calendar = await request(`${svc.url}/api/v0/teams/${team_id}/calendar`);
      expect([team_id, calendar.status]).toEqual([team_id, 200]);
      expect(calendar.text).toContain('X-WR-CALNAME:');
    }
  });

  it('gives [] for the standings of a knockout and the bracket of a league', async () => {
    expect((await request(svc.url + '/api/v0/events/rsl-cup-2026/standings')).json()).toEqual([]);
    expect((await request(svc.url + '/api/v0/events/rsl-prem-2026-27/bracket')).json()).toEqual([]);
  });

  it('gives two slots per bracket match with the final decided on penalties', async () => {
    const slots = (await request(svc.url + '/api/v0/events/rsl-cup-2026/bracket')).json<Record<string, unknown>[]>();
    expect(slots.length).toBe(16);
    const final = slots.filter((s) => s.match_id === 'rsl-cup-final');
    expect(final.map((s) => s.side)).toEqual(['home', 'away']);
    expect(final.every((s) => s.winner_team_id === final[1]!.team_id)).toBe(true);
    expect(final[0]!.source_outcome).toBe('winner');
    // What a bracket screen shows: the teams' names, the kickoff, the score and the shoot-out.
    expect(final.map((s) => [s.team_id, s.team_name, s.kickoff_at, s.score, s.penalties])).toEqual([
      ['rsl-old-mill', 'Old Mill Athletic', '2026-11-01T13:30:00Z', 2, 3],
      ['rsl-westgate', 'Westgate Wanderers', '2026-11-01T13:30:00Z', 2, 4],
    ]);
    // A slot with no team has no name either.
    for (const s of slots) expect(s.team_name === null).toBe(s.team_id === null);
  });

  it("names a slot's team in the organization's language", async () => {
    const slots = (await request(svc.url + '/api/v0/events/amm-u14-winter-cup-2026/bracket')).json<Record<string, unknown>[]>();
    const semi = slots.find((s) => s.match_id === 'amm-u14-sf1' && s.side === 'away')!;
    expect([semi.team_id, semi.team_name, semi.score]).toEqual(['amm-salt', 'نادي السلط الرياضي', null]);
  });
});

describe('read errors', () => {
  it.each([
    '/api/v0/events/no-such-event/standings',
    '/api/v0/events/no-such-event/bracket',
    '/api/v0/calendar/no-such-event',
    '/api/v0/events/nssa-futsal-friendlies-2026/standings',
    '/api/v0/calendar/nssa-futsal-friendlies-2026',
    '/api/v0/events/..%2F..%2Fpackage.json/standings',
    '/api/v0/calendar/..%2F..%2F..%2Fpackage',
    '/api/v0/calendar/%2e%2e',
    '/api/v0/events/%00/bracket',
    '/api/v0/events/a%2Fb/standings',
    '/api/v0/teams/no-such-team/calendar',
    '/api/v0/teams/no-such-team/calendar.ics',
    '/api/v0/teams/..%2F..%2Fpackage/calendar',
  ])('answers 404 problem details for %s', async (path) => {
    const res = await request(svc.url + path);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json()).toMatchObject({ status: 404, title: 'Not found', type: expect.any(String), detail: expect.any(String) });
  });

  it('answers 405 with Allow to a write on a read route', async () => {
    const res = await request(svc.url + '/api/v0/events', { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toMatchObject({ status: 405 });
  });

  it('answers a preflight with 204 and the CORS headers', async () => {
    const res = await request(svc.url + '/api/v0/events', {
      method: 'OPTIONS',
      headers: { Origin: 'https://club.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Idempotency-Key, If-None-Match, If-Modified-Since, Cache-Control');
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
  });
});

describe('addresses people write', () => {
  it('serves the calendar at its .ics address too, the same bytes and validators', async () => {
    const canonical = await request(`${svc.url}/api/v0/calendar/rsl-prem-2026-27`);
    const ics = await request(`${svc.url}/api/v0/calendar/rsl-prem-2026-27.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(ics.headers['content-disposition']).toBe('inline; filename="rsl-prem-2026-27.ics"');
    expect(ics.headers.etag).toBe(canonical.headers.etag);
    expect(ics.text).toBe(canonical.text);
    expect((await request(`${svc.url}/api/v0/calendar/nope.ics`)).status).toBe(404);
  });

  it('serves a team calendar with the read headers, at both its addresses', async () => {
    const team = await request(`${svc.url}/api/v0/teams/rsl-rovers/calendar`);
    expect(team.status).toBe(200);
    expect(team.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(team.headers['content-disposition']).toBe('inline; filename="rsl-rovers.ics"');
    expect(team.headers['access-control-allow-origin']).toBe('*');
    expect(team.headers['cache-control']).toMatch(/public/);
    expect(team.text).toContain('X-WR-CALNAME:Riverside Rovers');
    const again = await request(`${svc.url}/api/v0/teams/rsl-rovers/calendar.ics`, { headers: { 'If-None-Match': String(team.headers.etag) } });
    expect(again.status).toBe(304);
  });

  it.each([
    ['GET', '/api/v0/events/', '/api/v0/events'],
    ['HEAD', '/api/v0/events/rsl-prem-2026-27/standings/', '/api/v0/events/rsl-prem-2026-27/standings'],
    ['GET', '/api/v0/calendar/rsl-prem-2026-27.ics/?x=1', '/api/v0/calendar/rsl-prem-2026-27.ics?x=1'],
    ['POST', '/api/v0/follow/', '/api/v0/follow'],
  ])('redirects %s %s to the address without its trailing slash (308 keeps the method)', async (method, from, to) => {
    const res = await request(`${svc.url}${from}`, { method, contract: false });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(to);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a preflight to an address with a trailing slash where it is asked (browsers do not follow redirects there)', async () => {
    const res = await request(`${svc.url}/api/v0/follow/`, { method: 'OPTIONS', contract: false });
    expect(res.status).toBe(204);
  });
});

describe('start-up beside another render', () => {
  it('serves at once when another process renders the folder, rather than wait for it (up to 5 minutes)', async () => {
    // The render lock as cron's `npm run regenerate` would hold it: this test's process, alive, not the server.
    const dir = tempDir('competitions-http-');
    const locks = path.join(dir, 'artifacts', LOCKS_DIR);
    fs.mkdirSync(locks, { recursive: true });
    const own = processState(process.pid) as { start: string };
    fs.writeFileSync(path.join(locks, RENDER_LOCK), JSON.stringify({ pid: process.pid, processStart: own.start }));
    const started = Date.now();
    const other = await startService({}, dir);
    try {
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(other.output()).toContain(`start-up render skipped: another render (pid ${process.pid}) is rendering`);
      expect((await request(`${other.url}/api/v0/rsvp/rsl-prem-r07-2`)).status).toBe(200);
    } finally {
      await other.stop();
    }
  }, 90_000);
});
