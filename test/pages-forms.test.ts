// The human pages' forms without JavaScript, over HTTP against the running service (found by a review in a real
// browser): a post that changed something is answered with the page to GET (303, post/redirect/get), so Back and
// refresh never post an old choice over a newer one; a link we cannot read says so in both languages; a refused
// request's title says why; names keep their punctuation on Arabic pages.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type RawResponse } from './support/http.js';
import { linkIn, waitForEmail } from './support/mail.js';
import { NO_RATE_LIMITS, startServiceWithDb, stopServiceWithDb, type RunningService } from './support/server.js';

const ROOT = path.resolve(import.meta.dirname, '..');
let svc: RunningService;
let db: Database.Database;
beforeAll(async () => ({ svc, db } = await startServiceWithDb(NO_RATE_LIMITS)));
afterAll(() => stopServiceWithDb({ svc, db }));

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const follow = (body: Record<string, string>) =>
  request(`${svc.url}/api/v0/follow`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const outcome = (html: string) => /data-outcome="([^"]+)"/.exec(html)?.[1];
/** The page a 303 sends the browser to, fetched as the browser would (GET). */
const follow303 = async (res: RawResponse) => {
  expect(res.status).toBe(303);
  return request(new URL(res.headers.location!, svc.url).href);
};

const read = new Set<string>();
/** Invites `matchId`'s members (kickoff a month ahead) and returns the first member's RSVP link. */
async function invitation(matchId: string): Promise<{ link: string; token: string }> {
  db.prepare(`UPDATE matches SET kickoff_at = ?, status = 'scheduled' WHERE id = ?`)
    .run(new Date(Date.now() + 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'), matchId);
  const invite = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', matchId], {
    cwd: ROOT, env: { ...process.env, ...svc.env }, encoding: 'utf8',
  });
  expect(invite.stdout).toMatch(/\d+ invited/);
  const member = db.prepare(`SELECT tm.email FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id
    WHERE i.match_id = ? ORDER BY tm.id LIMIT 1`).get(matchId) as { email: string };
  // The members of one league are invited to more than one match here: the email not read yet is this one's.
  const mail = await waitForEmail(svc.env.MAIL_DIR!, member.email, (e) => e.text.includes('/rsvp?token=') && !read.has(e.file));
  read.add(mail.file);
  const link = linkIn(mail.text, '/rsvp?token=');
  return { link, token: new URL(link).searchParams.get('token')! };
}

