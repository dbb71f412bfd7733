// The OpenAPI document (src/api/openapi/): valid OpenAPI 3.1 for a real validator, faithful to the contract's
// values and to the demo data its examples come from, served at /api/v0/openapi.json like the other reads,
// rendered at /docs; and every operation it lists is exercised here over HTTP. Every response to /api/v0/
// in every HTTP test is checked against it by test/support/http.ts; the checker's own tests are at the end.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ex from '../src/api/examples.js';
import { buildOpenApiDocument } from '../src/api/openapi/document.js';
import { METHODS, type JsonSchema, type OpenApiDocument, type OperationObject } from '../src/api/openapi/types.js';
import { encodeBracketSlot, encodeEvent, encodeStandingsRow } from '../src/competitions/encoders.js';
import { followRequestSchema } from '../src/follows/schema.js';
import { PROBLEM_KINDS } from '../src/http/problem-kinds.js';
import { registrationRequestSchema } from '../src/registrations/schema.js';
import { rsvpRespondSchema } from '../src/rsvp/schema.js';
import { checkedExchanges, ContractChecker, request, type Exchange } from './support/http.js';
import { startService, type RunningService } from './support/server.js';

const doc = buildOpenApiDocument();
const checker = new ContractChecker(doc);
const READ_CACHE = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';

/** Every `$ref` in a value, with where it is. */
function refsIn(value: unknown, at = '#'): [string, string][] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string' ? [[at, v] as [string, string]] : refsIn(v, `${at}/${k}`),
  );
}

const operations = (d: OpenApiDocument) =>
  Object.entries(d.paths).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path: p, method: m, op: item[m] as OperationObject })),
  );

