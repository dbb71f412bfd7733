// Secrets and privacy against the running service: the demo data plus activity generated here (follows
// confirmed and unsubscribed, registrations, RSVP invitations for a public, an Arabic and a private match,
// answers through the API and the page). Properties:
//   - every emailed token is 256 random bits (43 base64url characters), stored only as its SHA-256,
//     compared in constant time, and never printed; no email address is printed either;
//   - the private event, every email address, and what registrants and followers submitted never appear in a
//     rendered artifact or a public read; the private event's reads answer 404;
//   - every API response says nosniff; the HTML pages carry a strict CSP and no Referer.
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SyncDb } from '../../src/db/sync.js';
import { confirmFollow, peekUnsubscribe, requestFollow, unsubscribeFollow } from '../../src/follows/service.js';
import { hashToken, newToken, tokenMatches } from '../../src/security/tokens.js';
import { invitationByToken, migratedDb } from '../support/db.js';
import { composeQueued, readEmails, type ReceivedEmail } from '../support/mail.js';
import { inviteAsBefore, startService, type RunningService } from '../support/server.js';
import { decodedBody, decodedFile, header, searchableText, send, sleep, walkFiles, type Outgoing, type Reply } from '../support/raw-http.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PRIVATE_EVENT = 'nssa-futsal-friendlies-2026';
const FUTURE_MATCH = 'rsl-prem-r07-2';
const ARABIC_MATCH = 'amm-u14-sf1';
const PRIVATE_MATCH = 'nssa-friendly-1';

// What the public submits here: distinctive, so that finding any of it anywhere is unambiguous.
const FOLLOWERS = {
  confirmedEn: 'zelda.quillfeather@fans.example',
  confirmedAr: 'rania.saqqaf.follower@fans.example',
  unsubscribed: 'otto.unsubscriber@fans.example',
  throttled: 'tess.throttled@fans.example',
};
const REGISTRANTS = [
  {
    org_id: 'riverside-sfl', division_id: 'rsl-reg-premier', name: 'Quentin Vexley-Marchbanks', email: 'quentin.vexley@players.example',
    phone: '+44 7700 900417', date_of_birth: '2009-04-17', guardian_name: 'Philippa Vexley-Marchbanks', guardian_phone: '+44 7700 900418',
    notes: 'Prefers left wing; knee brace xq-7731',
  },
  {
    org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Ziyad Barakzai', name_ar: 'زياد بركزاي المسجّل', email: 'ziyad.barakzai@players.example',
    phone: '+962 79 555 0142', date_of_birth: '2014-09-02', guardian_name: 'Laila Barakzai', guardian_phone: '+962 79 555 0143',
    notes: 'ملاحظة سرية للمدرب 7731',
  },
];

interface Demo {
  organizations: {
    teams: { id: string; name: string; name_ar: string | null; members: { name: string; email?: string | null }[] }[];
    leagues: {
      events: {
        id: string; name: string; name_ar?: string | null; public: boolean;
        matches: { id: string; venue: string | null; home: unknown; away: unknown }[];
      }[];
    }[];
  }[];
}
const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/demo.json'), 'utf8')) as Demo;
const events = demo.organizations.flatMap((o) => o.leagues.flatMap((l) => l.events));
const teams = demo.organizations.flatMap((o) => o.teams);
const MEMBER_EMAILS = teams.flatMap((t) => t.members.map((m) => m.email)).filter((e): e is string => typeof e === 'string');
const teamsOf = (e: (typeof events)[number]) =>
  new Set(e.matches.flatMap((m) => [m.home, m.away]).filter((t): t is string => typeof t === 'string'));

/** Everything that names the private event and exists only because of it. */
function privateEventStrings(): string[] {
  const priv = events.filter((e) => !e.public);
  const pub = events.filter((e) => e.public);
  const publicTeams = new Set(pub.flatMap((e) => [...teamsOf(e)]));
  const publicVenues = new Set(pub.flatMap((e) => e.matches.map((m) => m.venue)));
  const out = new Set<string>();
  for (const e of priv) {
    out.add(e.id);
    out.add(e.name);
    if (e.name_ar) out.add(e.name_ar);
    for (const m of e.matches) {
      out.add(m.id);
      if (m.venue && !publicVenues.has(m.venue)) out.add(m.venue);
    }
    for (const t of teamsOf(e)) {
      if (publicTeams.has(t)) continue;
      const team = teams.find((x) => x.id === t)!;
      out.add(team.id);
      out.add(team.name);
      if (team.name_ar) out.add(team.name_ar);
    }
  }
  return [...out];
}