describe('the RSVP page without JavaScript', () => {
  it('answers a saved choice with the page to GET: refreshing it, or going back to it, changes nothing', async () => {
    const { link, token } = await invitation('rsl-prem-r08-1');
    const answer = () => (db.prepare(`SELECT response FROM rsvp_invitations i JOIN link_tokens t ON t.subject_id = i.id
      WHERE t.purpose = 'rsvp' AND i.match_id = 'rsl-prem-r08-1' AND i.response IS NOT NULL`).all() as Array<{ response: string }>);
    const yes = await request(link, form({ token, status: 'yes' }));
    expect(yes.headers.location).toBe(`/rsvp?token=${token}&saved=1`);
    const shown = await follow303(yes);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Your answer is saved.');
    expect(shown.text).toMatch(/value="yes" aria-pressed="true"/);
    // The answer changes (a second click, or the API): the page the first post landed on, refreshed, shows it, and
    // posts nothing.
    await follow303(await request(link, form({ token, status: 'no' })));
    const refreshed = await request(new URL(yes.headers.location!, svc.url).href);
    expect(refreshed.text).toMatch(/value="no" aria-pressed="true"/);
    expect(answer()).toEqual([{ response: 'no' }]);
    // The question is on the page, the invitation email's own put to the member by name, and labels its buttons.
    const member = /<p class="muted">Hello <bdi>([^<]+)<\/bdi>/.exec(shown.text)![1];
    expect(shown.text).toContain(`<h2 id="question">\u2068${member}\u2069, can you make it?</h2>`);
    expect(shown.text).toContain('role="group" aria-labelledby="question"');
  });

  // An RSVP review: `status=yes&status=no` was taken (its first value) where JSON's key twice is refused. The page's
  // form post is refused alike (400, its page, nothing saved); the buttons send one status each.
  it('refuses a post naming a field twice: 400, the page saying it could not be read, the answer unchanged', async () => {
    const { link, token } = await invitation('rsl-prem-r10-2');
    const answer = () => db.prepare(`SELECT response FROM rsvp_invitations i JOIN link_tokens t ON t.subject_id = i.id
      WHERE t.purpose = 'rsvp' AND i.match_id = 'rsl-prem-r10-2' AND i.response IS NOT NULL`).all();
    const post = (body: string) => request(link, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
    const twice = await post(`token=${token}&status=yes&status=no`);
    expect(twice.status).toBe(400);
    expect(twice.text).toContain('This request could not be read. Use the link in your email.');
    expect(answer()).toEqual([]);
    expect((await post(`token=${token}&token=${token}&status=yes`)).status).toBe(400);
    expect(answer()).toEqual([]);
    expect((await post(`token=${token}&status=yes`)).status).toBe(303);
    expect(answer()).toEqual([{ response: 'yes' }]);
  });

  // Found by a review: every invitation's tab read "Are you playing?", and the email asked "Will you play?". And by an
  // RSVP review: a parent's two children's invitations read the same; the member's name comes first.
  it("titles the page with the email's question to the member and the match, its names isolated", async () => {
    const teams = (html: string) => /<h1><bdi>([^<]+)<\/bdi> (?:vs|ضد) <bdi>([^<]+)<\/bdi><\/h1>/.exec(html)!.slice(1);
    const member = (html: string) => /<p class="muted">(?:Hello|مرحبًا) <bdi>([^<]+)<\/bdi>/.exec(html)![1];
    const english = await request((await invitation('rsl-prem-r08-2')).link);
    const [home, away] = teams(english.text);
    expect(title(english.text)).toBe(`\u2068${member(english.text)}\u2069, can you make it? \u2068${home}\u2069 vs \u2068${away}\u2069`);
    const another = await request((await invitation('rsl-prem-r10-1')).link);
    expect(title(another.text)).not.toBe(title(english.text));
    const arabic = await request((await invitation('amm-u14-sf2')).link);
    const [homeAr, awayAr] = teams(arabic.text);
    const memberAr = member(arabic.text);
    expect(title(arabic.text)).toBe(`\u2068${memberAr}\u2069، هل يمكنك المشاركة؟ \u2068${homeAr}\u2069 ضد \u2068${awayAr}\u2069`);
    expect(arabic.text).toContain(`<h2 id="question">\u2068${memberAr}\u2069، هل يمكنك المشاركة؟</h2>`);
  });

  // Found by a review: an answer refused after kickoff (409), or sent with a link we cannot find (404), was drawn in
  // the POST's own answer, and a reload asked to send the form again. Like a saved answer: the page to GET.
  it('answers an answer refused after kickoff with the page to GET, which says it was not saved and why', async () => {
    const { link, token } = await invitation('rsl-prem-r09-2');
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = 'rsl-prem-r09-2'`).run(new Date(Date.now() - 60_000).toISOString());
    const late = await request(link, form({ token, status: 'yes' }));
    expect(late.headers.location).toBe(`/rsvp?token=${token}&closed=1`);
    const shown = await follow303(late);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Your answer was not saved. Answers closed when the match kicked off.');
    expect(shown.text).toMatch(/value="yes" aria-pressed="false"/);
    // Said first, in the title too (an accessibility review); beside the buttons, nothing more of it.
    expect(title(shown.text)).toMatch(/^Your answer was not saved\. \u2068/);
    expect(shown.text).toMatch(/<div class="card">\s*<p id="outcome" class="outcome">Your answer was not saved\. Answers closed when the match kicked off\.<\/p>/);
    // The same page without the flag: why, and nothing about an answer.
    const plain = await request(link);
    expect(plain.text).toContain('>Answers closed when the match kicked off.<');
    expect(plain.text).not.toContain('id="outcome"');
    // A post with no choice (a form of its own) to the closed match: refused for being closed, not asked to choose
    // above disabled buttons (a diff review).
    const none = await request(link, form({ token }));
    expect(none.status).toBe(422);
    expect(title(none.text)).toMatch(/^Your answer was not saved\. /);
    expect(none.text).toContain('<p id="outcome" class="outcome">Your answer was not saved. Answers closed when the match kicked off.</p>');
    expect(none.text).not.toContain('Choose yes, maybe or no.');
  });

  it('answers a post with a link we cannot find with the page to GET, which says the link is not valid', async () => {
    const unknown = 'u'.repeat(43);
    const res = await request(`${svc.url}/rsvp?token=${unknown}`, form({ token: unknown, status: 'no' }));
    expect(res.headers.location).toBe(`/rsvp?token=${unknown}`);
    const shown = await follow303(res);
    expect([shown.status, title(shown.text)]).toEqual([404, 'This link is not valid · هذا الرابط غير صالح']);
    // A token that cannot be one is not carried into the address.
    const garbage = await request(`${svc.url}/rsvp`, form({ token: 'x'.repeat(5_000), status: 'no' }));
    expect(garbage.headers.location).toBe('/rsvp?token=');
    expect((await follow303(garbage)).status).toBe(404);
  });

  it('a result recorded before kickoff (a walkover awarded ahead) closes answers without saying it kicked off', async () => {
    const { link } = await invitation('rsl-prem-r09-1');
    db.prepare(`UPDATE matches SET status = 'completed', home_score = 3, away_score = 0 WHERE id = 'rsl-prem-r09-1'`).run();
    const page = await request(link);
    expect(page.text).toContain('Answers are closed: this match has its result.');
    expect(page.text).not.toContain('kicked off');
  });

  it('isolates names: a Latin name ending in a full stop keeps it at its end on an Arabic page', async () => {
    const { link } = await invitation('amm-u14-sf1');
    db.prepare(`UPDATE team_members SET name = 'Nizar Smadi Jr.', name_ar = NULL
      WHERE id IN (SELECT member_id FROM rsvp_invitations WHERE match_id = 'amm-u14-sf1')`).run();
    const page = await request(link);
    expect(page.text).toContain('lang="ar" dir="rtl"');
    expect(page.text).toMatch(/<bdi>[^<]*<\/bdi> · <bdi>/);
    expect(page.text).toContain('<bdi>Nizar Smadi Jr.</bdi>');
    // Why answers are closed, in the passive (a native Arabic review read "أغلقت الردود", "you closed the answers").
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = 'amm-u14-sf1'`).run(new Date(Date.now() - 60_000).toISOString());
    expect((await request(link)).text).toContain('>أُغلقت الردود عند انطلاق المباراة.<');
    db.prepare(`UPDATE matches SET status = 'completed', home_score = 1, away_score = 0 WHERE id = 'amm-u14-sf1'`).run();
    expect((await request(link)).text).toContain('>أُغلقت الردود: سُجّلت نتيجة هذه المباراة.<');
  });

  it('a link it cannot read says so in both languages, and the title does not call a refused request an invalid link', async () => {
    const invalid = await request(`${svc.url}/rsvp?token=${'x'.repeat(43)}`);
    expect(invalid.status).toBe(404);
    expect(title(invalid.text)).toBe('This link is not valid · هذا الرابط غير صالح');
    expect(invalid.text).toContain('the organizer may have withdrawn the invitation');
    expect(invalid.text).toMatch(/<div lang="ar" dir="rtl" class="other-language">\s*<h2>هذا الرابط غير صالح<\/h2>/);
    const tooLarge = await request(`${svc.url}/rsvp?token=x`, form({ token: 'x', status: 'yes', pad: 'x'.repeat(20_000) }));
    expect(tooLarge.status).toBe(413);
    expect(title(tooLarge.text)).toBe('This request could not be read. Use the link in your email. · تعذرت قراءة هذا الطلب. يُرجى استخدام الرابط الموجود في رسالتك.');
  });
});

