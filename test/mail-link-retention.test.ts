// Unsubscribe links end. Every follow email mints one, and they never expired and were never deleted, not even once
// the follow had unsubscribed: a daily digest to 100,000 followers left about 36 million live credentials a year,
// for good. Found by a review (/tmp/review-mail-repro/link-growth.test.ts: two years after an unsubscribe and a
// retention run, all 367 links of the follow were still there). Now an unsubscribe link works for a year after its
// email; the retention job deletes it 30 days after that, and every link of a follow 30 days after it unsubscribed.
// Real SQLite with the real migrations, the real follow service, compose (links minted as the worker mints them) and
// retention job; then the pages over HTTP against the real server.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SyncDb } from '../src/db/sync.js';
import { confirmFollow, endUndeliverableFollow, peekUnsubscribe, requestFollow, unsubscribeFollow } from '../src/follows/service.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { applyRetention } from '../src/jobs/retention.js';
import { composeEmail } from '../src/mail/compose.js';
import { hashToken } from '../src/security/tokens.js';
import { migratedDb, type TestDb } from './support/db.js';
import { request } from './support/http.js';
import { linkIn, readEmails, waitForEmail } from './support/mail.js';
import { runScript, startService, type RunningService } from './support/server.js';

const DAY = 24 * 3600_000;
const T0 = new Date('2026-01-01T12:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);
const BASE = 'https://c.example';

/** A migrated database holding test/fixtures/import-small.json. */
async function smallImport(): Promise<{ t: TestDb; store: SyncDb }> {
  const t = await migratedDb();
  const p = parseImport(fs.readFileSync('test/fixtures/import-small.json', 'utf8'));
  if (!p.ok) throw new Error('fixture');
  applyImport(t.sqlite, p.file);
  return { t, store: new SyncDb(t.sqlite) };
}

const tokenIn = (text: string, page: string) => new RegExp(`/follow/${page}\\?token=([A-Za-z0-9_-]{43})`).exec(text)![1]!;

describe('unsubscribe links in the database', () => {
  let t: TestDb;
  let store: SyncDb;
  beforeEach(async () => ({ t, store } = await smallImport()));
  afterEach(async () => t.close());

  const links = () => (t.sqlite.prepare(`SELECT count(*) AS n FROM link_tokens`).get() as { n: number }).n;
  const status = () => (t.sqlite.prepare(`SELECT status FROM follows`).get() as { status: string }).status;

  /** A confirmed follower of riverside, then a digest a day for `days` days: each digest's unsubscribe token. */
  function followerWithDigests(days: number): { followId: string; unsubscribeOn: (day: number) => string } {
    requestFollow(store, { org_id: 'riverside', email: 'a@example.org' }, { now: T0, emailsPerDay: 0 });
    const row = t.sqlite.prepare(`SELECT * FROM email_outbox`).get() as { data_json: string };
    const confirmation = composeEmail(store, row as never, { baseUrl: BASE, now: T0 });
    expect(confirmFollow(store, tokenIn(confirmation.text, 'confirm'), T0).outcome).toBe('confirmed');
    const followId = (JSON.parse(row.data_json) as { followId: string }).followId;
    const tokens: string[] = [];
    for (let day = 0; day < days; day++) {
      const digest = {
        followId, language: 'en', timeZone: 'UTC', kind: 'digest', organizationName: 'Riverside', leagueName: null,
        competitions: [{ name: 'Winter 2026', calendarUrl: `${BASE}/api/v0/calendar/rs-winter-2026`, changes: [{ kind: 'cancelled', before: null, after: null }] }],
      };
      tokens.push(tokenIn(composeEmail(store, { template: 'follow-updates', data_json: JSON.stringify(digest) }, { baseUrl: BASE, now: at(day) }).text, 'unsubscribe'));
    }
    return { followId, unsubscribeOn: (day) => tokens[day]! };
  }

  it('an unsubscribe link works for a year after its email, then says it expired and changes nothing', () => {
    const { unsubscribeOn } = followerWithDigests(2);
    expect(peekUnsubscribe(store, unsubscribeOn(0), at(364)).outcome).toBe('unsubscribed'); // would unsubscribe
    expect(unsubscribeFollow(store, unsubscribeOn(0), at(365.5)).outcome).toBe('expired');
    expect(status()).toBe('active');
    // The next day's email still has a day to go.
    expect(unsubscribeFollow(store, unsubscribeOn(1), at(365.5)).outcome).toBe('unsubscribed');
    expect(status()).toBe('unsubscribed');
    // Once unsubscribed, any link of the follow still known says so, expired or not.
    expect(peekUnsubscribe(store, unsubscribeOn(0), at(366)).outcome).toBe('already_unsubscribed');
  });

  it('retention deletes an active follow\'s links 30 days after they expired, and keeps the rest', () => {
    const { unsubscribeOn } = followerWithDigests(365);
    expect(links()).toBe(2 + 365); // the confirmation's two, and one a digest
    const removed = applyRetention(store, at(400)).links;
    // Expired before day 370: the confirm link (day 7) and the unsubscribe links of days 0 to 4 (the confirmation's
    // and five digests').
    expect(removed).toBe(1 + 1 + 5);
    expect(links()).toBe(360);
    expect(unsubscribeFollow(store, unsubscribeOn(4), at(400)).outcome).toBe('invalid');
    expect(unsubscribeFollow(store, unsubscribeOn(5), at(400)).outcome).toBe('expired');
    expect(peekUnsubscribe(store, unsubscribeOn(364), at(400)).outcome).toBe('unsubscribed');
  });

  it('retention deletes every link of a follow 30 days after it unsubscribed; until then a click says so', () => {
    const { unsubscribeOn } = followerWithDigests(365);
    expect(unsubscribeFollow(store, unsubscribeOn(300), at(301)).outcome).toBe('unsubscribed');
    applyRetention(store, at(330));
    expect(links()).toBeGreaterThan(0);
    expect(unsubscribeFollow(store, unsubscribeOn(100), at(330)).outcome).toBe('already_unsubscribed');
    applyRetention(store, at(332));
    expect(links()).toBe(0);
    expect(unsubscribeFollow(store, unsubscribeOn(300), at(332)).outcome).toBe('invalid');
    expect(status()).toBe('unsubscribed');
  });

  it('the review\'s case: two years after an unsubscribe and a retention run, no link of the follow is left', () => {
    const { unsubscribeOn } = followerWithDigests(365);
    unsubscribeFollow(store, unsubscribeOn(0), T0);
    applyRetention(store, at(730));
    expect(t.sqlite.prepare(`SELECT purpose, count(*) AS n FROM link_tokens GROUP BY purpose`).all()).toEqual([]);
  });
});

describe('follows never confirmed', () => {
  // Anyone can type anyone's address into the follow form. A follow its address never confirmed was kept for good
  // (a review found the pending rows of addresses a stranger had typed, two years on): now it goes once nothing
  // can confirm it any more, 39 days after its last confirmation was asked for; every other follow stays.
  let t: TestDb;
  let store: SyncDb;
  beforeEach(async () => ({ t, store } = await smallImport()));
  afterEach(async () => t.close());

  const follows = () => (t.sqlite.prepare(`SELECT email, status FROM follows ORDER BY email`).all() as { email: string; status: string }[]);
  /** Asks for a follow at `day` and sends its confirmation then: its two tokens. */
  function ask(email: string, day: number): { confirm: string; unsubscribe: string } {
    requestFollow(store, { org_id: 'riverside', email }, { now: at(day), emailsPerDay: 0 });
    const row = t.sqlite.prepare(`SELECT * FROM email_outbox ORDER BY id DESC LIMIT 1`).get() as { data_json: string };
    const text = composeEmail(store, row as never, { baseUrl: BASE, now: at(day) }).text;
    return { confirm: tokenIn(text, 'confirm'), unsubscribe: tokenIn(text, 'unsubscribe') };
  }

  it.each([
    ['never confirmed, asked 40 days ago', false, () => ask('stranger@example.org', 0)],
    ['never confirmed, asked 38 days ago (its confirm link still says it expired)', true, () => ask('recent@example.org', 2)],
    ['never confirmed, asked 60 days ago and again 10 days ago', true, () => { ask('again@example.org', -20); return ask('again@example.org', 30); }],
    ['confirmed 40 days ago', true, () => { const l = ask('fan@example.org', 0); confirmFollow(store, l.confirm, at(0)); return l; }],
    ['unsubscribed 20 days ago', true, () => { const l = ask('left@example.org', 0); unsubscribeFollow(store, l.unsubscribe, at(20)); return l; }],
  ] as const)('a follow %s → kept: %s', (_label, kept, make) => {
    const links = make();
    const before = follows();
    const result = applyRetention(store, at(40));
    if (kept) {
      expect(follows()).toEqual(before);
    } else {
      expect(follows()).toEqual([]);
      expect(result.unconfirmedFollows).toBe(1);
      // Its links went with it: an old email's unsubscribe link is no longer anybody's.
      expect(t.sqlite.prepare(`SELECT count(*) AS n FROM link_tokens`).get()).toEqual({ n: 0 });
      expect(peekUnsubscribe(store, links.unsubscribe, at(40)).outcome).toBe('invalid');
    }
  });
});

describe('follows that unsubscribed', () => {
  // A data protection review found every unsubscribed follower's address kept for good (a follow unsubscribed a year
  // before, still there after npm run retention). The address is needed for the 30 days of quiet after an unsubscribe
  // (the form sends that mailbox nothing, its links offer "Follow again"), and a day more while a confirmation withheld
  // in the quiet counts toward the mailbox's daily cap; then the follow goes, with its links and its finished emails.
  let t: TestDb;
  let store: SyncDb;
  beforeEach(async () => ({ t, store } = await smallImport()));
  afterEach(async () => t.close());

  /** A confirmed follow of `email` (its confirmation sent at day 0, its links minted), that leaves at `leftOn`. */
  function leaves(email: string, leftOn: number, how: 'unsubscribe' | 'provider' = 'unsubscribe'): { unsubscribe: string } {
    requestFollow(store, { org_id: 'riverside', email }, { now: T0, emailsPerDay: 0 });
    const row = t.sqlite.prepare(`SELECT * FROM email_outbox ORDER BY id DESC LIMIT 1`).get() as { id: number; data_json: string };
    const text = composeEmail(store, row as never, { baseUrl: BASE, now: T0 });
    t.sqlite.prepare(`UPDATE email_outbox SET status = 'sent' WHERE id = ?`).run(row.id);
    expect(confirmFollow(store, tokenIn(text.text, 'confirm'), T0).outcome).toBe('confirmed');
    const unsubscribe = tokenIn(text.text, 'unsubscribe');
    if (how === 'unsubscribe') expect(unsubscribeFollow(store, unsubscribe, at(leftOn)).outcome).toBe('unsubscribed');
    else expect(endUndeliverableFollow(store, (JSON.parse(row.data_json) as { followId: string }).followId, at(leftOn))).toBe(true);
    return { unsubscribe };
  }
  const follows = () => (t.sqlite.prepare(`SELECT email, status FROM follows ORDER BY email`).all() as { email: string; status: string }[]);
  const outboxTo = (email: string) => t.sqlite.prepare(`SELECT status, last_error FROM email_outbox WHERE to_address = ?`).all(email);

  it.each([
    ['unsubscribed with a link 32 days ago', false, 'unsubscribe', 0],
    ['ended by the provider refusing its address 32 days ago', false, 'provider', 0],
    ['unsubscribed 30.5 days ago (its quiet is over, its withheld confirmation still counts today)', true, 'unsubscribe', 1.5],
    ['unsubscribed 20 days ago (its quiet still runs)', true, 'unsubscribe', 12],
  ] as const)('a follow %s → kept: %s', (_label, kept, how, leftOn) => {
    const email = 'left@example.org';
    const links = leaves(email, leftOn, how);
    // A stranger types the address during the quiet: nothing is sent, and the outbox keeps a withheld row for the cap.
    requestFollow(store, { org_id: 'riverside', email }, { now: at(leftOn + 29.9), emailsPerDay: 3 });
    expect(outboxTo(email)).toEqual([
      { status: 'sent', last_error: null },
      { status: 'failed', last_error: 'withheld: the mailbox unsubscribed from this scope less than 30 days ago' },
    ]);
    leaves('fan@example.org', 0, 'unsubscribe'); // and another follow left the same day…
    t.sqlite.prepare(`UPDATE follows SET status = 'active', unsubscribed_at = NULL WHERE email = 'fan@example.org'`).run(); // …and came back
    const result = applyRetention(store, at(32));
    if (kept) {
      expect(follows()).toEqual([{ email: 'fan@example.org', status: 'active' }, { email, status: 'unsubscribed' }]);
      expect(result.unsubscribedFollows).toBe(0);
      // Only the confirmation, a sent email of 30 days, has gone (FINISHED_EMAIL_KEPT_MS).
      expect(outboxTo(email)).toEqual([{ status: 'failed', last_error: 'withheld: the mailbox unsubscribed from this scope less than 30 days ago' }]);
      return;
    }
    expect(follows()).toEqual([{ email: 'fan@example.org', status: 'active' }]);
    expect(result.unsubscribedFollows).toBe(1);
    // Nothing of it is left: its emails (the confirmation, the request withheld), its links.
    expect(outboxTo(email)).toEqual([]);
    expect(JSON.stringify(t.sqlite.prepare(`SELECT * FROM email_outbox`).all())).not.toContain('left@');
    expect(peekUnsubscribe(store, links.unsubscribe, at(32)).outcome).toBe('invalid');
    // The form now works as for a new follow.
    expect(requestFollow(store, { org_id: 'riverside', email }, { now: at(32), emailsPerDay: 3 })).toEqual({ status: 'confirm_email_sent' });
    expect(follows()).toEqual([{ email: 'fan@example.org', status: 'active' }, { email, status: 'pending' }]);
  });

  it("the review's case: a follow unsubscribed a year ago is deleted", () => {
    leaves('a.year.ago@example.org', 0);
    expect(applyRetention(store, at(365)).unsubscribedFollows).toBe(1);
    expect(follows()).toEqual([]);
  });
});

describe('the unsubscribe page, over HTTP', () => {
  let svc: RunningService;
  let db: Database.Database;
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0' });
    db = new Database(svc.env.DATABASE_PATH!);
  }, 120_000);
  afterAll(async () => {
    db?.close();
    await svc?.stop();
  });

  const form = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' };
  const outcome = (page: string) => /data-outcome="([a-z_]+)"/.exec(page)?.[1];
  const countEmails = async (to: string) => (await readEmails(svc.env.MAIL_DIR!)).filter((e) => e.to === to).length;
  const followStatus = (email: string) => (db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email) as { status: string }).status;

  it('says an expired link expired (410), unsubscribes nothing, and sends its holder to a more recent email', async () => {
    const email = 'expired.link@example.org';
    expect((await request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'riverside-sfl', email }) })).status).toBe(200);
    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    expect((await request(linkIn(mail.text, '/follow/confirm?token='), { ...form, body: '' })).status).toBe(303);
    const link = linkIn(mail.text, '/follow/unsubscribe?token=');
    const hash = hashToken(new URL(link).searchParams.get('token')!);
    // Minted with a year to run.
    const { created_at, expires_at } = db.prepare(`SELECT created_at, expires_at FROM link_tokens WHERE hash = ?`).get(hash) as { created_at: string; expires_at: string };
    expect(Date.parse(expires_at) - Date.parse(created_at)).toBe(365 * DAY);
    // A year later (the row's clock moved back instead of the server's forward).
    db.prepare(`UPDATE link_tokens SET expires_at = ? WHERE hash = ?`).run(new Date(Date.now() - 1000).toISOString(), hash);
    for (const answer of [await request(link), await request(link, form)]) {
      expect(answer.status).toBe(410);
      expect(outcome(answer.text)).toBe('expired');
      expect(answer.text).toContain('Use the link in a more recent email');
      expect(answer.text).not.toContain('<form');
    }
    expect(followStatus(email)).toBe('active');
    // Deleted by retention: not valid, and the page says what that means.
    db.prepare(`DELETE FROM link_tokens WHERE hash = ?`).run(hash);
    const gone = await request(link, form);
    expect([gone.status, outcome(gone.text)]).toEqual([404, 'invalid']);
    expect(gone.text).toContain('If you unsubscribed, you stay unsubscribed.');
  });

  it('the confirm page answers an expired link 410, as the unsubscribe page does, and every page status with its own reason', async () => {
    const email = 'late.confirm@example.org';
    expect((await request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'riverside-sfl', email }) })).status).toBe(200);
    const link = linkIn((await waitForEmail(svc.env.MAIL_DIR!, email)).text, '/follow/confirm?token=');
    const hash = hashToken(new URL(link).searchParams.get('token')!);
    // Eight days later (the row's clock moved back instead of the server's forward).
    db.prepare(`UPDATE link_tokens SET expires_at = ? WHERE hash = ?`).run(new Date(Date.now() - 1000).toISOString(), hash);
    for (const answer of [await request(link), await request(link, { ...form, body: '' })]) {
      expect([answer.status, answer.statusText, outcome(answer.text)]).toEqual([410, 'Gone', 'expired']);
    }
    expect(followStatus(email)).toBe('pending');
    const invalid = await request(`${svc.url}/follow/confirm?token=${'x'.repeat(43)}`);
    expect([invalid.status, invalid.statusText]).toEqual([404, 'Not Found']);
  });

  // Found by a review: the page of a link opened a week late said "follow again to get a new one", and had no form.
  it('an expired confirm link offers a new one, sent to the same address; the new link confirms', async () => {
    const email = 'week.late@example.org';
    const json = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'amman-yfa', email }) };
    expect((await request(`${svc.url}/api/v0/follow`, json)).status).toBe(200);
    const link = linkIn((await waitForEmail(svc.env.MAIL_DIR!, email)).text, '/follow/confirm?token=');
    db.prepare(`UPDATE link_tokens SET expires_at = ? WHERE hash = ?`).run(new Date(Date.now() - 1000).toISOString(), hashToken(new URL(link).searchParams.get('token')!));
    // Its confirmation went out minutes ago in this test: as if a week ago, out of the resend window.
    db.prepare(`UPDATE follows SET last_confirmation_sent_at = ? WHERE email = ?`).run(new Date(Date.now() - 8 * DAY).toISOString(), email);
    const page = await request(link);
    expect([page.status, outcome(page.text)]).toEqual([410, 'expired']);
    expect(page.text).toContain('<form method="post" data-new-link>');
    expect(page.text).toContain(`<bdi dir="ltr" data-address>${email}</bdi>`);
    // The button: a redirect to the page saying so (a reload sends nothing more).
    const asked = await request(link, { ...form, body: 'action=new-link' });
    expect(asked.status).toBe(303);
    const done = `${svc.url}${asked.headers.location}`;
    for (const answer of [await request(done), await request(done)]) {
      expect([answer.status, outcome(answer.text)]).toEqual([200, 'new_link_sent']);
      expect(answer.text).toContain('<html lang="ar" dir="rtl"');
    }
    const fresh = await waitForEmail(svc.env.MAIL_DIR!, email, (e) => !e.text.includes(link));
    expect(await countEmails(email)).toBe(2);
    const confirmed = await request(linkIn(fresh.text, '/follow/confirm?token='), { ...form, body: '' });
    expect(confirmed.status).toBe(303);
    expect(followStatus(email)).toBe('active');
    // The old link now says the follow is confirmed, and offers nothing to send.
    const after = await request(link);
    expect([after.status, outcome(after.text)]).toEqual([200, 'already_confirmed']);
    expect(after.text).not.toContain('data-new-link');
  });

  it("at the mailbox's daily cap, the new link is not sent and the page says when to try again (429)", async () => {
    const email = 'capped.late@example.org';
    for (const org_id of ['riverside-sfl', 'amman-yfa', 'northgate-ssa']) {
      expect((await request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id, email }) })).status).toBe(200);
    }
    const link = linkIn((await waitForEmail(svc.env.MAIL_DIR!, email, (e) => /Riverside/.test(e.subject))).text, '/follow/confirm?token=');
    db.prepare(`UPDATE link_tokens SET expires_at = ? WHERE hash = ?`).run(new Date(Date.now() - 1000).toISOString(), hashToken(new URL(link).searchParams.get('token')!));
    db.prepare(`UPDATE follows SET last_confirmation_sent_at = ? WHERE email = ?`).run(new Date(Date.now() - 8 * DAY).toISOString(), email);
    const asked = await request(link, { ...form, body: 'action=new-link' });
    expect([asked.status, outcome(asked.text)]).toEqual([429, 'capped']);
    expect(asked.headers['retry-after']).toMatch(/^\d+$/);
    expect(asked.text).toMatch(/Try again in (an hour|\d+ hours)\./);
    expect(db.prepare(`SELECT count(*) AS n FROM email_outbox WHERE to_address = ?`).get(email)).toEqual({ n: 3 });
  });

  it('npm run retention deletes a follow nobody confirmed once its confirmation can no longer be clicked', async () => {
    const email = 'typed.by.a.stranger@example.org';
    const asked = await request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'riverside-sfl', email }) });
    expect(asked.status).toBe(200);
    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    expect(followStatus(email)).toBe('pending');
    // 40 days on (the follow's clock moved back instead of the server's forward).
    db.prepare(`UPDATE follows SET created_at = ?, last_confirmation_sent_at = ? WHERE email = ?`)
      .run(...Array(2).fill(new Date(Date.now() - 40 * DAY).toISOString()), email);
    const out = await runScript(svc, 'retention.ts');
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/ 1 follows never confirmed/);
    expect(db.prepare(`SELECT count(*) AS n FROM follows WHERE email = ?`).get(email)).toEqual({ n: 0 });
    const gone = await request(linkIn(mail.text, '/follow/unsubscribe?token='), form);
    expect([gone.status, outcome(gone.text)]).toEqual([404, 'invalid']);
  });

  it("says what else the address still follows in the organization, whose emails go on (found by a review)", async () => {
    // The review unsubscribed from the organization's digest, read "no more emails about" it, and got its league's
    // digest the next day.
    const email = 'two.follows@example.org';
    const links: string[] = [];
    for (const scope of [{ org_id: 'riverside-sfl' }, { org_id: 'riverside-sfl', league_id: 'rsl-premier' }]) {
      await request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...scope, email }) });
      const mail = await waitForEmail(svc.env.MAIL_DIR!, email, (e) => !links.includes(linkIn(e.text, '/follow/unsubscribe?token=')));
      expect((await request(linkIn(mail.text, '/follow/confirm?token='), { ...form, body: '' })).status).toBe(303);
      links.push(linkIn(mail.text, '/follow/unsubscribe?token='));
    }
    // Each name isolated (U+2068 … U+2069, as <bdi>): in an Arabic page a Latin name keeps its punctuation at its end.
    const also = /<p data-also-following>([^<]*)<\/p>/;
    const ask = await request(links[0]!);
    expect(also.exec(ask.text)?.[1]).toBe('This address still follows \u2068Premier Division\u2069: those emails go on, each with its own link to stop them.');
    const done = await request(links[0]!, form);
    expect(outcome(done.text)).toBe('unsubscribed');
    expect(also.exec(done.text)?.[1]).toBe('This address still follows \u2068Premier Division\u2069: those emails go on, each with its own link to stop them.');
    // The league's own link: nothing else is followed any more.
    const last = await request(links[1]!, form);
    expect(outcome(last.text)).toBe('unsubscribed');
    expect(last.text).not.toContain('data-also-following');
  });

  // A native Arabic review read the list joined with "، " alone: "و" goes before its last name.
  it('an Arabic page lists what else the address follows as Arabic joins a list', async () => {
    const email = 'three.follows@example.org';
    const links: string[] = [];
    for (const scope of [{ org_id: 'amman-yfa' }, { org_id: 'amman-yfa', league_id: 'amm-u12' }, { org_id: 'amman-yfa', league_id: 'amm-u14' }]) {
      await request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...scope, email }) });
      const mail = await waitForEmail(svc.env.MAIL_DIR!, email, (e) => !links.includes(linkIn(e.text, '/follow/unsubscribe?token=')));
      expect((await request(linkIn(mail.text, '/follow/confirm?token='), { ...form, body: '' })).status).toBe(303);
      links.push(linkIn(mail.text, '/follow/unsubscribe?token='));
    }
    const ask = await request(links[0]!);
    expect(/<p data-also-following>([^<]*)<\/p>/.exec(ask.text)?.[1])
      .toBe('ما زال هذا العنوان يتابع \u2068دوري تحت 12 سنة\u2069 و\u2068بطولات تحت 14 سنة\u2069: تستمر تلك الرسائل، وفي كل منها رابط لإيقافها.');
  });

  it('still unsubscribes with a link within its year, and says so again on a second click', async () => {
    const email = 'fresh.link@example.org';
    await request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'riverside-sfl', email }) });
    const link = linkIn((await waitForEmail(svc.env.MAIL_DIR!, email)).text, '/follow/unsubscribe?token=');
    const ask = await request(link);
    expect([ask.status, outcome(ask.text)]).toEqual([200, 'ask']);
    const done = await request(link, form);
    expect([done.status, outcome(done.text)]).toEqual([200, 'unsubscribed']);
    expect(done.text).toContain('You are unsubscribed');
    const again = await request(link, form);
    expect([again.status, outcome(again.text)]).toEqual([200, 'already_unsubscribed']);
    expect(followStatus(email)).toBe('unsubscribed');
  });
});
