// The write endpoints (4, 6, 7, 8) end to end over HTTP against the running service: real SQLite file,
// real outbox worker writing .eml files, real links followed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from './support/http.js';
import { linkIn, waitForEmail } from './support/mail.js';
import { NO_RATE_LIMITS, startServiceWithDb, stopServiceWithDb, type RunningService } from './support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
let svc: RunningService;
let db: Database.Database;
beforeAll(async () => ({ svc, db } = await startServiceWithDb(NO_RATE_LIMITS)));
afterAll(() => stopServiceWithDb({ svc, db }));

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const multipart = (fields: Record<string, string>) => {
  const boundary = 'testboundary7MA4YWxkTrZu0gW';
  const body = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('') + `--${boundary}--\r\n`;
  return { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body };
};

describe('follow', () => {
  it("with an address a stranger could have tagged: its confirmation goes to the plain mailbox, and the page shows whoever confirms the address whole", async () => {
    const email = 'lina+call-5551234@gmail.com';
    expect((await request(`${svc.url}/api/v0/follow`, json({ org_id: 'riverside-sfl', email }))).json()).toEqual({ status: 'confirm_email_sent' });
    const mail = await waitForEmail(svc.env.MAIL_DIR!, 'lina@gmail.com');
    expect(mail.text).not.toContain('call-5551234');
    const page = await request(linkIn(mail.text, '/follow/confirm?token='));
    expect(page.text).toContain('data-outcome="ask"');
    expect(page.text).toContain(`<bdi dir="ltr" data-address>${email}</bdi>`);
    expect(db.prepare(`SELECT email, status FROM follows WHERE email = ?`).get(email)).toEqual({ email, status: 'pending' });
  });

  it.each([
    ['a JSON body', 'fan.json@example.org', json],
    ['a form body', 'fan.form@example.org', form],
    ['a multipart body', 'fan.multipart@example.org', multipart],
  ] as const)('with %s: confirm email → link → following → already_following', async (_label, email, encode) => {
    const first = await request(`${svc.url}/api/v0/follow`, encode({ org_id: 'riverside-sfl', league_id: 'rsl-premier', email }));
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ status: 'confirm_email_sent' });
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['access-control-allow-origin']).toBe('*');

    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/follow\/unsubscribe\?token=[A-Za-z0-9_-]{43}>$/);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // A reply reaches the organization's contact address (the demo's Riverside gives one), not no-reply@.
    expect(mail.headers['reply-to']).toBe('hello@riverside-sfl.example');
    const confirm = linkIn(mail.text, '/follow/confirm?token=');
    expect(linkIn(mail.html, '/follow/confirm?token=')).toBe(confirm);

    // What link scanners send (HEAD, GET) shows the page and changes nothing; its button (a POST) confirms.
    expect((await request(confirm, { method: 'HEAD' })).status).toBe(200);
    const page = await request(confirm);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-outcome="ask"');
    expect(page.text).toContain('<form method="post">');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'pending' });
    // Post/redirect/get: the button's POST is answered with the page to GET, so Back and refresh post nothing again.
    const confirmed = await request(confirm, form({}));
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.location).toBe(`${new URL(confirm).pathname}${new URL(confirm).search}&done=confirmed`);
    const shown = await request(new URL(confirmed.headers.location!, svc.url).href);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('data-outcome="confirmed"');
    expect(shown.text).toContain(`<bdi dir="ltr" data-address>${email}</bdi>`);
    const again = await request(confirm, form({}));
    expect(again.text).toContain('data-outcome="already_confirmed"');
    expect((await request(confirm)).text).toContain('data-outcome="already_confirmed"');

    const second = await request(`${svc.url}/api/v0/follow`, encode({ org_id: 'riverside-sfl', league_id: 'rsl-premier', email }));
    expect(second.json()).toEqual({ status: 'already_following' });
    const row = db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email);
    expect(row).toEqual({ status: 'active' });
  });

  it('unsubscribes with the RFC 8058 one-click POST; a new request sends nothing, its owner follows again from the page', async () => {
    const email = 'one.click@example.org';
    await request(`${svc.url}/api/v0/follow`, json({ org_id: 'amman-yfa', email }));
    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    expect(mail.html).toContain('dir="rtl"');
    await request(linkIn(mail.text, '/follow/confirm?token='), form({}));
    const unsubscribe = mail.headers['list-unsubscribe']!.slice(1, -1);
    const ask = await request(unsubscribe);
    expect(ask.text).toContain('data-outcome="ask"');
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'active' });
    const oneClick = await request(unsubscribe, form({ 'List-Unsubscribe': 'One-Click' }));
    expect(oneClick.status).toBe(200);
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'unsubscribed' });
    // A request to follow again, anyone's, is answered as always but sends nothing for 30 days: the mailbox said stop.
    const queued = () => db.prepare(`SELECT count(*) AS n FROM email_outbox WHERE to_address = ? AND status <> 'failed'`).get(email);
    const before = queued();
    const back = await request(`${svc.url}/api/v0/follow`, json({ org_id: 'amman-yfa', email }));
    expect(back.status).toBe(200);
    expect(back.json()).toEqual({ status: 'confirm_email_sent' });
    expect(queued()).toEqual(before);
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'unsubscribed' });
    // Its owner, who holds the link, follows again from the unsubscribe page.
    const page = await request(unsubscribe);
    expect(page.text).toContain('data-follow-again');
    const again = await request(unsubscribe, form({ action: 'follow-again' }));
    expect(again.status).toBe(303);
    const shown = await request(new URL(again.headers.location!, svc.url).href);
    expect(shown.text).toContain('data-outcome="followed_again"');
    // The page it lands on, refreshed, posts nothing; the link itself, opened again, asks as before.
    expect((await request(unsubscribe)).text).toContain('data-outcome="ask"');
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'active' });
    expect(queued()).toEqual(before);
  });

  it('answers 422 for an unknown organization or a league of another one', async () => {
    const unknown = await request(`${svc.url}/api/v0/follow`, json({ org_id: 'nobody', email: 'a@example.org' }));
    expect(unknown.status).toBe(422);
    expect(unknown.json().errors).toEqual([{ field: 'org_id', message: expect.any(String) }]);
    const foreign = await request(`${svc.url}/api/v0/follow`, json({ org_id: 'amman-yfa', league_id: 'rsl-premier', email: 'a@example.org' }));
    expect(foreign.status).toBe(422);
    expect(foreign.json().errors).toEqual([{ field: 'league_id', message: expect.any(String) }]);
  });

  it('says one field or several in the 422 of a request that does not fit its schema', async () => {
    const one = await request(`${svc.url}/api/v0/follow`, json({ org_id: 'amman-yfa', email: 'not an address' }));
    expect([one.status, one.json().detail, one.json().errors.length]).toEqual([422, 'A field needs fixing.', 1]);
    const two = await request(`${svc.url}/api/v0/follow`, json({ org_id: '', email: 'not an address' }));
    expect([two.status, two.json().detail, two.json().errors.length]).toEqual([422, 'Some fields need fixing.', 2]);
  });
});