describe('the follow pages without JavaScript', () => {
  it('unsubscribe and follow again are each answered with the page to GET; the one-click POST in place', async () => {
    const email = 'prg.unsubscribe@example.org';
    await follow({ org_id: 'riverside-sfl', email });
    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    await follow303(await request(linkIn(mail.text, '/follow/confirm?token='), form({})));
    const unsubscribe = linkIn(mail.text, '/follow/unsubscribe?token=');
    expect((await request(unsubscribe)).text).toContain('<input type="hidden" name="action" value="unsubscribe">');
    const done = await follow303(await request(unsubscribe, form({ action: 'unsubscribe' })));
    expect(outcome(done.text)).toBe('already_unsubscribed');
    expect(done.text).toContain('You are unsubscribed');
    // "Follow again" shows where the emails will go, as the confirm page does.
    expect(done.text).toContain(`<bdi dir="ltr" data-address>${email}</bdi>`);
    const again = await follow303(await request(unsubscribe, form({ action: 'follow-again' })));
    expect(outcome(again.text)).toBe('followed_again');
    // Back to the page the unsubscribe landed on, refreshed: a GET, which unsubscribes nothing.
    await request(`${unsubscribe}`);
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'active' });
    // RFC 8058: the mail client's server follows no redirect.
    const oneClick = await request(unsubscribe, form({ 'List-Unsubscribe': 'One-Click' }));
    expect([oneClick.status, outcome(oneClick.text)]).toEqual([200, 'unsubscribed']);
  });

  it("a confirm link opened after unsubscribing says so and offers to follow again (it said: not valid, follow again, which sends nothing for 30 days)", async () => {
    const email = 'confirm.after@example.org';
    await follow({ org_id: 'amman-yfa', email });
    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    const confirm = linkIn(mail.text, '/follow/confirm?token=');
    await request(linkIn(mail.text, '/follow/unsubscribe?token='), form({ 'List-Unsubscribe': 'One-Click' }));
    const page = await request(confirm);
    expect([page.status, outcome(page.text)]).toEqual([200, 'unsubscribed']);
    expect(page.text).toContain('data-follow-again');
    // A GET confirms nothing; the button does, once, and the page then says so.
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'unsubscribed' });
    const again = await follow303(await request(confirm, form({ action: 'follow-again' })));
    expect(outcome(again.text)).toBe('followed_again');
    expect(db.prepare(`SELECT status FROM follows WHERE email = ?`).get(email)).toEqual({ status: 'active' });
    // The confirm button itself, posted again, changes nothing.
    const twice = (await request(confirm, form({}))).text;
    expect(outcome(twice)).toBe('already_confirmed');
    // Said as the success it is (a double tap on a slow connection read "Nothing changed." after the first had confirmed).
    expect(twice).toContain('تم تأكيد هذه المتابعة.');
    expect(twice).not.toContain('لم يتغير شيء');
  });

  // A native Arabic review: "أخبار مسابقاتها" gave a feminine "its" to a league, club or federation, often masculine.
  it('the Arabic confirm page says what will be sent without a pronoun for the organization, asked, confirmed and again', async () => {
    const email = 'confirm.words@example.org';
    await follow({ org_id: 'amman-yfa', email });
    const confirm = linkIn((await waitForEmail(svc.env.MAIL_DIR!, email)).text, '/follow/confirm?token=');
    const asked = await request(confirm);
    const confirmed = await follow303(await request(confirm, form({})));
    const again = await request(confirm, form({}));
    expect([outcome(asked.text), outcome(confirmed.text), outcome(again.text)]).toEqual(['ask', 'confirmed', 'already_confirmed']);
    for (const page of [asked, confirmed, again]) {
      expect(page.text).toContain('سنرسل إليك أخبار المسابقات ونتائجها. في كل رسالة رابط لإيقاف المتابعة.');
      expect(page.text).not.toContain('مسابقاتها');
    }
  });

  it('an unknown link says so in both languages on both pages', async () => {
    for (const page of ['confirm', 'unsubscribe']) {
      const res = await request(`${svc.url}/follow/${page}?token=${'y'.repeat(43)}`);
      expect(res.status).toBe(404);
      expect(title(res.text)).toBe('This link is not valid · هذا الرابط غير صالح');
      expect(res.text).toContain('<h2>هذا الرابط غير صالح</h2>');
    }
  });
});