describe('the OpenAPI document', () => {
  it('passes the OpenAPI 3.1 schema validator, with and without a server URL', async () => {
    for (const d of [doc, buildOpenApiDocument({ serverUrl: 'https://competitions.example' })]) {
      const validator = new Validator();
      const result = await validator.validate(d as unknown as Record<string, unknown>);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    }
  });

  it('is checked by a validator that does reject a broken document', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
    delete broken.paths['/api/v0/events']!.get!.responses;
    broken.paths['/api/v0/follow']!.post!.parameters = [{ name: 'x', in: 'nowhere' }];
    const result = await new Validator().validate(broken as unknown as Record<string, unknown>);
    expect(result.valid).toBe(false);
  });

  it('resolves every $ref, and its schemas compile', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const [, ref] of refs) expect(() => checker.deref({ $ref: ref }), ref).not.toThrow();
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(() => checker.validate(schema, null), name).not.toThrow();
    }
  });

  it('lists the eight endpoints of the spec, the .ics address of the calendar, the team calendar and itself, each with its preflight, HEAD on the reads, nothing else', () => {
    const listed = operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    const reads = [
      '/api/v0/events', '/api/v0/events/{eventId}/standings', '/api/v0/events/{eventId}/bracket', '/api/v0/calendar/{eventId}',
      '/api/v0/calendar/{eventId}.ics', '/api/v0/teams/{teamId}/calendar', '/api/v0/teams/{teamId}/calendar.ics', '/api/v0/rsvp/{matchId}',
      '/api/v0/openapi.json',
    ];
    const writes = ['/api/v0/follow', '/api/v0/rsvp/respond', '/api/v0/register'];
    expect(listed.sort()).toEqual([
      ...reads.flatMap((p) => [`GET ${p}`, `HEAD ${p}`, `OPTIONS ${p}`]),
      ...writes.flatMap((p) => [`POST ${p}`, `OPTIONS ${p}`]),
    ].sort());
    for (const p of reads) expect(doc.paths[p]!['x-allow']).toBe('GET, HEAD, OPTIONS');
    for (const p of writes) expect(doc.paths[p]!['x-allow']).toBe('POST, OPTIONS');
    for (const { op, path: p } of operations(doc)) {
      for (const param of (p.match(/\{(\w+)\}/g) ?? []).map((s) => s.slice(1, -1))) {
        expect(op.parameters?.map((x) => checker.deref(x).name), `${op.operationId} ${param}`).toContain(param);
      }
    }
  });

  it('has the statuses of the contract table on each operation', () => {
    const statuses = (p: string, m: 'get' | 'post') => Object.keys(doc.paths[p]![m]!.responses).sort();
    expect(statuses('/api/v0/events', 'get')).toEqual(['200', '304', '500', '503']);
    for (const p of ['/api/v0/events/{eventId}/standings', '/api/v0/events/{eventId}/bracket', '/api/v0/calendar/{eventId}', '/api/v0/calendar/{eventId}.ics', '/api/v0/teams/{teamId}/calendar', '/api/v0/teams/{teamId}/calendar.ics']) {
      expect(statuses(p, 'get')).toEqual(['200', '304', '404', '500']);
    }
    // What reads or writes the database may be a 503 while the operator has it to fix (its disk full, locked).
    expect(statuses('/api/v0/rsvp/{matchId}', 'get')).toEqual(['200', '304', '404', '429', '500', '503']);
    expect(statuses('/api/v0/follow', 'post')).toEqual(['200', '400', '413', '415', '422', '429', '500', '503']);
    expect(statuses('/api/v0/rsvp/respond', 'post')).toEqual(['200', '400', '404', '409', '413', '415', '422', '429', '500', '503']);
    expect(statuses('/api/v0/register', 'post')).toEqual(['201', '400', '413', '415', '422', '429', '500', '503']);
    expect(doc.components.responses.MethodNotAllowed!.headers!.Allow).toMatchObject({ required: true });
    expect(checker.deref(doc.components.responses.RateLimited!.headers!['Retry-After']!)).toMatchObject({ required: true });
  });

  it('documents every problem type of src/http/problem-kinds.ts, with its /docs anchor', () => {
    for (const { status, ...kind } of PROBLEM_KINDS) {
      const response = Object.values(doc.components.responses).find((r) => {
        const schema = r.content?.['application/problem+json']?.schema as { allOf?: JsonSchema[] } | undefined;
        return (schema?.allOf?.[1]?.properties as Record<string, JsonSchema> | undefined)?.status?.const === status;
      });
      expect(response, String(status)).toBeDefined();
      const example = Object.values(response!.content!['application/problem+json']!.examples!)[0]!.value as { type: string; title: string };
      expect(example).toMatchObject({ type: `/docs#problem-${kind.slug}`, title: kind.title, status: Number(status) });
    }
  });

  it('gives the values the contract decided', () => {
    const s = doc.components.schemas;
    const prop = (schema: string, field: string) => (s[schema]!.properties as Record<string, JsonSchema>)[field]!;
    const enumOf = (p: JsonSchema) => (p.enum ?? (p.anyOf as JsonSchema[]).find((x) => x.enum)?.enum) as string[];
    expect(enumOf(prop('Event', 'competition_type'))).toEqual(['league', 'knockout', 'hybrid']);
    expect(enumOf(prop('Event', 'status'))).toEqual(['scheduled', 'in_progress', 'completed', 'cancelled']);
    expect(enumOf(prop('BracketSlot', 'status'))).toEqual(['scheduled', 'in_progress', 'completed', 'postponed', 'cancelled']);
    expect(enumOf(prop('BracketSlot', 'side'))).toEqual(['home', 'away']);
    expect(enumOf(prop('BracketSlot', 'bracket_role'))).toEqual(['winners', 'losers', 'grand_final', 'grand_final_reset', 'third_place']);
    expect(prop('BracketSlot', 'source_outcome').anyOf).toEqual([expect.objectContaining({ enum: ['winner', 'loser'] }), { type: 'null' }]);
    expect(prop('Event', 'starts_at').anyOf).toEqual([expect.objectContaining({ format: 'date-time' }), { type: 'null' }]);
    expect(prop('Event', 'event_id').pattern).toBe('^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$');
    expect(checker.deref(doc.components.parameters.eventId!).schema.pattern).toBe('^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$');
    // As checked (a date), and as it may be sent (Arabic-Indic digits, spaces around): see the request schemas' test.
    expect(JSON.stringify(prop('RegistrationRequest', 'date_of_birth'))).toContain('"format":"date"');
    // Nullable fields are required (present as null), never optional: the contract's "null, never left out", rule
    // fields of a rule the competition does not use included.
    for (const name of ['Event', 'StandingsRow', 'BracketSlot']) {
      expect(s[name]!.required).toEqual(Object.keys(s[name]!.properties as object));
      expect(s[name]!.additionalProperties).toBe(false);
    }
    expect(doc.components.headers.CacheControlRead!.schema.const).toBe(READ_CACHE);
    expect(doc.components.headers.AccessControlAllowHeaders!.schema.const).toBe('Content-Type, Idempotency-Key, If-None-Match, If-Modified-Since, Cache-Control');
    // Every response, preflights and errors included, carries Access-Control-Allow-Origin.
    for (const { op, method, path: p } of operations(doc)) {
      for (const [status, r] of Object.entries(op.responses)) {
        expect(Object.keys(checker.deref(r).headers ?? {}), `${method} ${p} ${status}`).toContain('Access-Control-Allow-Origin');
      }
    }
    // Every POST takes JSON, urlencoded and multipart bodies.
    for (const { op } of operations(doc).filter((o) => o.method === 'post')) {
      expect(Object.keys(op.requestBody!.content)).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    }
    // A form's page is described outside `content`: a client generated from the document (an API review's, with
    // openapi-typescript) typed every answer of follow and register `… | string`, though a script never gets the page.
    for (const { op, method, path: p } of operations(doc)) {
      for (const [status, r] of Object.entries(op.responses)) {
        const response = checker.deref(r);
        expect(Object.keys(response.content ?? {}), `${method} ${p} ${status}`).not.toContain('text/html');
        const formPage = method === 'post' && ['/api/v0/follow', '/api/v0/register'].includes(p) && status !== '500' && status !== '204';
        if (formPage) expect(response['x-form-page'], `${method} ${p} ${status}`).toEqual({ contentType: 'text/html; charset=utf-8', schema: { type: 'string' } });
      }
    }
  });

  it('has the fields of each public schema in the order the encoders write them', () => {
    const keys = (name: string) => Object.keys(doc.components.schemas[name]!.properties as object);
    const event = encodeEvent(
      { id: 'e', league_id: 'l', league_name: 'L', org_id: 'o', org_name: 'O', language: 'en', timezone: 'UTC', name: 'E', competition_type: 'league', status: 'scheduled', starts_at: null, ends_at: null, venue_city: null, points: { win: 3, draw: 1, loss: 0 }, match_duration_min: 90 },
      null,
    );
    expect(Object.keys(event)).toEqual(keys('Event'));
    const counts = { played: 0, won: 0, drawn: 0, lost: 0, goals_for: 0, goals_against: 0, points: 0, away_goals_for: 0, away_won: 0 };
    const row = encodeStandingsRow({ rank: 1, club_name: 'C', club_name_ar: null, ...counts, team_id: 't', group_name: null, adjustment_points: -3, awaiting_decision: true });
    expect(Object.keys(row)).toEqual(keys('StandingsRow'));
    // Every row and every slot has every field, null where its rule is not used (the contract).
    const plain = encodeStandingsRow({ rank: 1, club_name: 'C', club_name_ar: null, ...counts, team_id: 't', group_name: null, adjustment_points: null, awaiting_decision: false });
    expect(Object.keys(plain)).toEqual(keys('StandingsRow'));
    expect(plain.adjustment_points).toBeNull();
    const base = { match_id: 'm', round_ordinal: 1, side: 'home' as const, team_id: null, bracket_role: 'winners' as const, source_match_id: null, source_outcome: null, status: 'scheduled' as const, winner_team_id: null, kickoff_at: null, score: null, penalties: null, round_name: null, walkover: false, after_extra_time: false };
    const named = (id: string) => ({ name: `Team ${id}`, name_ar: id === 'a' ? 'فريق أ' : null });
    const noBest = { source_best_placed: null, source_slot: null, source_groups: null };
    const slot = encodeBracketSlot({ ...base, leg: 2, first_leg_match_id: 'm1', source_group: 'Group A', source_position: 1, ...noBest }, named);
    expect(Object.keys(slot)).toEqual(keys('BracketSlot'));
    const bestSlot = encodeBracketSlot({ ...base, leg: 2, first_leg_match_id: 'm1', source_group: null, source_position: 3, source_best_placed: 'thirds', source_slot: 1, source_groups: ['Group A', 'Group D'] }, named);
    expect(Object.keys(bestSlot)).toEqual(keys('BracketSlot'));
    const single = encodeBracketSlot({ ...base, leg: null, first_leg_match_id: null, source_group: null, source_position: null, ...noBest }, named);
    expect(Object.keys(single)).toEqual(keys('BracketSlot'));
    expect(single).toMatchObject({ leg: null, first_leg_match_id: null, source_group: null, source_position: null, ...noBest });
    // A slot without a team has no name; one with a team has the name the renderer gives it.
    expect(single.team_name).toBeNull();
    expect(single.team_name_ar).toBeNull();
    const withTeam = encodeBracketSlot({ ...base, team_id: 'a', leg: null, first_leg_match_id: null, source_group: null, source_position: null, ...noBest }, named);
    expect([withTeam.team_name, withTeam.team_name_ar]).toEqual(['Team a', 'فريق أ']);
  });

  // A review: league_id, match_id, team_id and source_match_id all gave one competition's id as their example.
  it("gives each id field an example of its own kind, from the demo data", () => {
    type Demo = { organizations: Array<{ id: string; teams: Array<{ id: string }>; leagues: Array<{ id: string; events: Array<{ id: string; matches: Array<{ id: string }> }> }> }> };
    const demo = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../data/demo.json'), 'utf8')) as Demo;
    const orgs = demo.organizations;
    const ids = {
      org: orgs.map((o) => o.id),
      league: orgs.flatMap((o) => o.leagues.map((l) => l.id)),
      event: orgs.flatMap((o) => o.leagues.flatMap((l) => l.events.map((e) => e.id))),
      match: orgs.flatMap((o) => o.leagues.flatMap((l) => l.events.flatMap((e) => e.matches.map((m) => m.id)))),
      team: orgs.flatMap((o) => o.teams.map((t) => t.id)),
    };
    const kinds: Record<string, keyof typeof ids> = {
      'Event.league_id': 'league', 'Event.event_id': 'event', 'BracketSlot.match_id': 'match', 'BracketSlot.source_match_id': 'match',
      'BracketSlot.team_id': 'team', 'BracketSlot.winner_team_id': 'team', 'Event.org_id': 'org', 'StandingsRow.team_id': 'team',
    };
    for (const [field, kind] of Object.entries(kinds)) {
      const [schema, name] = field.split('.') as [string, string];
      const examples = JSON.stringify((doc.components.schemas[schema]!.properties as Record<string, unknown>)[name]).match(/"examples":\["([^"]+)"/)?.[1];
      expect(ids[kind], `${field}: ${examples}`).toContain(examples);
    }
  });

  it('has examples that fit their own schemas, and request examples the endpoints accept', () => {
    let count = 0;
    for (const { op, method, path: p } of operations(doc)) {
      const media = [
        ...Object.entries(op.requestBody?.content ?? {}),
        ...Object.values(op.responses).flatMap((r) => Object.entries(checker.deref(r).content ?? {})),
      ];
      for (const [type, m] of media) {
        for (const [name, e] of Object.entries(m.examples ?? {})) {
          expect(checker.validate(m.schema, e.value), `${method} ${p} ${type} ${name}`).toEqual([]);
          count++;
        }
      }
      for (const param of op.parameters ?? []) {
        const x = checker.deref(param);
        if (x.example !== undefined) expect(checker.validate(x.schema, x.example), x.name).toEqual([]);
      }
    }
    expect(count).toBeGreaterThan(20);
    expect(followRequestSchema.safeParse(ex.FOLLOW_REQUEST_EXAMPLE).success).toBe(true);
    expect(registrationRequestSchema.safeParse(ex.REGISTRATION_REQUEST_EXAMPLE).success).toBe(true);
    expect(rsvpRespondSchema.safeParse(ex.RSVP_RESPOND_REQUEST_EXAMPLE).success).toBe(true);
  });

  // A review validated, with Ajv, a body the server takes (201) against RegistrationRequest: five refusals (Arabic-
  // Indic digits in the phone and the date, "" and null for optional fields). A client checking its form from the
  // document refused Arabic input. The schema describes what may be sent; zod still decides (these must also pass it).
  it('takes in its request schemas what the service takes: Arabic-Indic digits, spaces around, blanks and nulls for optional fields', () => {
    const schema = { $ref: '#/components/schemas/RegistrationRequest' };
    const sent = {
      org_id: ' amman-yfa ', division_id: 'amm-reg-u12', name: 'عمر حداد', name_ar: '', email: 'omar@example.org',
      phone: '٠٧٩١٢٣٤٥٦٧', date_of_birth: '٢٠١٥-٠٣-٠٤', guardian_name: null, guardian_phone: '  ', notes: null,
    };
    expect(registrationRequestSchema.safeParse(sent).success).toBe(true);
    expect(checker.validate(schema, sent)).toEqual([]);
    // And still refuses what the service refuses.
    // A month or day of one digit, as the service takes it (kept as 2015-03-04), in either digits.
    for (const date of ['2015-3-4', '٢٠١٥-٣-٤', ' 2015-03-4 ']) {
      expect(registrationRequestSchema.safeParse({ ...sent, date_of_birth: date }).success, date).toBe(true);
      expect(checker.validate(schema, { ...sent, date_of_birth: date }), date).toEqual([]);
    }
    expect(checker.validate(schema, { ...sent, date_of_birth: '2015/03/04' })).not.toEqual([]);
    expect(checker.validate(schema, { ...sent, date_of_birth: '2015-034-4' })).not.toEqual([]);
    expect(checker.validate(schema, { ...sent, org_id: 'no spaces inside' })).not.toEqual([]);
    expect(checker.validate(schema, { ...sent, phone: 'call me' })).not.toEqual([]);
  });

  // The padded form of an address keeps an address's shape: the review of that change found " not an email " taken by
  // the document (its idn-email format is for the unpadded form, which this checker does not know).
  it('takes a padded address only in an address\'s shape', () => {
    const email = (doc.components.schemas.RegistrationRequest!.properties as Record<string, JsonSchema>).email!;
    const padded = (email.anyOf as JsonSchema[])[1]!;
    expect(checker.validate(padded, ' omar@example.org ')).toEqual([]);
    expect(checker.validate(padded, ' not an email ')).not.toEqual([]);
    expect(checker.validate(padded, 'omar@example.org')).not.toEqual([]); // unpadded: the first form's
  });

  // A later review: a name padded past its length, an email or an RSVP answer with spaces around, all taken (trimmed).
  it.each([
    ['RegistrationRequest', 'name', ` ${'ن'.repeat(120)}\n`, 'ن'.repeat(121)],
    ['RegistrationRequest', 'name', ' Omar ', '   '],
    // (The checker knows no idn-email format: the refusal shown is the length.)
    ['RegistrationRequest', 'email', ' omar@example.org ', `${'o'.repeat(250)}@example.org`],
    ['RsvpRespondRequest', 'status', ' yes ', 'yess'],
    ['RsvpRespondRequest', 'status', 'maybe', ' y es '],
  ] as const)('%s.%s takes %j, as the service does, and refuses %j', (id, field, taken, refused) => {
    const valid = id === 'RsvpRespondRequest'
      ? { token: 'x'.repeat(43), status: 'yes' }
      : { org_id: 'amman-yfa', name: 'Omar', email: 'omar@example.org' };
    const parse = id === 'RsvpRespondRequest' ? rsvpRespondSchema : registrationRequestSchema;
    const schema = { $ref: `#/components/schemas/${id}` };
    expect(parse.safeParse({ ...valid, [field]: taken }).success).toBe(true);
    expect(checker.validate(schema, { ...valid, [field]: taken })).toEqual([]);
    expect(parse.safeParse({ ...valid, [field]: refused }).success).toBe(false);
    expect(checker.validate(schema, { ...valid, [field]: refused })).not.toEqual([]);
  });

  it('has a curl example per GET and POST that calls its own path with a body its schema accepts', () => {
    const base = 'https://competitions.example';
    const d = buildOpenApiDocument({ serverUrl: base });
    for (const { op, method, path: p } of operations(d).filter((o) => o.method === 'get' || o.method === 'post')) {
      const samples = op['x-codeSamples'] ?? [];
      expect(samples, op.operationId).toHaveLength(1);
      const source = samples[0]!.source;
      const url = new URL(/curl .*?(https:\/\/\S+)/.exec(source)![1]!);
      expect(url.origin).toBe(base);
      expect(new RegExp(`^${p.replace(/\{\w+\}/g, '[^/]+')}$`).test(url.pathname), source).toBe(true);
      if (method === 'post') {
        expect(source).toContain('-X POST');
        const body = JSON.parse(/-d '([^']+)'/.exec(source)![1]!);
        expect(checker.validate(op.requestBody!.content['application/json']!.schema, body)).toEqual([]);
      }
    }
  });
});