// An API review's Arabic club could show a parent only English from fetch() ("is required for a player under 18"),
// while its plain HTML form said it in Arabic. A script asks for Arabic field messages with Accept-Language.
describe('field messages in the language the script asks for', () => {
  const body = { org_id: 'amman-yfa', division_id: 'amm-reg-u14', name: 'عمر', email: 'x', date_of_birth: '2014-01-01' };
  it.each([
    ['ar', ['يجب أن يكون عنوان بريد إلكتروني مثل', 'مطلوب للاعب دون سن']],
    ['ar-JO,ar;q=0.9,en;q=0.8', ['يجب أن يكون عنوان بريد إلكتروني مثل', 'مطلوب للاعب دون سن']],
    ['en-GB,en;q=0.9,ar;q=0.8', ['must be an email address such as', 'is required for a player under']],
    [undefined, ['must be an email address such as', 'is required for a player under']],
  ] as const)('Accept-Language %s', async (language, [email, guardian]) => {
    const res = await request(`${svc.url}/api/v0/register`, json(body, language ? { 'Accept-Language': language } : {}));
    expect(res.status).toBe(422);
    expect(res.headers['vary']).toBe('Accept-Language');
    const problem = res.json();
    // The developer's parts stay English.
    expect([problem.title, problem.detail]).toEqual(['Fields fail validation', 'Some fields need fixing.']);
    const message = (field: string) => problem.errors.find((e: { field: string }) => e.field === field).message as string;
    expect(message('email')).toContain(email);
    expect(message('guardian_name')).toContain(guardian);
    expect(problem.errors.map((e: { field: string }) => e.field)).toEqual(['email', 'guardian_name', 'guardian_phone']);
  });

  it("says a division's window in Arabic on the organization's clock", async () => {
    db.prepare(`UPDATE divisions SET closes_at = '2025-09-30T21:00:00Z' WHERE id = 'amm-reg-u14'`).run();
    try {
      const res = await request(`${svc.url}/api/v0/register`, json({ ...body, email: 'window@example.org', guardian_name: 'Lina', guardian_phone: '+962 79 555 0101' }, { 'Accept-Language': 'ar' }));
      expect(res.status).toBe(422);
      expect(res.json().errors).toEqual([{ field: 'division_id', message: expect.stringMatching(/^توقفت عن استقبال التسجيلات يوم الأربعاء 1 تشرين الأول 2025، الساعة 00:00 \(GMT\+3\)/) }]);
    } finally {
      db.prepare(`UPDATE divisions SET closes_at = NULL WHERE id = 'amm-reg-u14'`).run();
    }
  });
});

