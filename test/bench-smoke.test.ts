// `npm run bench` on a tiny dataset: the command runs, its verifications hold, and it leaves nothing behind; and
// the floors it measures against (bench/reference/) do what they claim: the same answers and the same rows as the
// real endpoints. Timing targets are not asserted here (a busy machine misses them); the full-size figures are the
// bench's job.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { median, ratioOf } from '../bench/alternate.js';
import { request } from '../bench/http.js';
import { OUTBOX_STATE } from '../bench/reference/same-answers.js';
import { REFERENCE_SERVERS, startReference, type RunningReference } from '../bench/reference/start.js';
import { parseWrk } from '../bench/wrk.js';
import { SyncDb } from '../src/db/sync.js';
import { conditionalJson } from '../src/http/conditional.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { registrationRequestSchema } from '../src/registrations/schema.js';
import { submitRegistration } from '../src/registrations/service.js';
import { inviteMatch, rsvpSummary } from '../src/rsvp/service.js';
import { migratedDb, type TestDb } from './support/db.js';
import { stopChild, which } from './support/processes.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DEMO = path.join(ROOT, 'data/demo.json');

function bench(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, BENCH_EVENTS: '20', BENCH_MATCHES_PER_EVENT: '20', BENCH_ROUNDS: '2', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('npm run bench', () => {
  it('lists its scenarios, and refuses an unknown one with status 2', () => {
    const list = bench(['--list']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/regenerate/);
    expect(list.out).toMatch(/read/);
    const unknown = bench(['no-such-scenario']);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/unknown scenario/);
  });

  it('runs the regeneration scenario on a small dataset: no-change writes nothing, one change rewrites only its files', () => {
    for (const rss of ['time', 'self']) {
      const { code, out } = bench(['regenerate'], rss === 'self' ? { BENCH_RSS: 'self' } : {});
      expect(code, out).toBe(0);
      expect(out).toMatch(/SUMMARY/);
      expect(out).toMatch(/20 public events \(16 league, 4 knockout\), 400 matches/);
      // The summary table's line for a figure: "regenerate  NAME …  value  target  PASS|FAIL".
      const summary = out.slice(out.indexOf('SUMMARY'));
      const verdict = (name: string) =>
        summary.split('\n').find((l) => l.startsWith('regenerate') && l.includes(name))?.match(/(PASS|FAIL)$/)?.[1];
      // The full render against its floor: value, floor, ratio and target in one row.
      expect(summary, out).toMatch(/^regenerate\s+full regeneration, process wall\s+[\d.]+ s\s+[\d.]+ s\s+[\d.]+×\s+≤ 2×\s+(PASS|FAIL)$/m);
      for (const check of [
        'full: every event rendered, every run',
        'full: every run writes the bytes of the one-thread render',
        "floor: its gzip + brotli bytes = the render's .gz + .br files",
        'no change: printed "files written 0"',
        'no change: no file touched on disk',
        'one change: only that event re-rendered',
        'one change: printed "files written" = artifacts rewritten',
        'one change: no file rewritten with identical bytes',
        'one change: every changed file was rewritten',
        'one change: its standings and calendar were updated',
        'one change: only that event’s files and its two teams’ calendars (+ list, manifest) touched',
      ]) {
        expect(verdict(check), `${check}\n${out}`).toBe('PASS');
      }
      expect(out).toMatch(/full: peak RSS \(worst run\)\s+[\d.]+ MB/);
      expect(out).toMatch(/full: its files written alone \(one thread, informational\)\s+[\d.]+ s/);
      // A B A B: a floor run, then a full render, twice.
      expect([...out.matchAll(/^\s+([AB]\d) (?:floor|full) +process wall/gm)].map((m) => m[1])).toEqual(['A1', 'B1', 'A2', 'B2']);
      expect(out).not.toMatch(/ERROR/);
    }
  }, 120_000);

  it.skipIf(!which('wrk'))('runs the write scenario: each endpoint against its reference, alternating, every figure with its floor and ratio', () => {
    const { code, out } = bench(['write'], { BENCH_WRK_SECONDS: '1' });
    expect(code, out).toBe(0);
    const summary = out.slice(out.indexOf('SUMMARY'));
    const row = (name: string) => summary.split('\n').find((l) => l.startsWith('write') && l.includes(name)) ?? '';
    expect(row('RSVP summary reference: same answer as the endpoint'), out).toMatch(/PASS$/);
    expect(row('register reference: same answer and rows as the endpoint'), out).toMatch(/PASS$/);
    for (const name of ['GET /api/v0/rsvp/[matchId]', 'POST /api/v0/register']) {
      expect(row(`${name} requests/s`), out).toMatch(/[\d,]+ req\/s\s+[\d,]+ req\/s\s+[\d,.]+×\s+≥ 0\.5×\s+(PASS|FAIL)$/);
      expect(row(`${name} p99 latency`), out).toMatch(/[\d,.]+ ms\s+[\d,.]+ ms\s+[\d,.]+×\s+< 100 ms\s+(PASS|FAIL)$/);
      expect(row(`${name}: 0 errors in the floor's runs`), out).toMatch(/PASS$/);
    }
    // A B A B for each endpoint: reference, node, reference, node.
    const order = [...out.matchAll(/^\s+([AB]\d) (reference|node) /gm)].map((m) => `${m[1]} ${m[2]}`);
    const abab = ['A1 reference', 'B1 node', 'A2 reference', 'B2 node'];
    expect(order, out).toEqual([...abab, ...abab]);
    expect(row('POST /api/v0/follow requests/s'), out).toMatch(/req\/s$/);
    expect(out).not.toMatch(/ERROR/);
  }, 120_000);
});