let svc: RunningService;
let db: Database.Database;
const inviteOutput: string[] = [];
let emails: ReceivedEmail[] = [];
/** token → the kind of link it came in and the email files it appears in. */
const tokens = new Map<string, { kind: string; files: Set<string> }>();
/** Every API response the activity produced, for the header checks. */
const apiResponses: { label: string; res: Reply }[] = [];
const pageResponses: { label: string; res: Reply }[] = [];
let registrationIds: string[] = [];

async function api(label: string, target: string, o: Outgoing = {}): Promise<Reply> {
  const res = await send(svc.url, target, o);
  apiResponses.push({ label: `${label}: ${o.method ?? 'GET'} ${target.split('?')[0]} → ${res.status}`, res });
  return res;
}
async function page(label: string, target: string, o: Outgoing = {}): Promise<Reply> {
  const res = await send(svc.url, target, o);
  pageResponses.push({ label: `${label}: ${o.method ?? 'GET'} ${target.split('?')[0]} → ${res.status}`, res });
  return res;
}
const json = (body: unknown, headers: Record<string, string> = {}): Outgoing => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

async function drainOutbox(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { n } = db.prepare(`SELECT count(*) AS n FROM email_outbox WHERE status = 'pending'`).get() as { n: number };
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`${n} emails still pending after 30 s`);
    await sleep(100);
  }
}

async function collectEmails(): Promise<void> {
  await drainOutbox();
  emails = await readEmails(svc.env.MAIL_DIR!);
  tokens.clear();
  for (const e of emails) {
    const haystack = [e.text, e.html, ...Object.values(e.headers)].join('\n');
    for (const m of haystack.matchAll(/\/(follow\/confirm|follow\/unsubscribe|rsvp)\?token=([^\s"'<>&]*)/g)) {
      const entry = tokens.get(m[2]!) ?? { kind: m[1]!, files: new Set<string>() };
      entry.files.add(e.file);
      tokens.set(m[2]!, entry);
    }
  }
}

const tokensOf = (kind: string) => [...tokens.entries()].filter(([, v]) => v.kind === kind).map(([t]) => t);
const linkFor = (to: string, kind: string) => {
  const e = emails.find((x) => x.to === to && x.text.includes(`/${kind}?token=`));
  if (!e) throw new Error(`no ${kind} email to ${to}`);
  return /\?token=([A-Za-z0-9_-]+)/.exec(e.text.slice(e.text.indexOf(`/${kind}?token=`)))![1]!;
};
const invitationOf = (token: string) => invitationByToken(db, token);

function invite(match: string): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', match], {
    cwd: ROOT,
    env: { ...process.env, ...svc.env },
    encoding: 'utf8',
  });
  inviteOutput.push(r.stdout, r.stderr);
  if (r.status !== 0) throw new Error(`invite ${match} failed:\n${r.stdout}\n${r.stderr}`);
}