describe('the document over HTTP', () => {
  let svc: RunningService;
  let limited: RunningService;
  beforeAll(async () => {
    [svc, limited] = await Promise.all([
      startService({ RATE_LIMIT_WRITES_PER_MIN: '0', RATE_LIMIT_READS_PER_MIN: '0' }),
      startService({ RATE_LIMIT_WRITES_PER_MIN: '1', RATE_LIMIT_READS_PER_MIN: '1' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([svc?.stop(), limited?.stop()]);
  });

  it('serves /api/v0/openapi.json as a read artifact, equal to buildOpenApiDocument() for its base URL', async () => {
    const res = await request(`${svc.url}/api/v0/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe(READ_CACHE);
    expect(res.headers['etag']).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(Date.parse(res.headers['last-modified']!)).not.toBeNaN();
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.json()).toEqual(buildOpenApiDocument({ serverUrl: svc.env.PUBLIC_BASE_URL }));
    expect(res.json().servers).toEqual([{ url: svc.url, description: 'This service' }]);
    const served = await new Validator().validate(res.json());
    expect(served.valid).toBe(true);

    const br = await request(`${svc.url}/api/v0/openapi.json`, { headers: { 'Accept-Encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(res.body)).toBe(true);
    const gz = await request(`${svc.url}/api/v0/openapi.json`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(zlib.gunzipSync(gz.body).equals(res.body)).toBe(true);
    expect((await request(`${svc.url}/api/v0/openapi.json`, { headers: { 'If-None-Match': res.headers['etag']! } })).status).toBe(304);
    expect((await request(`${svc.url}/api/v0/openapi.json`, { headers: { 'If-Modified-Since': res.headers['last-modified']! } })).status).toBe(304);
    const head = await request(`${svc.url}/api/v0/openapi.json`, { method: 'HEAD' });
    expect([head.status, head.body.length, head.headers['etag']]).toEqual([200, 0, res.headers['etag']]);
    expect((await request(`${svc.url}/api/v0/openapi.json`, { method: 'HEAD', headers: { 'If-None-Match': res.headers['etag']! } })).status).toBe(304);
    const preflight = await request(`${svc.url}/api/v0/openapi.json`, { method: 'OPTIONS', headers: { Origin: 'https://club.example' } });
    expect(preflight.status).toBe(204);
    // An API review: /docs did not say which request headers a preflight allows, nor that credentials are refused.
    const { description } = (JSON.parse(res.body.toString('utf8')) as { info: { description: string } }).info;
    expect(description).toContain(`\`${preflight.headers['access-control-allow-headers']}\``);
    expect(description).toContain(`\`${res.headers['access-control-expose-headers']}\``);
    expect(description).toContain("credentials: 'include'");
    expect((await request(`${svc.url}/api/v0/openapi.json`, { method: 'PUT', body: '{}' })).status).toBe(405);
  });

  it('answers 503 for a read not rendered yet, then serves it once it is', async () => {
    const dir = svc.env.ARTIFACTS_DIR!;
    for (const [url, file] of [['/api/v0/openapi.json', 'api/v0/openapi.json'], ['/api/v0/events', 'api/v0/events.json']] as const) {
      const full = path.join(dir, file);
      fs.renameSync(full, `${full}.away`);
      try {
        await new Promise((r) => setTimeout(r, 1100)); // the server re-checks a file at most once a second
        const res = await request(svc.url + url);
        expect(res.status).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect((await request(svc.url + url, { method: 'HEAD' })).status).toBe(503);
      } finally {
        fs.renameSync(`${full}.away`, full);
      }
      await new Promise((r) => setTimeout(r, 1100));
      expect((await request(svc.url + url)).status).toBe(200);
    }
  });

  it('has examples that are what the service answers for the demo data', async () => {
    const events = (await request(`${svc.url}/api/v0/events`)).json<unknown[]>();
    for (const e of ex.EVENTS_EXAMPLE) expect(events).toContainEqual(e);
    expect((await request(`${svc.url}/api/v0/events/rsl-prem-2026-27/standings`)).json()).toEqual(ex.STANDINGS_EXAMPLE);
    const groups = (await request(`${svc.url}/api/v0/events/amm-u14-winter-cup-2026/standings`)).json<unknown[]>();
    expect(groups.slice(0, ex.GROUP_STANDINGS_EXAMPLE.length)).toEqual(ex.GROUP_STANDINGS_EXAMPLE);
    const bracket = (await request(`${svc.url}/api/v0/events/rsl-cup-2026/bracket`)).json<unknown[]>();
    for (const slot of ex.BRACKET_EXAMPLE) expect(bracket).toContainEqual(slot);
    // The calendar's first VEVENT, with UIDs named after this server's host, and DTSTAMP (the match's last change:
    // here, when the demo data was loaded) left aside.
    const stamp = (s: string) => s.replace(/^DTSTAMP:\d{8}T\d{6}Z$/gm, 'DTSTAMP:(last change)');
    const calendar = stamp((await request(`${svc.url}/api/v0/calendar/rsl-prem-2026-27`)).text);
    const vevent = ex.CALENDAR_EXAMPLE.slice(ex.CALENDAR_EXAMPLE.indexOf('BEGIN:VEVENT'), ex.CALENDAR_EXAMPLE.indexOf('END:VCALENDAR'));
    expect(calendar).toContain(stamp(vevent).replace('@localhost', `@${new URL(svc.url).hostname}`));
    expect(calendar.startsWith(ex.CALENDAR_EXAMPLE.slice(0, ex.CALENDAR_EXAMPLE.indexOf('REFRESH-INTERVAL')))).toBe(true);
  });

  it('accepts the request examples as the document shows them', async () => {
    const post = (p: string, body: unknown, headers: Record<string, string> = {}) =>
      request(svc.url + p, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect((await post('/api/v0/follow', ex.FOLLOW_REQUEST_EXAMPLE)).json()).toEqual({ status: 'confirm_email_sent' });
    const key = { 'Idempotency-Key': String(doc.components.parameters.IdempotencyKey!.example) };
    const first = await post('/api/v0/register', ex.REGISTRATION_REQUEST_EXAMPLE, key);
    expect(first.status).toBe(201);
    const again = await post('/api/v0/register', ex.REGISTRATION_REQUEST_EXAMPLE, key);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([201, 'true']);
    expect(again.json()).toEqual(first.json());
    // The example's token is a placeholder: no invitation has it.
    expect((await post('/api/v0/rsvp/respond', ex.RSVP_RESPOND_REQUEST_EXAMPLE)).status).toBe(404);
  });

  it('answers every documented method of every path, and 405 for the others', async () => {
    const concrete = (p: string) =>
      p.replace('{eventId}', p.includes('standings') ? 'rsl-prem-2026-27' : p.includes('bracket') ? 'rsl-cup-2026' : 'rsl-prem-2026-27').replace('{matchId}', 'rsl-prem-r07-2').replace('{teamId}', 'rsl-rovers');
    for (const [template, item] of Object.entries(doc.paths)) {
      const url = svc.url + concrete(template);
      for (const method of METHODS.filter((m) => item[m] && m !== 'post')) {
        const res = await request(url, { method: method.toUpperCase(), headers: { Origin: 'https://club.example', 'Access-Control-Request-Method': 'GET' } });
        expect(res.status, `${method} ${template}`).toBe(method === 'options' ? 204 : 200);
        if (method === 'get' || method === 'head') {
          const again = await request(url, { method: method.toUpperCase(), headers: { 'If-None-Match': res.headers['etag']! } });
          expect(again.status, `${method} ${template} If-None-Match`).toBe(304);
        }
      }
      // No bodies: node sends none with Content-Length for some of these methods, which would garble a kept-alive socket.
      for (const method of ['PUT', 'DELETE', 'PATCH', item.post ? 'GET' : 'POST']) {
        const res = await request(url, { method });
        expect(res.status, `${method} ${template}`).toBe(405);
      }
    }
    // Unknown ids and unknown routes.
    for (const p of ['/api/v0/events/nope/standings', '/api/v0/events/nope/bracket', '/api/v0/calendar/nope', '/api/v0/rsvp/nope']) {
      expect((await request(svc.url + p)).status).toBe(404);
      expect((await request(svc.url + p, { method: 'HEAD' })).status).toBe(404);
    }
    expect((await request(`${svc.url}/api/v0/rsvp/rsl-prem-r07-2`, { method: 'HEAD', headers: { 'If-None-Match': '*' } })).status).toBe(304);
    expect((await request(`${svc.url}/api/v0/nothing/here`)).status).toBe(404);
    expect((await request(`${svc.url}/api/v0/nothing/here`, { method: 'OPTIONS' })).status).toBe(204);
  });

  it('answers malformed, oversized and unsupported bodies on every POST with the documented problems', async () => {
    for (const p of ['/api/v0/follow', '/api/v0/rsvp/respond', '/api/v0/register']) {
      const send = (body: string, type = 'application/json') => request(svc.url + p, { method: 'POST', headers: { 'Content-Type': type }, body });
      expect((await send('{"a":')).status).toBe(400);
      expect((await send('x'.repeat(20_000))).status).toBe(413);
      expect((await send('a=b', 'text/plain')).status).toBe(415);
      expect((await send('{}')).status).toBe(422);
      expect((await send('', 'application/x-www-form-urlencoded')).status).toBe(422);
    }
  });

  it('documents the 429s the rate limits give', async () => {
    const post = (p: string, body: unknown) =>
      request(limited.url + p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    for (const [p, body] of [
      ['/api/v0/follow', ex.FOLLOW_REQUEST_EXAMPLE],
      ['/api/v0/rsvp/respond', ex.RSVP_RESPOND_REQUEST_EXAMPLE],
      ['/api/v0/register', { org_id: 'riverside-sfl', name: 'Limit', email: 'limit@example.org' }],
    ] as const) {
      await post(p, body);
      const refused = await post(p, body);
      expect(refused.status, p).toBe(429);
      expect(refused.headers['ratelimit-policy']).toBe('"writes";q=1;w=60');
    }
    expect((await request(`${limited.url}/api/v0/rsvp/rsl-prem-r07-2`)).status).toBe(200);
    expect((await request(`${limited.url}/api/v0/rsvp/rsl-prem-r07-2`)).status).toBe(429);
    expect((await request(`${limited.url}/api/v0/rsvp/rsl-prem-r07-2`, { method: 'HEAD' })).status).toBe(429);
  });

  it('renders /docs from the document: every operation, every problem anchor, nothing from another host', async () => {
    const res = await request(`${svc.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.text;
    for (const kind of Object.values(PROBLEM_KINDS)) expect(html).toContain(`id="problem-${kind.slug}"`);
    for (const { op } of operations(doc).filter((o) => o.method === 'get' || o.method === 'post')) {
      expect(html).toContain(`id="op-${op.operationId}"`);
    }
    for (const name of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
    // Each calendar is offered as a person adds it: webcal, Google Calendar, https.
    const host = new URL(svc.url).host;
    expect(html).toContain(`href="webcal://${host}/api/v0/calendar/rsl-prem-2026-27"`);
    expect(html).toContain(`href="webcal://${host}/api/v0/teams/rsl-rovers/calendar"`);
    expect(html).toContain(`href="https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2F${encodeURIComponent(host)}%2Fapi%2Fv0%2Fteams%2Frsl-rovers%2Fcalendar"`);
    // Every in-page link has its anchor.
    for (const [, anchor] of html.matchAll(/href="#([^"]+)"/g)) expect(html, anchor).toContain(`id="${anchor}"`);
    // Fields, constraints and curl examples are on the page, with this server's base URL.
    expect(html).toContain('<code>date_of_birth</code>');
    expect(html).toContain('<code>group_name</code>');
    expect(html).toContain(`curl -s ${svc.url}/api/v0/events/rsl-prem-2026-27/standings`);
    expect(html).toContain('Idempotency-Key');
    // No block inside a paragraph (a description of several paragraphs was put inside the page's own <p>, which a
    // browser closes early, leaving a stray </p>), and every table in its scrolling box (44 were wider than a phone).
    let inParagraph = false;
    const nested: string[] = [];
    for (const [tag, close, name] of html.matchAll(/<(\/?)([a-z0-9]+)\b[^>]*>/g)) {
      if (name === 'p') inParagraph = close === '';
      else if (inParagraph && close === '' && /^(p|ul|ol|div|table|pre|section|h[1-6])$/.test(name!)) nested.push(tag);
    }
    expect(nested).toEqual([]);
    expect(html.match(/<table\b/g)!.length).toBe(html.match(/<div class="table-scroll"><table\b/g)?.length);
    // Nothing is loaded from elsewhere: no script at all, and every src/href attribute is local or this server.
    expect(html).not.toMatch(/<script/i);
    for (const [, url] of html.matchAll(/src="([^"]+)"/g)) expect(url, url).toMatch(/^(\/|#)/);
    for (const [, url] of html.matchAll(/<link[^>]*href="([^"]+)"/g)) expect(url, url).toMatch(/^(\/|#)/);
    // Links a person follows: local, or a calendar subscription (this server's feeds, and Google's add-by-URL page).
    for (const [, found] of html.matchAll(/<a[^>]*href="([^"]+)"/g)) {
      const url = found!;
      const ok = /^(\/|#)/.test(url) || url.startsWith(`webcal://${host}/`) || url.startsWith(`${svc.url}/`) ||
        url.startsWith('https://calendar.google.com/calendar/render?cid=webcal%3A%2F%2F');
      expect(ok, url).toBe(true);
    }
    // A real problem's type resolves to a section of the page.
    const problem = (await request(`${svc.url}/api/v0/events/nope/standings`)).json<{ type: string }>();
    expect(html).toContain(`id="${problem.type.split('#')[1]}"`);
  });

  it('exercised every operation of the document in this file, each response matching it', () => {
    const seen = new Set(checkedExchanges.map((e) => e.key.split(' ').slice(0, 2).join(' ')));
    const missing = operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`).filter((k) => !seen.has(k));
    expect(missing).toEqual([]);
    expect(checkedExchanges.filter((e) => e.problems.length > 0)).toEqual([]);
    expect(checkedExchanges.length).toBeGreaterThan(100);
  });
});

describe('the contract checker', () => {
  const event = ex.EVENTS_EXAMPLE[1]!;
  const readHeaders = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': READ_CACHE,
    etag: '"abcdefghijklmnopqrstuvwxyz0"',
    'last-modified': 'Sat, 07 Mar 2026 18:30:00 GMT',
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
    vary: 'Accept-Encoding',
  };
  const exchange = (over: Partial<Exchange> & { json?: unknown }): Exchange => ({
    method: 'GET',
    url: 'http://127.0.0.1:1/api/v0/events',
    status: 200,
    headers: readHeaders,
    body: Buffer.from(JSON.stringify(over.json ?? [event])),
    ...over,
  });
  const problems = (e: Exchange) => checker.check(e)?.problems ?? ['(not checked)'];

  it('accepts a response as documented, compressed or not', () => {
    expect(problems(exchange({}))).toEqual([]);
    const gz = exchange({ headers: { ...readHeaders, 'content-encoding': 'gzip' }, body: zlib.gzipSync(JSON.stringify([event])) });
    expect(problems(gz)).toEqual([]);
    expect(checker.check(exchange({ url: 'http://127.0.0.1:1/docs' }))).toBeNull();
  });

  it('finds a body that drifted from the schema', () => {
    const { champion_name: _c, ...missing } = event;
    expect(problems(exchange({ json: [missing] })).join()).toContain("must have required property 'champion_name'");
    expect(problems(exchange({ json: [{ ...event, extra: 1 }] })).join()).toContain('must NOT have additional properties');
    expect(problems(exchange({ json: [{ ...event, status: 'finished' }] })).join()).toContain('/0/status must be equal to one of the allowed values');
    expect(problems(exchange({ json: [{ ...event, starts_at: '2026-09-13T09:30:00+01:00' }] })).join()).toContain('/0/starts_at');
    expect(problems(exchange({ headers: { ...readHeaders, 'content-encoding': 'gzip' }, body: zlib.gzipSync('[{}]') })).join()).toContain('/0');
  });

  it('finds headers that drifted', () => {
    const { etag: _e, ...noEtag } = readHeaders;
    expect(problems(exchange({ headers: noEtag }))).toEqual(['header ETag is missing']);
    // A CDN that decompresses a stored body weakens its ETag: the document takes W/"…", not an unquoted tag.
    expect(problems(exchange({ headers: { ...readHeaders, etag: 'W/"abcdefghijklmnopqrstuvwxyz0"' } }))).toEqual([]);
    expect(problems(exchange({ headers: { ...readHeaders, etag: 'abcdefghijklmnopqrstuvwxyz0' } })).join()).toContain('header ETag');
    expect(problems(exchange({ headers: { ...readHeaders, etag: 'w/"abc"' } })).join()).toContain('header ETag');
    expect(problems(exchange({ headers: { ...readHeaders, 'cache-control': 'no-store' } })).join()).toContain('header Cache-Control');
    expect(problems(exchange({ headers: { ...readHeaders, 'content-type': 'text/plain' } })).join()).toContain('Content-Type "text/plain" is not documented');
  });

  it('finds undocumented statuses, methods and paths', () => {
    expect(problems(exchange({ status: 418 })).join()).toContain('status 418 is not documented');
    expect(problems(exchange({ method: 'PUT' })).join()).toContain('expected 405, got 200');
    expect(problems(exchange({ url: 'http://127.0.0.1:1/api/v0/leagues' })).join()).toContain('is on no documented path');
    expect(problems(exchange({ method: 'HEAD' })).join()).toContain('where the document describes none');
  });
});
