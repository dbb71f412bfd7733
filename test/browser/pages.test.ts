// The human pages in a real browser (Debian's Chromium through playwright-core): the RSVP page posts the
// choice to endpoint 7 and shows the new counts under the page's Content-Security-Policy; the confirm page
// of an Arabic organization is laid out right to left.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, waitForEmail } from '../support/mail.js';
import { request } from '../support/http.js';
import { CHROMIUM, launchChromium, type Browser, type Page } from '../support/browser.js';
import { startService, type RunningService } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MATCH = 'rsl-prem-r07-2';

let svc: RunningService;
let browser: Browser;
let rsvpLink: string;

beforeAll(async () => {
  if (!CHROMIUM) return;
  browser = await launchChromium();
  svc = await startService({ RATE_LIMIT_WRITES_PER_MIN: '0' });
});
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

describe.skipIf(!CHROMIUM)('pages in Chromium', () => {
  it('RSVP: a click posts to the API and the counts move, with no CSP violation', async () => {
    const db = new Database(svc.env.DATABASE_PATH!);
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(new Date(Date.now() + 30 * 86_400_000).toISOString(), MATCH);
    db.close();
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', MATCH], { cwd: ROOT, env: { ...process.env, ...svc.env } });
    const member = new Database(svc.env.DATABASE_PATH!, { readonly: true })
      .prepare(`SELECT tm.email FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id WHERE i.match_id = ? ORDER BY tm.id LIMIT 1`)
      .get(MATCH) as { email: string };
    const mail = await waitForEmail(svc.env.MAIL_DIR!, member.email, (e) => e.text.includes('/rsvp?token='));
    const link = linkIn(mail.text, '/rsvp?token=');
    rsvpLink = link;

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname));
    await page.goto(link);
    const pendingBefore = Number(await page.textContent('[data-count="pending"]'));
    const teamPendingBefore = Number(await page.textContent('[data-team-count="pending"]'));
    // The member's team's counts first ("do we have eleven?"), then both teams' (the summary's): a review had read
    // "Team answers" over both teams' counts as its own team's, so each heading says whose they are.
    const team = new Database(svc.env.DATABASE_PATH!, { readonly: true })
      .prepare(`SELECT t.id, t.name FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.email = ? ORDER BY tm.id LIMIT 1`)
      .get(member.email) as { id: string; name: string };
    expect(await page.textContent('#team-counts-heading')).toBe(`Answers so far, your team: ${team.name}`);
    expect(await page.textContent('#counts-heading')).toBe('Answers so far, both teams');
    expect(teamPendingBefore).toBeLessThan(pendingBefore);
    await page.click('button[value="yes"]');
    await page.waitForFunction(() => document.querySelector('[data-count="yes"]')?.textContent === '1');
    expect(await page.getAttribute('button[value="yes"]', 'aria-pressed')).toBe('true');
    expect(Number(await page.textContent('[data-count="pending"]'))).toBe(pendingBefore - 1);
    expect([await page.textContent('[data-team-count="yes"]'), Number(await page.textContent('[data-team-count="pending"]'))]).toEqual(['1', teamPendingBefore - 1]);
    expect(posts).toEqual(['/api/v0/rsvp/respond']);
    expect(page.url()).toBe(link); // no navigation: the script did it
    expect(problems, problems.join("\n")).toEqual([]);
    const summary = (await request(`${svc.url}/api/v0/rsvp/${MATCH}`)).json();
    expect(summary.summary.yes).toBe(1);
    expect(summary.teams.find((t: { team_id: string }) => t.team_id === team.id).summary.yes).toBe(1);
    await page.screenshot({ path: path.join(svc.dir, 'rsvp.png') });
    await page.close();
  });

  // An accessibility review on a slow connection: "Yes", then "No" 0.3 s later, the reply to "Yes" last; the page said
  // "saved" with Yes pressed while No was stored. One answer at a time, the last one tapped; busy meanwhile.
  it('RSVP: two taps on a slow connection end on the answer stored, shown busy meanwhile', async () => {
    const page = await browser.newPage();
    const sent: string[] = [];
    let first = true;
    await page.route('**/api/v0/rsvp/respond', async (route) => {
      sent.push((JSON.parse(route.request().postData() ?? '{}') as { status: string }).status);
      const response = await route.fetch();
      if (first) {
        first = false;
        await new Promise((r) => setTimeout(r, 2000));
      }
      await route.fulfill({ response });
    });
    await page.goto(rsvpLink);
    await page.click('button[value="yes"]');
    expect(await page.getAttribute('#rsvp', 'aria-busy')).toBe('true');
    expect(await page.textContent('#notice')).toBe('Saving your answer…');
    await page.waitForTimeout(300);
    await page.click('button[value="no"]');
    await page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Your answer is saved.');
    expect(sent).toEqual(['yes', 'no']);
    expect(await page.getAttribute('button[value="no"]', 'aria-pressed')).toBe('true');
    expect(await page.getAttribute('button[value="yes"]', 'aria-pressed')).toBe('false');
    expect(await page.getAttribute('#rsvp', 'aria-busy')).toBeNull();
    await page.reload();
    expect(await page.getAttribute('button[value="no"]', 'aria-pressed')).toBe('true');
    // The answer given is marked by more than its colour: a check mark, and under forced colours (Windows High
    // Contrast, which drops backgrounds: the review found the three answers identical) a thick border.
    await page.emulateMedia({ forcedColors: 'active' });
    const mark = (value: string) =>
      page.evaluate((v) => {
        const button = document.querySelector(`button[value="${v}"]`)!;
        return { border: getComputedStyle(button).borderTopWidth, before: getComputedStyle(button, '::before').content };
      }, value);
    expect(await mark('no')).toEqual({ border: '3px', before: expect.stringContaining('\u2713') });
    expect(await mark('yes')).toEqual({ border: '1px', before: 'none' });
    // The mark is not read out: the button's name stays its answer.
    expect(await page.getByRole('button', { name: 'No', exact: true, pressed: true }).count()).toBe(1);
    await page.close();
  });

  // An RSVP review: the page left open while the match moved, the player said yes under the old kickoff and venue,
  // and read "Your answer is saved." beside them.
  it.each([true, false])('RSVP (JavaScript %s): an answer from a page drawn before the match moved is saved, and the page says it moved', async (javaScriptEnabled) => {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(rsvpLink);
    const before = await page.textContent('[data-kickoff]');
    const db = new Database(svc.env.DATABASE_PATH!);
    const kickoff = new Date(Date.now() + (javaScriptEnabled ? 31 : 32) * 86_400_000).toISOString();
    db.prepare(`UPDATE matches SET kickoff_at = ?, venue = 'Somewhere Else Park' WHERE id = ?`).run(kickoff, MATCH);
    db.close();
    await Promise.all([page.waitForURL(/moved=1/), page.click('button[value="maybe"]')]);
    // Said first, above the match it points to, and in the title.
    expect(await page.textContent('#outcome')).toBe(
      'Your answer is saved. This match has moved since you opened the page: check its date, time and place below, and change your answer if it no longer holds.',
    );
    expect(await page.title()).toMatch(/^Your answer is saved; the match has moved\. /);
    expect(await page.evaluate(() => document.querySelector('.card')!.firstElementChild!.id)).toBe('outcome');
    expect(await page.textContent('[data-kickoff]')).not.toBe(before);
    expect(await page.textContent('.card')).toContain('Somewhere Else Park');
    expect(await page.getAttribute('button[value="maybe"]', 'aria-pressed')).toBe('true');
    // Nothing moved since this page was drawn: an answer is just saved (and "no", as the tests below expect it).
    await Promise.all([javaScriptEnabled ? page.waitForFunction(() => document.querySelector('#notice')?.textContent === 'Your answer is saved.') : page.waitForURL(/saved=1(?!.*moved)/), page.click('button[value="no"]')]);
    // With the script, beside the buttons (the page's earlier outcome gone, from its title too); without, first on the
    // page drawn again.
    if (javaScriptEnabled) {
      expect([await page.textContent('#notice'), await page.locator('#outcome').count()]).toEqual(['Your answer is saved.', 0]);
      expect(await page.title()).toMatch(/^\u2068[^\u2069]+\u2069, can you make it\? /);
    }
    else {
      expect([await page.textContent('#outcome'), await page.textContent('#notice')]).toEqual(['Your answer is saved.', '']);
      expect(await page.title()).toMatch(/^Your answer is saved\. /);
    }
    await context.close();
  });

  it('RSVP: once the match has kicked off, the buttons are disabled and look it', async () => {
    const page = await browser.newPage();
    await page.goto(rsvpLink);
    const look = (selector: string) =>
      page.evaluate((s) => {
        const style = getComputedStyle(document.querySelector(s)!);
        return { opacity: style.opacity, cursor: style.cursor, borderStyle: style.borderTopStyle };
      }, selector);
    const open = await look('button[value="no"]');
    expect(open).toEqual({ opacity: '1', cursor: 'pointer', borderStyle: 'solid' });
    const db = new Database(svc.env.DATABASE_PATH!);
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(new Date(Date.now() - 60_000).toISOString(), MATCH);
    db.close();
    await page.reload();
    // The answer recorded above ("no") stays readable at full contrast; the others fade.
    expect(await page.getAttribute('button[value="no"]', 'aria-pressed')).toBe('true');
    // And is said in words: the disabled buttons take no focus, so a keyboard user could not reach it (a review).
    expect(await page.textContent('#notice')).toBe('Answers closed when the match kicked off. The answer recorded: No.');
    for (const value of ['yes', 'maybe', 'no']) {
      expect(await page.isDisabled(`button[value="${value}"]`)).toBe(true);
      const closed = await look(`button[value="${value}"]`);
      if (value === 'no') expect(closed.opacity).toBe('1');
      else expect(Number(closed.opacity)).toBeLessThan(0.6);
      expect(closed.cursor).toBe('not-allowed');
      expect(closed.borderStyle).toBe('dashed');
    }
    await page.screenshot({ path: path.join(svc.dir, 'rsvp-closed.png') });
    await page.close();
  });

  it('RSVP in Arabic: when the API cannot take the answer, the page does, in Arabic (network down, answers closed)', async () => {
    const match = 'amm-u14-sf1';
    const db = new Database(svc.env.DATABASE_PATH!);
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(new Date(Date.now() + 30 * 86_400_000).toISOString(), match);
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/invite.ts', '--match', match], { cwd: ROOT, env: { ...process.env, ...svc.env } });
    const member = db
      .prepare(`SELECT tm.email FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id WHERE i.match_id = ? ORDER BY tm.id LIMIT 1`)
      .get(match) as { email: string };
    const mail = await waitForEmail(svc.env.MAIL_DIR!, member.email, (e) => e.text.includes('/rsvp?token='));
    const page = await browser.newPage();
    await page.goto(linkIn(mail.text, '/rsvp?token='));
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    const notice = async () => (await page.textContent('#notice'))!.trim();
    const outcome = async () => (await page.textContent('#outcome'))!.trim();

    // The network fails: the form is posted to the page, with the choice.
    await page.route('**/api/v0/rsvp/respond', (route) => route.abort());
    await Promise.all([page.waitForNavigation({ timeout: 10_000 }), page.click('button[value="yes"]')]);
    expect(await page.textContent('[data-count="yes"]')).toBe('1');
    expect(await outcome()).toBe('تم حفظ ردك.');
    await page.unroute('**/api/v0/rsvp/respond');

    // The match kicks off while the page is open: the API answers 409 (in English); the page says it in Arabic.
    db.prepare(`UPDATE matches SET kickoff_at = ? WHERE id = ?`).run(new Date(Date.now() - 60_000).toISOString(), match);
    db.close();
    await Promise.all([page.waitForNavigation({ timeout: 10_000 }), page.click('button[value="no"]')]);
    // Said first, with why, in the title too (an accessibility review's screen reader heard the same title asking
    // "can you make it?"); the answer that stands in words beside the buttons.
    expect(await outcome()).toBe('لم يُحفظ ردك. أُغلقت الردود عند انطلاق المباراة.');
    expect(await page.title()).toMatch(/^لم يُحفظ ردك\. /);
    expect(await notice()).toBe('الرد المسجّل: نعم.');
    // The page to GET (303): a reload posts nothing again.
    expect(new URL(page.url()).searchParams.get('closed')).toBe('1');
    expect(await page.textContent('[data-count="yes"]')).toBe('1');
    await page.close();
  });

  it('confirm page of an Arabic organization reads right to left', async () => {
    const email = 'browser.ar@example.org';
    await request(`${svc.url}/api/v0/follow`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'amman-yfa', email }),
    });
    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    const page = await browser.newPage();
    await page.goto(linkIn(mail.text, '/follow/confirm?token='));
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await page.getAttribute('h1', 'data-outcome')).toBe('ask');
    await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
    expect(await page.getAttribute('h1', 'data-outcome')).toBe('confirmed');
    const direction = await page.evaluate(() => getComputedStyle(document.querySelector('h1')!).direction);
    expect(direction).toBe('rtl');
    await page.close();
  });

  // An accessibility review opened cut-short and mistyped links and was shown raw JSON: Chromium's own Accept gets a page.
  it('a cut-short or mistyped link opened in the browser: a 404 page in both languages, leading home', async () => {
    const page = await browser.newPage();
    for (const target of ['/follow/', '/RSVP?token=abc', '/nope']) {
      const response = await page.goto(`${svc.url}${target}`);
      expect(response!.status(), target).toBe(404);
      expect(await page.getAttribute('html', 'lang'), target).toBe('en');
      expect(await page.title(), target).toBe('Page not found · الصفحة غير موجودة');
      expect(await page.textContent('h1'), target).toBe('Page not found');
      expect(await page.getAttribute('.other-language', 'lang'), target).toBe('ar');
    }
    await Promise.all([page.waitForURL(`${svc.url}/`), page.click('text=Go to the home page')]);
    expect(await page.textContent('h1')).toBe('Competitions — public data service');
    await page.close();
  });

  // Found by a review at 375 px: the docs' tables and a long address on the confirm page widened the page, which
  // then scrolled sideways (in a right-to-left page the address ran off its left edge).
  it('at a phone width (375 px), /docs and a confirm page showing a long address fit the screen', async () => {
    const email = 'mohammad.abdelrahman.alkhawaldeh+winter-cup-2026@subdomain.example-organisation.co.uk';
    await request(`${svc.url}/api/v0/follow`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ org_id: 'amman-yfa', email }),
    });
    const mail = await waitForEmail(svc.env.MAIL_DIR!, email);
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    for (const target of [`${svc.url}/docs`, linkIn(mail.text, '/follow/confirm?token=')]) {
      await page.goto(target);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, target).toBeLessThanOrEqual(375);
    }
    expect(await page.textContent('[data-address]')).toBe(email);
    await page.close();
  });

  // A browser review at 360 px with text at 200% (WCAG 1.4.4): the /docs title, its contents' longest links
  // (`GET /teams/{teamId}/calendar.ics`) and the home page's example address widened the page to 578 px.
  it('at 360 px with text at 200%, /docs (contents open) and the home page fit the screen', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    for (const target of [`${svc.url}/docs`, `${svc.url}/`]) {
      await page.goto(target);
      await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
      if (target.endsWith('/docs')) await page.click('nav summary');
      const wide = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        widest: [...document.querySelectorAll('body *')].filter((e) => !e.closest('.table-scroll') && e.getBoundingClientRect().right > 360.5)
          .map((e) => `${e.tagName} ${(e.textContent ?? '').slice(0, 40)}`).slice(0, 5),
      }));
      expect(wide, target).toEqual({ width: 360, widest: [] });
    }
    await page.close();
  });

  // An accessibility review at 360 px with text at 200% (WCAG 1.4.4, 1.4.10): a registration's reference, which the
  // parent is told to keep, was cut at "reg_zQ27vFmPRF3Re", and "No answer yet" pushed the RSVP page's fourth count out
  // of its card.
  it('at 360 px with text at 200%, the RSVP page and a registration sent from a form fit the screen, its reference whole', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.route('https://club.example/join', (route) => route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><form method="post" action="${svc.url}/api/v0/register">
        <input name="org_id" value="riverside-sfl"><input name="division_id" value="rsl-reg-veterans">
        <input name="name" value="Maximilian Featherstonehaugh-Worthington"><input name="email" value="max.zoom@example.org"><button>Send</button></form>`,
    }));
    await page.goto('https://club.example/join');
    await Promise.all([page.waitForURL(`${svc.url}/api/v0/register`), page.click('button')]);
    const reference = /reg_[A-Za-z0-9_-]{16}/.exec((await page.textContent('main'))!)![0];
    // Through the CSSOM: the answer page's Content-Security-Policy refuses a <style> added to it.
    const fits = async () => {
      await page.evaluate(() => document.documentElement.style.setProperty('font-size', '200%', 'important'));
      return page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        outside: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 360.5 || e.getBoundingClientRect().left < -0.5)
          .map((e) => `${e.tagName} ${(e.textContent ?? '').slice(0, 40)}`).slice(0, 5),
      }));
    };
    expect(await fits(), 'registration sent').toEqual({ width: 360, outside: [] });
    // The reference whole on the screen: its characters' boxes inside it, however it wraps.
    const inside = await page.evaluate((ref) => {
      const text = [...document.querySelectorAll('main p')].map((p) => p.firstChild).find((n) => n?.textContent?.includes(ref))!;
      const range = document.createRange();
      const start = text.textContent!.indexOf(ref);
      range.setStart(text, start);
      range.setEnd(text, start + ref.length);
      return [...range.getClientRects()].every((r) => r.left >= 0 && r.right <= 360.5);
    }, reference);
    expect(inside).toBe(true);

    await page.goto(rsvpLink);
    const rows = () => page.evaluate(() => new Set([...document.querySelector('dl.counts')!.children].map((d) => Math.round(d.getBoundingClientRect().top))).size);
    expect(await rows(), 'four counts in a row at 100%').toBe(1);
    expect(await fits(), 'RSVP').toEqual({ width: 360, outside: [] });
    expect(await rows(), 'two rows of two at 200%, never 3 + 1').toBe(2);
    await context.close();
  });

  // An accessibility review at 360 px: every table of /docs (315 to 321 px) overflowed its 286 px box, cutting a line
  // of every description at its right edge, and names broke mid-word ("Idemp / otenc / y-Key"). A narrow box reads
  // a table a row at a time (docs.astro, `table.stack`). 801 px: beside the contents, the boxes are as narrow.
  it('/docs on a phone: every table fits its box, no name breaks, and the tables stay tables to screen readers', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    for (const width of [360, 801]) {
      await page.setViewportSize({ width, height: 740 });
      await page.goto(`${svc.url}/docs`);
      const layout = await page.evaluate(() => {
        // Every example open, as a reader opens them.
        for (const details of document.querySelectorAll('main details')) (details as HTMLDetailsElement).open = true;
        const main = document.querySelector('main')!;
        const style = getComputedStyle(main);
        const right = main.getBoundingClientRect().right - parseFloat(style.paddingRight);
        const boxes = [...main.querySelectorAll('.table-scroll')];
        return {
          boxes: boxes.length,
          overflowing: boxes.filter((b) => b.scrollWidth > b.clientWidth).map((b) => `${b.scrollWidth} > ${b.clientWidth}`),
          // Everything stays inside main's content box, code examples included: they wrap rather than scroll in a box a
          // keyboard cannot reach in Safari (an accessibility review's axe run).
          wider: [...main.querySelectorAll('*')]
            .filter((e) => e.getBoundingClientRect().right > right + 0.5)
            .map((e) => `${e.tagName} ${(e.textContent ?? '').slice(0, 40)}`),
          // A name on two lines has two boxes.
          broken: [...main.querySelectorAll('table td:first-child > code')].filter((c) => c.getClientRects().length > 1).map((c) => c.textContent),
          idempotencyKey: [...main.querySelectorAll('table td:first-child > code')].filter((c) => c.textContent === 'Idempotency-Key').map((c) => c.getClientRects().length),
        };
      });
      expect(layout.boxes, `${width}`).toBeGreaterThan(40);
      expect(layout.overflowing, `${width}`).toEqual([]);
      expect(layout.wider.slice(0, 5), `${width}`).toEqual([]);
      expect(layout.broken, `${width}`).toEqual([]);
      expect(layout.idempotencyKey.length, `${width}`).toBeGreaterThan(0);
      expect(new Set(layout.idempotencyKey), `${width}`).toEqual(new Set([1]));
    }
    // Laid out as rows of blocks, each table is still a table with its column headers in Chromium's accessibility tree.
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ role?: { value: string }; name?: { value: string } }> };
    const roles = (role: string) => nodes.filter((n) => n.role?.value === role);
    expect(roles('table').length).toBe(await page.locator('main table').count());
    expect(roles('columnheader').map((n) => n.name?.value)).toEqual(expect.arrayContaining(['Name', 'Type', 'Required', 'Description and rules']));
    await page.close();
  });

  // An accessibility review on a phone: no skip link, the contents (1,672 px) before the <h1>, 46 Tab presses to the
  // first link of <main>, and eight <h2> group labels ahead of the <h1> in the outline.
  it('/docs: a skip link first, the <h1> the first heading, the contents closed on a phone and shown beside on a wide screen', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto(`${svc.url}/docs`);
    expect(await page.evaluate(() => document.querySelector('h1, h2, h3, h4, h5, h6')!.tagName)).toBe('H1');
    // The <h1> is on the first screen; the contents' links are hidden until "Contents" opens them.
    expect((await page.locator('h1').boundingBox())!.y).toBeLessThan(740);
    const firstContentsLink = page.locator('nav a[href="#op-listEvents"]');
    expect(await firstContentsLink.isVisible()).toBe(false);

    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => {
      const a = document.activeElement as HTMLAnchorElement;
      const box = a.getBoundingClientRect();
      return { text: a.textContent, href: a.getAttribute('href'), width: box.width, top: box.top };
    });
    expect(skip.text).toBe('Skip to content');
    expect(skip.href).toBe('#content');
    // Shown once focused: not a 1 px box, and on the screen.
    expect(skip.width).toBeGreaterThan(50);
    expect(skip.top).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement!.tagName)).toBe('MAIN');
    // The next Tab is the first link of <main>.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement!.closest('main') !== null && document.activeElement!.tagName === 'A')).toBe(true);

    await page.click('nav summary');
    expect(await firstContentsLink.isVisible()).toBe(true);

    // Beside <main>, the contents are a sidebar, shown without a click, their links next after the skip link.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${svc.url}/docs`);
    expect(await firstContentsLink.isVisible()).toBe(true);
    expect(await page.locator('nav summary').isVisible()).toBe(false);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement!.textContent)).toBe('Overview');
    // The group labels label their lists, as headings no longer do.
    expect(await page.getByRole('list', { name: 'Errors' }).count()).toBe(1);
    await page.close();
  });

  // A club's page with a plain form (no script) posting to the API, as the contract invites: the parent got raw JSON.
  it("a club site's HTML form posting to register: the parent reads a page, in the organization's language", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // The club's site, another origin.
    await page.route('https://club.example/join', (route) => route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><form method="post" action="${svc.url}/api/v0/register">
        <input name="org_id" value="amman-yfa"><input name="division_id" value="amm-reg-u12">
        <input name="name" value="Club Form Player"><input name="email" value="club.form@example.org">
        <input name="date_of_birth" value="2014-05-06"><button>Send</button></form>`,
    }));
    await page.goto('https://club.example/join');
    await Promise.all([page.waitForURL(`${svc.url}/api/v0/register`), page.click('button')]);
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await page.textContent('h1')).toBe('تم إرسال التسجيل');
    expect(await page.textContent('main')).toMatch(/reg_[A-Za-z0-9_-]{16}/);
    // A field to correct: the page names it, and going back keeps the form.
    await page.goBack();
    await page.fill('input[name="email"]', 'not an address');
    await Promise.all([page.waitForURL(`${svc.url}/api/v0/register`), page.click('button')]);
    expect(await page.textContent('h1')).toBe('بعض الإجابات تحتاج إلى تعديل');
    expect(await page.textContent('li')).toContain('البريد الإلكتروني');
    await context.close();
  });

  /** A club's own site, on another origin of this machine than the service's: `html` at every path. */
  /**
   * examples/FILE on a club's site (another origin), its marked values replaced (`values`: text → text) and its form
   * posting to the running service, opened by a browser without JavaScript: `fill` fills it in and sends it.
   */
  async function onClubSite(file: string, values: Record<string, string>, fill: (page: Page, clubUrl: string) => Promise<void>): Promise<void> {
    let html = fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8').replace('https://competitions.example', svc.url);
    for (const [marked, value] of Object.entries(values)) html = html.replace(marked, value);
    const club = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(html);
    });
    await new Promise<void>((resolve) => club.listen(0, '127.0.0.2', resolve));
    const clubUrl = `http://127.0.0.2:${(club.address() as AddressInfo).port}`;
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(clubUrl);
      await fill(page, clubUrl);
    } finally {
      await context.close();
      club.close();
    }
  }

  /** Rows of the service's database, read as they stand. */
  function storedRows(query: string, ...params: unknown[]): unknown[] {
    const stored = new Database(svc.env.DATABASE_PATH!, { readonly: true });
    try {
      return stored.prepare(query).all(...params);
    } finally {
      stored.close();
    }
  }

  // The README's example forms (examples/registration-form.html, and .ar.html in Arabic), with their marked values
  // changed as their comments say, on a club's site: a parent fills one in and reads "Registration sent"; left on its
  // empty division, the browser's own check stops it before it is sent.
  it.each([
    { file: 'registration-form.html', org: 'riverside-sfl', divisions: ['rsl-reg-premier', 'rsl-reg-veterans'], dateOfBirth: '1990-04-05', sent: 'Registration sent' },
    // Sent to an English organization: the Arabic form asks for its answer in Arabic.
    { file: 'registration-form.ar.html', org: 'riverside-sfl', divisions: ['rsl-reg-premier', 'rsl-reg-veterans'], dateOfBirth: '1990-04-05', sent: 'تم إرسال التسجيل', nameAr: 'لاعب النموذج' },
  ])('the example form $file, its marked values changed, registers a player from a club\'s site', async ({ file, org, divisions, dateOfBirth, sent, nameAr }) => {
    const values = {
      'value="your-organization-id"': `value="${org}"`,
      'value="your-u12-division-id"': `value="${divisions[0]}"`,
      'value="your-u14-division-id"': `value="${divisions[1]}"`,
    };
    await onClubSite(file, values, async (page, clubUrl) => {
      if (nameAr) await page.fill('#name_ar', nameAr);
      await page.fill('#name', 'Example Form Player');
      await page.fill('#date_of_birth', dateOfBirth);
      const email = `example.form.${file.replace(/[^a-z]/g, '')}@example.org`;
      await page.fill('#email', email);
      // Two lines, sent as CRLF: kept as the parent typed them.
      await page.fill('#notes', 'Left foot\nAsthma inhaler');
      // Left on "Choose…": the browser's required check keeps it on the club's page.
      await page.click('button');
      expect(new URL(page.url()).origin).toBe(clubUrl);
      await page.selectOption('#division_id', divisions[1]!);
      await Promise.all([page.waitForURL(`${svc.url}/api/v0/register`), page.click('button')]);
      expect(await page.textContent('h1')).toBe(sent);
      expect(await page.textContent('main')).toContain(email);
      expect(storedRows(`SELECT org_id, division_id, name, name_ar, notes FROM registrations WHERE email = ?`, email))
        .toEqual([{ org_id: org, division_id: divisions[1], name: 'Example Form Player', name_ar: nameAr ?? null, notes: 'Left foot\nAsthma inhaler' }]);
    });
  });

  // The README's example follow forms, their marked values changed: a fan types an address and reads "Check your email",
  // in the form's language whatever the organization's; the follow waits for its confirmation, in that language.
  it.each([
    { file: 'follow-form.html', org: 'amman-yfa', heading: 'Check your email', language: 'en' },
    { file: 'follow-form.ar.html', org: 'riverside-sfl', heading: 'يُرجى التحقق من بريدك', language: 'ar' },
  ])('the example form $file, its marked values changed, asks a fan to confirm', async ({ file, org, heading, language }) => {
    await onClubSite(file, { 'value="your-organization-id"': `value="${org}"` }, async (page) => {
      const email = `example.follow.${language}@example.org`;
      await page.fill('#email', email);
      await Promise.all([page.waitForURL(`${svc.url}/api/v0/follow`), page.click('button')]);
      expect(await page.textContent('h1')).toBe(heading);
      expect(storedRows(`SELECT org_id, status, language FROM follows WHERE email = ?`, email)).toEqual([{ org_id: org, status: 'pending', language }]);
    });
  });

  // Found by a review: a club embeds its form in a frame (Google Sites, a CMS widget). The registration was taken, but
  // its answer refused the frame (X-Frame-Options: DENY), and the parent saw a broken frame and sent it again.
  it("a club's form in a frame on its own site: the answer shows in the frame", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // The club's site, served from another origin of this machine (a routed public host framing 127.0.0.1 is
    // refused by Chromium's local network access checks, whatever the headers): its page frames its form.
    const club = http.createServer((req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(req.url === '/widget'
        ? `<!doctype html><form method="post" action="${svc.url}/api/v0/register">
            <input name="org_id" value="amman-yfa"><input name="division_id" value="amm-reg-u12">
            <input name="name" value="Framed Form Player"><input name="email" value="framed.form@example.org">
            <input name="date_of_birth" value="2014-05-06"><button>Send</button></form>`
        : '<!doctype html><h1>Join the club</h1><iframe name="widget" src="/widget" width="600" height="400"></iframe>');
    });
    await new Promise<void>((resolve) => club.listen(0, '127.0.0.1', resolve));
    const { port } = club.address() as AddressInfo;
    try {
      // localhost: another site than the service's 127.0.0.1.
      await page.goto(`http://localhost:${port}/`);
      const frame = page.frame({ name: 'widget' })!;
      await Promise.all([frame.waitForURL(`${svc.url}/api/v0/register`), frame.click('button')]);
      expect(await frame.textContent('h1', { timeout: 5_000 })).toBe('تم إرسال التسجيل');
      expect(await frame.textContent('main')).toMatch(/reg_[A-Za-z0-9_-]{16}/);
      await context.close();
    } finally {
      club.close();
    }
  });
});