describe('register', () => {
  it.each([
    ['a JSON body', json],
    ['a form body', form],
  ] as const)('with %s: 201, the row, and a receipt', async (_label, encode) => {
    const email = `parent.${_label.replace(/\W/g, '').toLowerCase()}@example.org`;
    const res = await request(`${svc.url}/api/v0/register`, encode({
      org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Omar Haddad', name_ar: 'عمر حداد', email,
      date_of_birth: '2015-03-04', guardian_name: 'Lina Haddad', guardian_phone: '+962 79 555 0101', notes: 'Left foot',
    }));
    expect(res.status).toBe(201);
    const body = res.json();
    expect(body).toEqual({ status: 'submitted', id: expect.stringMatching(/^reg_/) });
    expect(db.prepare(`SELECT org_id, division_id, name, name_ar, email, date_of_birth FROM registrations WHERE id = ?`).get(body.id))
      .toEqual({ org_id: 'amman-yfa', division_id: 'amm-reg-u12', name: 'Omar Haddad', name_ar: 'عمر حداد', email, date_of_birth: '2015-03-04' });
    const receipt = await waitForEmail(svc.env.MAIL_DIR!, email);
    expect(receipt.text).toContain(body.id);
  });

  // A registrations review: a division list left blank ("") was taken, past the age, guardian and window rules of every
  // division. Absent, it names none (a form without the list).
  it('refuses a division sent blank to an organization with divisions; takes one with no division field', async () => {
    const base = { org_id: 'amman-yfa', name: 'Blank Division', email: 'blank.division@example.org' };
    // Blank in a form or in JSON, or JSON's null (a script's `select.value || null`).
    for (const sent of [form({ ...base, division_id: '  ' }), json({ ...base, division_id: '' }), json({ ...base, division_id: null })]) {
      const res = await request(`${svc.url}/api/v0/register`, sent);
      expect(res.status).toBe(422);
      expect(res.json().errors).toEqual([{ field: 'division_id', message: "is required: choose one of the organization's divisions" }]);
    }
    expect(db.prepare(`SELECT count(*) FROM registrations WHERE email = ?`).pluck().get(base.email)).toBe(0);
    const none = await request(`${svc.url}/api/v0/register`, json(base));
    expect(none.status).toBe(201);
    expect(db.prepare(`SELECT division_id FROM registrations WHERE id = ?`).pluck().get(none.json().id)).toBeNull();
  });

  it('returns the first answer to a retried submit with the same Idempotency-Key', async () => {
    const payload = { org_id: 'riverside-sfl', name: 'Sam Retry', email: 'retry@example.org' };
    const key = 'retry-key-1';
    const first = await request(`${svc.url}/api/v0/register`, json(payload, { 'Idempotency-Key': key }));
    const second = await request(`${svc.url}/api/v0/register`, json(payload, { 'Idempotency-Key': key }));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(db.prepare(`SELECT count(*) AS n FROM registrations WHERE email = 'retry@example.org'`).get()).toEqual({ n: 1 });
    const other = await request(`${svc.url}/api/v0/register`, json({ ...payload, name: 'Someone Else' }, { 'Idempotency-Key': key }));
    expect(other.status).toBe(422);
  });

  it('answers 422 for a division of another organization', async () => {
    const res = await request(`${svc.url}/api/v0/register`, json({ org_id: 'riverside-sfl', division_id: 'amm-reg-u12', name: 'X', email: 'x@example.org' }));
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'division_id', message: expect.any(String) }]);
  });
});