beforeAll(async () => {
  svc = await startService({
    RATE_LIMIT_WRITES_PER_MIN: '0',
    RATE_LIMIT_READS_PER_MIN: '0',
    FOLLOW_EMAILS_PER_DAY: '3',
    MAIL_TRANSPORT: 'file',
    MAIL_FROM: 'Competitions <no-reply@competitions.example>',
  });
  db = new Database(svc.env.DATABASE_PATH!);
  const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
  db.prepare(`UPDATE matches SET kickoff_at = ?, status = 'scheduled' WHERE id IN (?, ?)`).run(future, FUTURE_MATCH, ARABIC_MATCH);

  // Follows: confirmed (English and Arabic organization), unsubscribed, and one address throttled to a 429.
  expect((await api('follow', '/api/v0/follow', json({ org_id: 'riverside-sfl', email: FOLLOWERS.confirmedEn }))).status).toBe(200);
  expect((await api('follow', '/api/v0/follow', json({ org_id: 'amman-yfa', league_id: 'amm-u12', email: FOLLOWERS.confirmedAr }))).status).toBe(200);
  expect((await api('follow', '/api/v0/follow', json({ org_id: 'northgate-ssa', email: FOLLOWERS.unsubscribed }))).status).toBe(200);
  const scopes = [{}, { league_id: 'rsl-premier' }, { league_id: 'rsl-div-one' }, { league_id: 'rsl-cup' }];
  const throttled = [];
  for (const scope of scopes) throttled.push((await api('follow', '/api/v0/follow', json({ org_id: 'riverside-sfl', ...scope, email: FOLLOWERS.throttled }))).status);
  expect(throttled).toEqual([200, 200, 200, 429]);

  // Registrations, one retried with its Idempotency-Key.
  const first = await api('register', '/api/v0/register', json(REGISTRANTS[0], { 'Idempotency-Key': 'privacy-test-1' }));
  const replay = await api('register', '/api/v0/register', json(REGISTRANTS[0], { 'Idempotency-Key': 'privacy-test-1' }));
  const second = await api('register', '/api/v0/register', json(REGISTRANTS[1]));
  expect([first.status, replay.status, second.status]).toEqual([201, 201, 201]);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  registrationIds = [JSON.parse(first.text).id, JSON.parse(second.text).id];

  // Invitations: a public match, an Arabic organization's match, and a match of the private event.
  for (const match of [FUTURE_MATCH, ARABIC_MATCH]) invite(match);
  // Invited while its competition was public; it is private now.
  inviteOutput.push(...Object.values(inviteAsBefore(svc, db, PRIVATE_MATCH)));
  await collectEmails();

  // Confirm, unsubscribe (RFC 8058 one-click POST), answer invitations by the API and by the page.
  const post = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' };
  expect((await page('confirm (ask)', `/follow/confirm?token=${linkFor(FOLLOWERS.confirmedEn, 'follow/confirm')}`)).status).toBe(200);
  // A confirmation is answered with the page to GET (303); the page then, once confirmed, in each language.
  expect((await page('confirm', `/follow/confirm?token=${linkFor(FOLLOWERS.confirmedEn, 'follow/confirm')}`, post)).status).toBe(303);
  expect((await page('confirm again', `/follow/confirm?token=${linkFor(FOLLOWERS.confirmedEn, 'follow/confirm')}`, post)).status).toBe(200);
  expect((await page('confirmed', `/follow/confirm?token=${linkFor(FOLLOWERS.confirmedEn, 'follow/confirm')}&done=confirmed`)).status).toBe(200);
  expect((await page('confirm', `/follow/confirm?token=${linkFor(FOLLOWERS.confirmedAr, 'follow/confirm')}`, post)).status).toBe(303);
  expect((await page('confirmed', `/follow/confirm?token=${linkFor(FOLLOWERS.confirmedAr, 'follow/confirm')}&done=confirmed`)).status).toBe(200);
  const unsubscribe = linkFor(FOLLOWERS.unsubscribed, 'follow/unsubscribe');
  expect((await page('unsubscribe (ask)', `/follow/unsubscribe?token=${unsubscribe}`)).status).toBe(200);
  const oneClick = await page('unsubscribe (one-click)', `/follow/unsubscribe?token=${unsubscribe}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status).toBe(200);
  const again = await api('follow again', '/api/v0/follow', json({ org_id: 'riverside-sfl', email: FOLLOWERS.confirmedEn }));
  expect(JSON.parse(again.text)).toEqual({ status: 'already_following' });

  const rsvp = tokensOf('rsvp');
  const byMatch = (m: string) => rsvp.filter((t) => invitationOf(t)?.match_id === m);
  const [a, b] = byMatch(FUTURE_MATCH);
  const [ar] = byMatch(ARABIC_MATCH);
  expect([a, b, ar].every(Boolean)).toBe(true);
  // The private match's invitations were made while it was public (inviteAsBefore); each email went out then (the
  // server's worker can be that quick) or is cancelled when it leaves, now the competition is private (README, RSVP).
  const privateInvites = db.prepare(`SELECT o.status, o.last_error FROM email_outbox o
    JOIN rsvp_invitations i ON i.id = json_extract(o.data_json, '$.invitationId') WHERE o.tag = 'rsvp-invite' AND i.match_id = ?`)
    .all(PRIVATE_MATCH) as Array<{ status: string; last_error: string | null }>;
  expect(privateInvites).toHaveLength(2);
  for (const row of privateInvites) {
    expect([row.status, row.last_error]).toEqual(
      row.status === 'sent' ? ['sent', null] : ['failed', 'cancelled at send time: its match is no longer in a public competition'],
    );
  }
  expect(byMatch(PRIVATE_MATCH)).toHaveLength(privateInvites.filter((r) => r.status === 'sent').length);
  // A link that did go out: the match is out of public hands, its answer and its page are 404.
  for (const priv of byMatch(PRIVATE_MATCH)) {
    expect((await api('respond to a private match', '/api/v0/rsvp/respond', json({ token: priv, status: 'yes' }))).status).toBe(404);
    expect((await page('rsvp page of a private match', `/rsvp?token=${priv}`)).status).toBe(404);
  }
  expect((await api('respond', '/api/v0/rsvp/respond', json({ token: a, status: 'yes' }))).status).toBe(200);
  expect((await api('respond', '/api/v0/rsvp/respond', json({ token: ar, status: 'no' }))).status).toBe(200);
  expect((await page('rsvp page', `/rsvp?token=${b}`)).status).toBe(200);
  const posted = await page('rsvp page post', '/rsvp', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `token=${b}&status=maybe`,
  });
  expect(posted.status).toBe(303);
  expect((await page('rsvp page, saved', `/rsvp?token=${b}&saved=1`)).status).toBe(200);
  expect(invitationByToken(db, b!)?.response).toBe('maybe');
  await drainOutbox();
}, 120_000);

afterAll(async () => {
  db?.close();
  await svc?.stop();
});

describe('tokens', () => {
  it('every token in the emails is 43 base64url characters: 256 random bits, one per link', () => {
    expect(tokensOf('follow/confirm').length).toBeGreaterThanOrEqual(6);
    expect(tokensOf('follow/unsubscribe').length).toBeGreaterThanOrEqual(6);
    expect(tokensOf('rsvp').length).toBeGreaterThanOrEqual(10);
    for (const [token, { kind, files }] of tokens) {
      expect(token, `${kind} token in ${[...files].join(', ')}`).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url').length).toBe(32);
      expect(Buffer.from(token, 'base64url').toString('base64url')).toBe(token); // canonical: no spare bits
      // A token belongs to one message (an unsubscribe token is in its body and its List-Unsubscribe header).
      expect(files.size, `${token} appears in ${[...files].join(', ')}`).toBe(1);
    }
    // The List-Unsubscribe header of each follow email carries the same unsubscribe token as its body.
    for (const e of emails.filter((x) => x.headers['list-unsubscribe'])) {
      const t = /token=([A-Za-z0-9_-]+)/.exec(e.headers['list-unsubscribe']!)![1]!;
      expect(tokens.get(t)?.kind).toBe('follow/unsubscribe');
    }
  });

  it('the token table holds SHA-256 hashes of the tokens, and no table holds a token', () => {
    const hashes = new Set((db.prepare(`SELECT hash AS h FROM link_tokens`).all() as { h: string }[]).map((r) => r.h));
    for (const t of [...tokensOf('rsvp'), ...tokensOf('follow/unsubscribe')]) expect(hashes.has(hashToken(t)), t).toBe(true);
    const unsubscribedFollows = (db.prepare(`SELECT count(*) AS n FROM follows WHERE status = 'unsubscribed'`).get() as { n: number }).n;
    const storedConfirms = tokensOf('follow/confirm').filter((t) => hashes.has(hashToken(t))).length;
    expect(storedConfirms).toBeGreaterThanOrEqual(tokensOf('follow/confirm').length - unsubscribedFollows);

    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name);
    const found: string[] = [];
    for (const table of tables) {
      const dump = JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all());
      for (const t of tokens.keys()) if (dump.includes(t)) found.push(`${table}: ${t}`);
    }
    expect(found).toEqual([]);
  });

  it('no raw token is anywhere in the database files (app.db and its -wal), the email outbox included', () => {
    // Every email was delivered (so its links were redacted); the regeneration job, which also empties the
    // write-ahead log, runs once a minute: run it once now.
    expect((db.prepare(`SELECT count(*) AS n FROM email_outbox WHERE status = 'pending'`).get() as { n: number }).n).toBe(0);
    const regen = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/regenerate.ts'], { cwd: ROOT, env: { ...process.env, ...svc.env }, encoding: 'utf8' });
    expect(regen.status, regen.stderr).toBe(0);
    const files = [svc.env.DATABASE_PATH!, `${svc.env.DATABASE_PATH}-wal`].filter((f) => fs.existsSync(f));
    const bytes = Buffer.concat(files.map((f) => fs.readFileSync(f)));
    const found = [...tokens.entries()].filter(([t]) => bytes.includes(Buffer.from(t, 'ascii')));
    // Where they are, to make a failure actionable.
    const where = found.map(([t, { kind }]) => {
      const rows = db
        .prepare(`SELECT id, tag, status FROM email_outbox WHERE instr(data_json, ?)`)
        .all(t) as { id: number; tag: string; status: string }[];
      return `${kind} token ${t.slice(0, 8)}…: ${rows.length ? rows.map((r) => `email_outbox #${r.id} (${r.tag}, ${r.status})`).join(', ') : 'not in a live row (free page or WAL frame)'}`;
    });
    expect(where, `${found.length} of ${tokens.size} raw tokens are readable in the database files`).toEqual([]);
  });

  it('tokens and email addresses never appear in what the server or the invite script print', () => {
    const logs = svc.output() + '\n' + inviteOutput.join('\n');
    const leakedTokens = [...tokens.keys()].filter((t) => logs.includes(t));
    expect(leakedTokens).toEqual([]);
    const addresses = [...Object.values(FOLLOWERS), ...REGISTRANTS.map((r) => r.email), ...MEMBER_EMAILS];
    expect(addresses.filter((a) => logs.toLowerCase().includes(a.toLowerCase()))).toEqual([]);
    // Nor any other address, nor a recipient's domain (a family's own domain names it): the mail worker names
    // the outbox id and tag only.
    const sender = svc.env.MAIL_FROM!.toLowerCase();
    const anyAddress = [...logs.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g)].map((m) => m[0].toLowerCase());
    expect(anyAddress.filter((a) => !sender.includes(a))).toEqual([]);
    const domains = new Set(addresses.map((a) => a.split('@')[1]!.toLowerCase()));
    expect([...domains].filter((d) => logs.toLowerCase().includes(d))).toEqual([]);
    // The worker did deliver (so the check above saw its lines).
    expect(logs).toMatch(/mail #\d+ tag=rsvp-invite sent/);
  });

  it('a request that fails before reaching a page (TRACE, refused by the fetch API) does not print the token in its URL', async () => {
    const token = tokensOf('rsvp').find((t) => invitationOf(t)?.match_id === ARABIC_MATCH)!;
    const before = svc.output().length;
    const res = await send(svc.url, `/rsvp?token=${token}`, { method: 'TRACE' });
    await sleep(500); // let the server's output arrive
    const printed = svc.output().slice(before);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(printed.includes(token), `the server printed:\n${printed.replace(token, '<TOKEN>')}`).toBe(false);
  });

  it('tokenMatches compares through crypto.timingSafeEqual', () => {
    const spy = vi.spyOn(crypto, 'timingSafeEqual');
    try {
      const token = newToken();
      expect(tokenMatches(token, hashToken(token))).toBe(true);
      expect(spy).toHaveBeenCalledTimes(1);
      const [presented, stored] = spy.mock.calls[0]!;
      expect([presented.byteLength, stored.byteLength]).toEqual([32, 32]);
      expect(tokenMatches(newToken(), hashToken(token))).toBe(false);
      expect(spy).toHaveBeenCalledTimes(2);
      // A token differing only in its last character is refused the same way.
      expect(tokenMatches(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), hashToken(token))).toBe(false);
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });

  it('the follow confirm and unsubscribe lookups go through that constant-time comparison', async () => {
    const t = await migratedDb();
    const spy = vi.spyOn(crypto, 'timingSafeEqual');
    try {
      t.sqlite.prepare(`INSERT INTO organizations (id, name, language) VALUES ('org-1', 'Org One', 'en')`).run();
      const store = new SyncDb(t.sqlite);
      requestFollow(store, { org_id: 'org-1', email: 'fan@example.org' }, { now: new Date(), emailsPerDay: 0 });
      const text_body = composeQueued(store)[0]!.text;
      const confirm = /confirm\?token=([A-Za-z0-9_-]{43})/.exec(text_body)![1]!;
      const unsubscribe = /unsubscribe\?token=([A-Za-z0-9_-]{43})/.exec(text_body)![1]!;
      spy.mockClear();
      expect(confirmFollow(store, confirm, new Date()).outcome).toBe('confirmed');
      expect(spy).toHaveBeenCalledTimes(1);
      expect(peekUnsubscribe(store, unsubscribe, new Date()).outcome).toBe('unsubscribed');
      expect(unsubscribeFollow(store, unsubscribe, new Date()).outcome).toBe('unsubscribed');
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
      await t.close();
    }
  });
});

describe('private data stays out of every public read', () => {
  const forbidden = (): { label: string; value: string }[] => [
    ...privateEventStrings().map((value) => ({ label: 'private event', value })),
    ...MEMBER_EMAILS.map((value) => ({ label: 'member email', value })),
    ...Object.values(FOLLOWERS).map((value) => ({ label: 'follower email', value })),
    ...REGISTRANTS.flatMap((r) =>
      [r.name, r.name_ar, r.email, r.phone, r.guardian_name, r.guardian_phone, r.notes]
        .filter((v): v is string => Boolean(v))
        .map((value) => ({ label: 'registration', value })),
    ),
    ...registrationIds.map((value) => ({ label: 'registration id', value })),
  ];
  const leaks = (label: string, bytes: Buffer): string[] => {
    const text = searchableText(bytes).toLowerCase();
    return forbidden()
      .filter((f) => text.includes(f.value.toLowerCase()))
      .map((f) => `${label} holds ${f.label} ${JSON.stringify(f.value)}`);
  };

  it('knows what to look for', () => {
    const strings = privateEventStrings();
    expect(strings).toEqual(expect.arrayContaining([PRIVATE_EVENT, PRIVATE_MATCH, 'Year 10 Futsal Warm-up Friendlies (staff only)']));
    expect(MEMBER_EMAILS.length).toBeGreaterThan(50);
  });

  it('no artifact (JSON, iCalendar, and their gzip and brotli variants) holds any of it', () => {
    const dir = svc.env.ARTIFACTS_DIR!;
    const files = walkFiles(dir);
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((f) => f.endsWith('.br')) && files.some((f) => f.endsWith('.gz'))).toBe(true);
    const found = files.flatMap((f) => leaks(f, decodedFile(path.join(dir, f))));
    expect(found).toEqual([]);
    // The search itself works: a public venue (with a comma the calendar escapes, in a line it may fold) is
    // found in the brotli-compressed calendar, and public team names in the gzip-compressed standings.
    const calendar = searchableText(decodedFile(path.join(dir, 'api/v0/calendar/nssa-futsal-champs-2026.ics.br')));
    expect(calendar).toContain('Northgate Leisure Centre, Sports Hall 1');
    expect(searchableText(decodedFile(path.join(dir, 'api/v0/events/rsl-prem-2026-27/standings.json.gz')))).toContain('Riverside Rovers');
    expect(files.filter((f) => f.includes(PRIVATE_EVENT))).toEqual([]);
  });

  it('no public GET response holds any of it: events, standings, bracket, calendar, RSVP summaries', async () => {
    const list = await api('events', '/api/v0/events');
    expect(list.status).toBe(200);
    const publicEvents = (JSON.parse(list.text) as { event_id: string }[]).map((e) => e.event_id);
    expect(publicEvents).not.toContain(PRIVATE_EVENT);
    expect(publicEvents.length).toBe(events.filter((e) => e.public).length);
    const publicMatches = (
      db.prepare(`SELECT m.id FROM matches m JOIN events e ON e.id = m.event_id WHERE e.is_public = 1 ORDER BY m.id`).all() as { id: string }[]
    ).map((r) => r.id);
    const targets = [
      '/api/v0/events',
      ...publicEvents.flatMap((id) => [`/api/v0/events/${id}/standings`, `/api/v0/events/${id}/bracket`, `/api/v0/calendar/${id}`]),
    ];
    const found: string[] = [];
    let checked = 0;
    for (const target of targets) {
      for (const encoding of [undefined, 'gzip', 'br']) {
        const res = await api('public read', target, { headers: encoding ? { 'accept-encoding': encoding } : {} });
        expect(res.status, target).toBe(200);
        found.push(...leaks(`${target} (${encoding ?? 'identity'})`, decodedBody(res)));
        checked++;
      }
    }
    for (const id of publicMatches) {
      const res = await api('rsvp summary', `/api/v0/rsvp/${id}`);
      expect(res.status, id).toBe(200);
      found.push(...leaks(`/api/v0/rsvp/${id}`, res.body));
      checked++;
    }
    expect(found).toEqual([]);
    expect(checked).toBeGreaterThan(100);
    // The invitations and answers did count where they are public.
    const summary = JSON.parse((await api('rsvp summary', `/api/v0/rsvp/${FUTURE_MATCH}`)).text);
    expect(summary.summary.yes + summary.summary.maybe).toBe(2);
  });

  it("the private event's standings, bracket, calendar and RSVP summaries answer 404", async () => {
    const privateMatches = (db.prepare(`SELECT id FROM matches WHERE event_id = ?`).all(PRIVATE_EVENT) as { id: string }[]).map((r) => r.id);
    expect(privateMatches.length).toBeGreaterThan(0);
    const targets = [
      `/api/v0/events/${PRIVATE_EVENT}/standings`,
      `/api/v0/events/${PRIVATE_EVENT}/bracket`,
      `/api/v0/calendar/${PRIVATE_EVENT}`,
      ...privateMatches.map((m) => `/api/v0/rsvp/${m}`),
    ];
    for (const target of targets) {
      for (const method of ['GET', 'HEAD']) {
        const res = await api('private read', target, { method, headers: { 'accept-encoding': 'br, gzip' } });
        expect(res.status, `${method} ${target}`).toBe(404);
        expect(header(res, 'content-type')).toBe('application/problem+json');
        expect(res.headers.etag).toBeUndefined();
      }
    }
    // Invited members exist for the private match (it is the invitations, not their absence, that must not show).
    expect(db.prepare(`SELECT count(*) AS n FROM rsvp_invitations WHERE match_id = ?`).get(PRIVATE_MATCH)).toEqual({ n: 2 });
  });
});

describe('security headers', () => {
  it('every API response says X-Content-Type-Options: nosniff: reads, writes, errors, preflights, 304s', async () => {
    const read = async (target: string) => {
      const first = await api('read', target);
      await api('read HEAD', target, { method: 'HEAD' });
      await api('read 304 by ETag', target, { headers: { 'if-none-match': String(first.headers.etag) } });
      if (first.headers['last-modified']) await api('read 304 by date', target, { headers: { 'if-modified-since': String(first.headers['last-modified']) } });
      await api('preflight', target, { method: 'OPTIONS', headers: { origin: 'https://club.example', 'access-control-request-method': 'GET' } });
    };
    for (const target of ['/api/v0/events', '/api/v0/events/rsl-prem-2026-27/standings', '/api/v0/events/rsl-cup-2026/bracket', '/api/v0/calendar/rsl-prem-2026-27', `/api/v0/rsvp/${FUTURE_MATCH}`]) {
      await read(target);
    }
    for (const target of ['/api/v0/follow', '/api/v0/register', '/api/v0/rsvp/respond', '/api/v0/no-such-route']) {
      await api('preflight', target, { method: 'OPTIONS', headers: { origin: 'https://club.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    }
    await api('400', '/api/v0/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    await api('404', '/api/v0/no-such-route');
    await api('404', '/api/v0/events/nope/standings');
    await api('404', '/api/v0/rsvp/nope');
    await api('404', '/api/v0/rsvp/respond', json({ token: newToken(), status: 'yes' }));
    await api('405', '/api/v0/follow');
    await api('405', '/api/v0/events', { method: 'DELETE' });
    await api('413', '/api/v0/follow', json({ email: 'x'.repeat(40_000) }));
    await api('415', '/api/v0/follow', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    await api('422', '/api/v0/follow', json({ org_id: 'riverside-sfl', email: 'not-an-email' }));
    // 409: an answer after kickoff (the match's kickoff moved to the past for this one request).
    const kickoff = (db.prepare(`SELECT kickoff_at FROM matches WHERE id = ?`).get(FUTURE_MATCH) as { kickoff_at: string }).kickoff_at;
    db.prepare(`UPDATE matches SET kickoff_at = '2020-01-01T00:00:00Z' WHERE id = ?`).run(FUTURE_MATCH);
    try {
      const [token] = tokensOf('rsvp').filter((t) => invitationOf(t)?.match_id === FUTURE_MATCH);
      await api('409', '/api/v0/rsvp/respond', json({ token, status: 'no' }));
    } finally {
      db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(kickoff, FUTURE_MATCH);
    }

    const seen = new Set(apiResponses.map((r) => r.res.status));
    for (const status of [200, 201, 204, 304, 400, 404, 405, 409, 413, 415, 422, 429]) expect(seen.has(status), `a ${status} was checked`).toBe(true);
    const missing = apiResponses.filter((r) => header(r.res, 'x-content-type-options') !== 'nosniff').map((r) => r.label);
    expect(missing).toEqual([]);
  });

  it("the HTML pages carry a Content-Security-Policy with default-src 'none' and no unsafe-eval, and Referrer-Policy: no-referrer", async () => {
    await page('home', '/');
    await page('confirm without a token', '/follow/confirm');
    await page('confirm with a bad token', `/follow/confirm?token=${newToken()}`);
    await page('unsubscribe with a bad token', `/follow/unsubscribe?token=${newToken()}`);
    await page('unsubscribe ask', `/follow/unsubscribe?token=${linkFor(FOLLOWERS.confirmedAr, 'follow/unsubscribe')}`);
    await page('rsvp without a token', '/rsvp');
    await page('rsvp', `/rsvp?token=${tokensOf('rsvp').find((t) => invitationOf(t)?.match_id === ARABIC_MATCH)}`);
    expect(new Set(pageResponses.map((p) => p.res.status))).toEqual(new Set([200, 303, 404]));

    const problems: string[] = [];
    // A form's post answered with the page to GET (post/redirect/get): no page of its own, and a Location on this
    // server (its token is the one the post came with: nothing new is said).
    for (const { label, res } of pageResponses.filter((p) => p.res.status === 303)) {
      if (!/^\/(rsvp|follow\/confirm|follow\/unsubscribe)\?token=/.test(header(res, 'location') ?? '')) problems.push(`${label}: Location ${header(res, 'location')}`);
    }
    for (const { label, res } of pageResponses.filter((p) => p.res.status !== 303)) {
      expect(header(res, 'content-type') ?? '', label).toMatch(/^text\/html/);
      const csp = header(res, 'content-security-policy');
      if (!csp) {
        problems.push(`${label}: no Content-Security-Policy`);
        continue;
      }
      const directives = new Map(
        csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
          const [name, ...values] = d.split(/\s+/);
          return [name!.toLowerCase(), values] as const;
        }),
      );
      if ((directives.get('default-src') ?? []).join(' ') !== "'none'") problems.push(`${label}: default-src is not 'none': ${csp}`);
      if (/unsafe-eval/i.test(csp)) problems.push(`${label}: CSP allows unsafe-eval`);
      if (header(res, 'referrer-policy') !== 'no-referrer') problems.push(`${label}: Referrer-Policy ${header(res, 'referrer-policy')}`);
    }
    expect(problems).toEqual([]);
  });

  it("the pages' own inline scripts are allowed by their CSP (script-src 'self' blocks an inline script without a hash or nonce)", () => {
    const problems: string[] = [];
    for (const { label, res } of pageResponses) {
      const csp = header(res, 'content-security-policy') ?? '';
      const scriptSrc = /(?:^|;)\s*script-src\s+([^;]*)/.exec(csp)?.[1] ?? /(?:^|;)\s*default-src\s+([^;]*)/.exec(csp)?.[1] ?? '';
      for (const m of res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
        const [, attributes, body] = m as unknown as [string, string, string];
        if (/\bsrc\s*=/.test(attributes) || body.trim() === '' || /type\s*=\s*"?application\/(ld\+)?json/i.test(attributes)) continue;
        const hash = `'sha256-${crypto.createHash('sha256').update(body, 'utf8').digest('base64')}'`;
        const nonce = /\bnonce\s*=\s*"([^"]+)"/.exec(attributes)?.[1];
        const allowed = scriptSrc.includes(hash) || (nonce !== undefined && scriptSrc.includes(`'nonce-${nonce}'`)) || scriptSrc.includes("'unsafe-inline'");
        if (!allowed) problems.push(`${label}: an inline <script> (${body.length} characters) that script-src ${scriptSrc} blocks`);
      }
    }
    expect(problems).toEqual([]);
  });
});