describe('the write scenario\'s reference servers (the floors)', () => {
  let t: TestDb;
  let store: SyncDb;
  let register: RunningReference;
  let rsvp: RunningReference;
  const body = {
    org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Reference Player', name_ar: 'لاعب مرجعي',
    email: 'reference.player@example.org', date_of_birth: '2014-05-06', phone: '+962 79 555 0101',
  };
  const post = (fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request(`${register.url}/api/v0/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(fields) });
  const count = (table: string) => (t.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  beforeAll(async () => {
    t = await migratedDb();
    const parsed = parseImport(fs.readFileSync(DEMO, 'utf8'));
    if (!parsed.ok) throw new Error('demo data invalid');
    applyImport(t.sqlite, parsed.file);
    store = new SyncDb(t.sqlite);
    [register, rsvp] = await Promise.all([startReference(REFERENCE_SERVERS.register, t.file), startReference(REFERENCE_SERVERS.rsvpSummary, t.file)]);
  });
  afterAll(async () => {
    for (const r of [register, rsvp]) if (r) await stopChild(r.child);
    await t?.close();
  });

  it('opens the database with the real pragmas (src/db/connect.ts)', () => {
    for (const r of [register, rsvp]) {
      expect(r.started).toMatch(/journal_mode=wal synchronous=2 foreign_keys=1 busy_timeout=10000 secure_delete=1/);
    }
  });

  it('register: 201 with the endpoint\'s body and headers; the registration and its receipt committed in the outbox', async () => {
    const answer = await post(body);
    expect(answer.status).toBe(201);
    const json = JSON.parse(answer.body.toString('utf8')) as { status: string; id: string };
    expect(json).toEqual({ status: 'submitted', id: expect.stringMatching(/^reg_[A-Za-z0-9_-]{16}$/) });
    expect(answer.header('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.header('cache-control')).toBe('no-store');
    expect(answer.header('access-control-allow-origin')).toBe('*');
    expect(answer.header('x-content-type-options')).toBe('nosniff');
    expect(answer.header('transfer-encoding')).toBe('chunked');
    expect(answer.header('idempotent-replayed')).toBeNull();

    const row = t.sqlite.prepare('SELECT * FROM registrations WHERE id = ?').get(json.id);
    expect(row).toMatchObject({
      org_id: 'amman-yfa', division_id: 'amm-reg-u12', status: 'submitted', name: 'Reference Player', name_ar: 'لاعب مرجعي',
      email: 'reference.player@example.org', phone: '+962 79 555 0101', date_of_birth: '2014-05-06', guardian_name: null, notes: null,
    });
    const outbox = t.sqlite.prepare('SELECT * FROM email_outbox WHERE to_address = ?').all(body.email) as Array<Record<string, unknown>>;
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ tag: 'registration-receipt', status: 'pending', attempts: 0, template: 'registration-receipt' });
    expect(String(outbox[0]!.data_json)).toContain(json.id);

    // The same row the real service writes for the same request (every column but the worker's state), the ids
    // and addresses aside.
    const real = submitRegistration(store, registrationRequestSchema.parse({ ...body, email: 'service.player@example.org' }), { client: '127.0.0.1', now: new Date(), receiptsPerDay: 3, noticesPerDay: 200 });
    const serviceRow = t.sqlite.prepare('SELECT * FROM email_outbox WHERE to_address = ?').get('service.player@example.org') as Record<string, unknown>;
    const content = (r: Record<string, unknown>, id: string, email: string) =>
      Object.fromEntries(
        Object.keys(r)
          .filter((k) => !OUTBOX_STATE.includes(k))
          .map((k) => [k, typeof r[k] === 'string' ? (r[k] as string).split(id).join('{id}').split(email).join('{email}').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '{at}') : r[k]]),
      );
    expect(content(outbox[0]!, json.id, body.email)).toEqual(content(serviceRow, real.body.id, 'service.player@example.org'));
  });

  it('register: an Idempotency-Key replays the first answer, the key with another body is refused, nothing is written twice', async () => {
    const fields = { ...body, email: 'idempotent.player@example.org' };
    const before = { registrations: count('registrations'), outbox: count('email_outbox') };
    const first = await post(fields, { 'idempotency-key': 'bench-reference-1' });
    const again = await post(fields, { 'idempotency-key': 'bench-reference-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.toString()).toBe(first.body.toString());
    expect(again.header('idempotent-replayed')).toBe('true');
    const other = await post({ ...fields, name: 'Someone Else' }, { 'idempotency-key': 'bench-reference-1' });
    expect(other.status).toBe(422);
    // One receipt, and one notice per registration address of the organization.
    const { notices } = t.sqlite.prepare('SELECT json_array_length(registration_emails) AS notices FROM organizations WHERE id = ?').get(body.org_id) as { notices: number };
    expect(notices).toBeGreaterThan(0);
    expect({ registrations: count('registrations'), outbox: count('email_outbox') }).toEqual({
      registrations: before.registrations + 1,
      outbox: before.outbox + 1 + notices,
    });
  });

  it('register: an unknown organization is refused (422) and nothing is written', async () => {
    const before = { registrations: count('registrations'), outbox: count('email_outbox') };
    const answer = await post({ ...body, org_id: 'no-such-org' });
    expect(answer.status).toBe(422);
    expect({ registrations: count('registrations'), outbox: count('email_outbox') }).toEqual(before);
  });

  it('RSVP summary: the counts, ETag and Last-Modified of the service; 404 for an unknown match', async () => {
    const matchId = 'rsl-prem-r07-2';
    expect(inviteMatch(store, matchId, new Date('2026-01-01T00:00:00Z')).invited).toBeGreaterThan(1);
    t.sqlite.prepare(`UPDATE rsvp_invitations SET response = 'yes', responded_at = '2026-01-02T03:04:05.678Z' WHERE id = (SELECT min(id) FROM rsvp_invitations WHERE match_id = ?)`).run(matchId);
    const expected = rsvpSummary(store, matchId);
    const reference = await request(`${rsvp.url}/api/v0/rsvp/${matchId}`);
    expect(reference.status).toBe(200);
    expect(JSON.parse(reference.body.toString('utf8'))).toEqual(expected.summary);
    expect(expected.summary.summary.yes).toBe(1);
    const service = conditionalJson({ method: 'GET', ifNoneMatch: null, ifModifiedSince: null }, expected.summary, expected.lastModified);
    const serviceHeaders = new Headers(service.headers);
    for (const name of ['etag', 'last-modified', 'cache-control', 'content-type', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options']) {
      expect(reference.header(name), name).toBe(serviceHeaders.get(name));
    }
    expect((await request(`${rsvp.url}/api/v0/rsvp/no-such-match`)).status).toBe(404);
  });
});

describe('alternation figures', () => {
  it.each([
    { values: [3], median: 3 },
    { values: [4, 1], median: 2.5 },
    { values: [5, 1, 3], median: 3 },
    { values: [], median: Number.NaN },
  ])('median of $values is $median', ({ values, median: m }) => {
    expect(median(values)).toEqual(m);
  });

  it.each([
    { floor: [1000, 800], subject: [500, 480], value: 490, floorValue: 900, pairs: [0.5, 0.6] },
    { floor: [2, 2], subject: [5, 3], value: 4, floorValue: 2, pairs: [2.5, 1.5] },
  ])('floor $floor, subject $subject → median $value / $floorValue, pairs $pairs', ({ floor, subject, value, floorValue, pairs }) => {
    const r = ratioOf(floor, subject);
    expect(r.value).toBe(value);
    expect(r.floor).toBe(floorValue);
    expect(r.ratio).toBeCloseTo(value / floorValue);
    r.pairs.forEach((p, i) => expect(p).toBeCloseTo(pairs[i]!));
  });
});

describe('parseWrk', () => {
  it('reads requests/s, latency percentiles and errors', () => {
    const r = parseWrk(`Running 10s test @ http://127.0.0.1:8080/api/v0/events
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.24ms    1.05ms 363.41ms   85.89%
    Req/Sec     4.30k   512.00     5.00k    70.00%
  Latency Distribution
     50%  812.00us
     75%    3.73ms
     90%    6.51ms
     99%  212.99ms
  85510 requests in 10.00s, 47.50GB read
  Socket errors: connect 0, read 0, write 0, timeout 3
  Non-2xx or 3xx responses: 12
Requests/sec:   8551.00
Transfer/sec:      4.75GB
`);
    expect(r.requestsPerSec).toBe(8551);
    expect(r.requests).toBe(85510);
    expect(r.seconds).toBe(10);
    expect(r.latencyMs.p50).toBeCloseTo(0.812);
    expect(r.latencyMs.p99).toBeCloseTo(212.99);
    expect(r.latencyMs.max).toBeCloseTo(363.41);
    expect(r.non2xx).toBe(12);
    expect(r.socketErrors).toBe('connect 0, read 0, write 0, timeout 3');
    expect(r.transferPerSec).toBe('4.75GB');
  });
});