describe('RSVP', () => {
  const matchId = 'rsl-prem-r07-2';

  it('invite → email → respond → the summary moved; answers close at kickoff', async () => {
    // Kickoff a month from now, whatever today is.
    const kickoff = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(kickoff, matchId);
    const invite = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', matchId], {
      cwd: ROOT, env: { ...process.env, ...svc.env }, encoding: 'utf8',
    });
    expect(invite.stderr).toBe('');
    expect(invite.stdout).toMatch(/\d+ invited/);
    const invited = db.prepare(`SELECT count(*) AS n FROM rsvp_invitations WHERE match_id = ?`).get(matchId) as { n: number };
    expect(invited.n).toBeGreaterThan(0);

    const before = (await request(`${svc.url}/api/v0/rsvp/${matchId}`)).json();
    expect(before).toMatchObject({ match_id: matchId, summary: { yes: 0, no: 0, maybe: 0, pending: invited.n } });
    // Each team's counts too, adding up to the match's: "do we have eleven?" is a team's question.
    const byTeam = db.prepare(`SELECT tm.team_id, count(*) AS n FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id
      WHERE i.match_id = ? GROUP BY tm.team_id ORDER BY tm.team_id`).all(matchId) as Array<{ team_id: string; n: number }>;
    expect(byTeam.length).toBe(2);
    expect(before.teams).toEqual(byTeam.map((t) => ({ team_id: t.team_id, summary: { yes: 0, no: 0, maybe: 0, pending: t.n } })));

    const member = db.prepare(`SELECT tm.email FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id
      WHERE i.match_id = ? ORDER BY tm.id LIMIT 1`).get(matchId) as { email: string };
    const mail = await waitForEmail(svc.env.MAIL_DIR!, member.email, (e) => e.text.includes('/rsvp?token='));
    // "Sorry, injured": a player's reply reaches the organization's contact address, not no-reply@.
    expect(mail.headers['reply-to']).toBe('hello@riverside-sfl.example');
    const link = linkIn(mail.text, '/rsvp?token=');
    const page = await request(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="status"');
    const token = new URL(link).searchParams.get('token')!;

    const yes = await request(`${svc.url}/api/v0/rsvp/respond`, json({ token, status: 'yes' }));
    expect(yes.status).toBe(200);
    expect(yes.json()).toMatchObject({ match_id: matchId, status: 'yes', summary: { yes: 1, no: 0, maybe: 0, pending: invited.n - 1 } });
    // The answer moved its team's counts, and only its team's.
    const own = (db.prepare(`SELECT tm.team_id FROM team_members tm WHERE tm.email = ? ORDER BY tm.id LIMIT 1`).get(member.email) as { team_id: string }).team_id;
    expect(yes.json().teams).toEqual(byTeam.map((t) => ({ team_id: t.team_id, summary: t.team_id === own ? { yes: 1, no: 0, maybe: 0, pending: t.n - 1 } : { yes: 0, no: 0, maybe: 0, pending: t.n } })));
    const changed = await request(`${svc.url}/api/v0/rsvp/respond`, form({ token, status: 'maybe' }));
    expect(changed.json().summary).toEqual({ yes: 0, no: 0, maybe: 1, pending: invited.n - 1 });
    // The page's own form posted without one of the three answers: 422, it says so, and nothing changes.
    for (const fields of [{ token }, { token, status: 'perhaps' }] as Record<string, string>[]) {
      const refused = await request(link, form(fields));
      expect(refused.status).toBe(422);
      expect(refused.text).toMatch(/Choose yes, maybe or no\.|يُرجى اختيار نعم أو ربما أو لا\./);
    }
    const summary = await request(`${svc.url}/api/v0/rsvp/${matchId}`);
    expect(summary.json().summary.maybe).toBe(1);
    expect(summary.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600, stale-if-error=86400');
    const cached = await request(`${svc.url}/api/v0/rsvp/${matchId}`, { headers: { 'If-None-Match': summary.headers['etag']! } });
    expect(cached.status).toBe(304);
    // A date alone does not revalidate the counts: two answers within one second left a review's copy stale (304).
    const dated = await request(`${svc.url}/api/v0/rsvp/${matchId}`, { headers: { 'If-Modified-Since': summary.headers['last-modified']! } });
    expect([dated.status, dated.json().summary.maybe]).toEqual([200, 1]);

    // Its competition made private: the match leaves public hands, its answers and its invitation page too.
    const publish = (value: 0 | 1) =>
      db.prepare(`UPDATE events SET is_public = ? WHERE id = (SELECT event_id FROM matches WHERE id = ?)`).run(value, matchId);
    publish(0);
    try {
      const hidden = await request(`${svc.url}/api/v0/rsvp/respond`, json({ token, status: 'no' }));
      expect(hidden.status).toBe(404);
      expect(hidden.headers['content-type']).toBe('application/problem+json');
      expect((await request(link)).status).toBe(404);
      expect((await request(`${svc.url}/api/v0/rsvp/${matchId}`)).status).toBe(404);
    } finally {
      publish(1);
    }
    expect((await request(`${svc.url}/api/v0/rsvp/${matchId}`)).json().summary.maybe).toBe(1);

    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run('2020-01-01T00:00:00Z', matchId);
    const late = await request(`${svc.url}/api/v0/rsvp/respond`, json({ token, status: 'no' }));
    expect(late.status).toBe(409);
    expect(late.headers['content-type']).toBe('application/problem+json');
    // The page's form (without JavaScript, or the script's fallback) refused the same: the page to GET (303), which
    // says the answer was not saved, and why.
    const latePost = await request(link, form({ token, status: 'no' }));
    expect([latePost.status, latePost.headers.location]).toEqual([303, `/rsvp?token=${token}&closed=1`]);
    // Its Location carries the token: kept by no cache (an attacker's review found no Cache-Control on it).
    expect(latePost.headers['cache-control']).toBe('no-store');
    const latePage = await request(new URL(latePost.headers.location!, svc.url).href);
    expect(latePage.headers['cache-control']).toBe('no-store');
    expect(latePage.text).toContain('Your answer was not saved. Answers closed when the match kicked off.');
    // Looking at the page is no failure.
    expect((await request(link)).status).toBe(200);
  });

  it('a match postponed, then its competition cancelled, after the invitations went out: the page, the API and invite say so', async () => {
    // Found by a reviewer: the page showed the old kickoff of a postponed match with no notice, and answers to it
    // and to a match of a cancelled competition were taken (200).
    const id = 'rsl-prem-r09-2';
    const kickoff = new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    db.prepare(`UPDATE matches SET kickoff_at = ?, status = 'scheduled' WHERE id = ?`).run(kickoff, id);
    const inviteCmd = () => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', id], {
      cwd: ROOT, env: { ...process.env, ...svc.env }, encoding: 'utf8',
    });
    expect(inviteCmd().stdout).toMatch(/^match rsl-prem-r09-2: \d+ invited/);
    const member = db.prepare(`SELECT tm.email FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id
      WHERE i.match_id = ? ORDER BY tm.id LIMIT 1`).get(id) as { email: string };
    const mail = await waitForEmail(svc.env.MAIL_DIR!, member.email, (e) => e.text.includes('/rsvp?token=') && e.subject.includes('Ashford'));
    // The organization sends it, as every other email, not the competition.
    expect(mail.text).toContain('Sent on behalf of Riverside Sunday Football League.');
    const link = linkIn(mail.text, '/rsvp?token=');
    const token = new URL(link).searchParams.get('token')!;
    const oldKickoff = /data-kickoff>([^<]+)</.exec((await request(link)).text);

    db.prepare(`UPDATE matches SET status = 'postponed' WHERE id = ?`).run(id);
    const page = await request(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Postponed: new date to follow');
    expect(page.text).toContain('This match is postponed: you can answer once its new date is set.');
    expect(oldKickoff).not.toBeNull();
    expect(page.text).not.toContain(oldKickoff![1]);
    const api = await request(`${svc.url}/api/v0/rsvp/respond`, json({ token, status: 'yes' }));
    expect(api.status).toBe(409);
    expect(api.headers['content-type']).toBe('application/problem+json');
    expect(api.json()).toMatchObject({ status: 409, detail: 'The match is postponed: answers reopen when its new kickoff is set.' });
    const pagePost = await request(link, form({ token, status: 'yes' }));
    expect(pagePost.status).toBe(303);
    expect((await request(new URL(pagePost.headers.location!, svc.url).href)).text)
      .toContain('Your answer was not saved. This match is postponed: you can answer once its new date is set.');
    const refused = inviteCmd();
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(`match ${id}: it is postponed and has no new kickoff yet (invite again once it is rescheduled); nobody was invited`);

    db.prepare(`UPDATE matches SET status = 'scheduled' WHERE id = ?`).run(id);
    expect((await request(`${svc.url}/api/v0/rsvp/respond`, json({ token, status: 'yes' }))).status).toBe(200);

    const cancel = (status: string) => db.prepare(`UPDATE events SET status = ? WHERE id = 'rsl-prem-2026-27'`).run(status);
    cancel('cancelled');
    try {
      const closed = await request(`${svc.url}/api/v0/rsvp/respond`, json({ token, status: 'no' }));
      expect(closed.status).toBe(409);
      expect(closed.headers['content-type']).toBe('application/problem+json');
      expect(closed.json()).toMatchObject({ detail: 'The competition of this match is cancelled: answers are closed.' });
      const cancelledPage = await request(link);
      expect(cancelledPage.text).toContain('This competition is cancelled: the match will not be played, and answers are closed.');
      expect((await request(link, form({ token, status: 'no' }))).headers.location).toBe(`/rsvp?token=${token}&closed=1`);
      const notInvited = inviteCmd();
      expect(notInvited.status).toBe(1);
      expect(notInvited.stderr.trim()).toBe(`match ${id}: its competition is cancelled; nobody was invited`);
      expect((await request(`${svc.url}/api/v0/rsvp/${id}`)).json().summary.yes).toBe(1);
    } finally {
      cancel('in_progress');
    }
  });

  it('answers 404 for an unknown match or token', async () => {
    expect((await request(`${svc.url}/api/v0/rsvp/no-such-match`)).status).toBe(404);
    const res = await request(`${svc.url}/api/v0/rsvp/respond`, json({ token: 'A'.repeat(43), status: 'yes' }));
    expect(res.status).toBe(404);
  });
});

describe('cross-origin', () => {
  it('lets a browser on another origin preflight and POST JSON', async () => {
    const preflight = await request(`${svc.url}/api/v0/register`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://club.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,idempotency-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toBe('Content-Type, Idempotency-Key, If-None-Match, If-Modified-Since, Cache-Control');
    const post = await request(`${svc.url}/api/v0/register`, json({ org_id: 'riverside-sfl', name: 'Cross Origin', email: 'cors@example.org' }, { Origin: 'https://club.example' }));
    expect(post.status).toBe(201);
    expect(post.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers 405 with Allow for another method, and OPTIONS on an unknown API route', async () => {
    const res = await request(`${svc.url}/api/v0/register`, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe('POST, OPTIONS');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
