// Rendering at send time: links minted then (hashes only in the database), a retry mints new links and the old
// ones keep working, and a row that cannot be rendered is refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../../test/support/db.js';
import { SyncDb } from '../db/sync.js';
import { findLinkToken } from '../security/link-tokens.js';
import { CATALOG } from './catalog.js';
import { composeEmail, CorruptOutboxRowError } from './compose.js';
import { InvalidOutgoingEmailError, queueEmail } from './outbox.js';

let t: TestDb;
let store: SyncDb;
const NOW = new Date('2026-11-21T12:00:00Z');
const BASE = 'https://competitions.example';
beforeEach(async () => {
  t = await migratedDb();
  store = new SyncDb(t.sqlite);
});
afterEach(async () => t.close());

const row = () => store.first(store.q.selectFrom('email_outbox').selectAll())!;
const tokenOf = (text: string, path: string) => new RegExp(`${BASE}${path}\\?token=([A-Za-z0-9_-]{43})`).exec(text)![1]!;

describe('composeEmail', () => {
  it('mints the links of a follow confirmation at send time; a second attempt mints new ones and the first still work', () => {
    store.transaction(() =>
      queueEmail(store, {
        to: 'fan@example.org',
        template: 'follow-confirm',
        data: { followId: 'fol_1', language: 'en', organizationName: 'Riverside', leagueName: null },
      }),
    );
    expect(store.all(store.q.selectFrom('link_tokens').selectAll())).toEqual([]);
    const first = composeEmail(store, row(), { baseUrl: BASE, now: NOW });
    const second = composeEmail(store, row(), { baseUrl: BASE, now: NOW });
    const confirm1 = tokenOf(first.text, '/follow/confirm');
    const confirm2 = tokenOf(second.text, '/follow/confirm');
    expect(confirm1).not.toBe(confirm2);
    for (const token of [confirm1, confirm2]) {
      expect(findLinkToken(store, 'follow-confirm', token, NOW)).toEqual({ subjectId: 'fol_1', expired: false });
      // A confirm token opens nothing else.
      expect(findLinkToken(store, 'follow-unsubscribe', token, NOW)).toBeUndefined();
    }
    expect(findLinkToken(store, 'follow-confirm', confirm1, new Date(NOW.getTime() + 8 * 86_400_000))?.expired).toBe(true);
    expect(first.headers['List-Unsubscribe']).toBe(`<${BASE}/follow/unsubscribe?token=${tokenOf(first.text, '/follow/unsubscribe')}>`);
    expect(JSON.stringify(store.all(store.q.selectFrom('link_tokens').selectAll()))).not.toContain(confirm1);
  });

  it("writes a digest's calendar links from the sender's base URL, not the one its row was queued with", () => {
    const seen = {
      label: 'Round 1', home: 'Lions', away: 'Rovers', kickoff_at: '2026-11-22T10:00:00Z', venue: null, status: 'completed' as const,
      home_score: 2, away_score: 1, home_penalties: null, away_penalties: null, walkover: null, next_label: null,
    };
    const data = CATALOG['follow-updates'].schema.parse({
      followId: 'fol_1', language: 'en', timeZone: 'UTC', kind: 'digest', organizationName: 'Riverside', leagueName: null,
      competitions: [{ name: 'Spring Cup', eventId: 'spring-cup', calendarUrl: 'http://localhost:4321/api/v0/calendar/spring-cup', changes: [{ kind: 'result', before: null, after: seen }] }],
    });
    const mail = CATALOG['follow-updates'].render(data, { unsubscribe: `${BASE}/follow/unsubscribe?token=t` }, { baseUrl: BASE, now: new Date() });
    expect(mail.text).toContain(`${BASE}/api/v0/calendar/spring-cup`);
    expect(mail.text).toContain('webcal://competitions.example/api/v0/calendar/spring-cup');
    expect(mail.text + mail.html).not.toContain('localhost:4321');
  });

  it('passes a prerendered row through unchanged', () => {
    store.transaction(() =>
      queueEmail(store, { to: 'a@example.org', template: 'prerendered', data: { subject: 'S', text: 'T', html: '<p>H</p>', headers: {} } }),
    );
    expect(composeEmail(store, row(), { baseUrl: BASE, now: NOW })).toEqual({ subject: 'S', text: 'T', html: '<p>H</p>', headers: {} });
  });

  it('refuses a row whose template is unknown or whose data no longer fits it', () => {
    expect(() => composeEmail(store, { template: 'nope', data_json: '{}' }, { baseUrl: BASE, now: NOW })).toThrow(CorruptOutboxRowError);
    expect(() => composeEmail(store, { template: 'rsvp-invite', data_json: '{"x":1}' }, { baseUrl: BASE, now: NOW })).toThrow(CorruptOutboxRowError);
    expect(() => composeEmail(store, { template: 'rsvp-invite', data_json: 'not json' }, { baseUrl: BASE, now: NOW })).toThrow(CorruptOutboxRowError);
  });

  it('refuses to queue data that does not fit its template', () => {
    expect(() =>
      // @ts-expect-error: the data of a follow confirmation is checked when it is queued too
      queueEmail(store, { to: 'a@example.org', template: 'follow-confirm', data: { followId: 'x' } }),
    ).toThrow(InvalidOutgoingEmailError);
    expect(store.all(store.q.selectFrom('email_outbox').selectAll())).toEqual([]);
  });
});
