// A follower's email is checked again when it leaves, not only when the updates job queues it: an email can wait
// in the outbox for about a day (Postmark down, the worker retrying) or as long as the server is stopped, and
// meanwhile an organizer can make a competition private or the follower unsubscribe with one click. Found by a
// review (/tmp/review-mail-repro/updates-send-time.test.ts): both emails went out as they were queued.
// Real SQLite with the real migrations, the real import, updates job, follow service and mail worker, and the
// .eml files it writes read back with a MIME parser.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { confirmFollow, requestFollow, unsubscribeFollow } from '../src/follows/service.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { composeEmail } from '../src/mail/compose.js';
import { CANCEL_REASONS } from '../src/mail/send-time.js';
import { createFileTransport } from '../src/mail/transports/file.js';
import { startMailWorker } from '../src/mail/worker.js';
import { inviteMatch } from '../src/rsvp/service.js';
import { runUpdates } from '../src/updates/run.js';
import { tempDir } from './support/db.js';
import { readEmails } from './support/mail.js';

const BASE = 'https://c.example';
const FAN = 'fan@example.org';
const T0 = new Date('2026-11-21T12:00:00Z');

/** The small fixture with both competitions of rs-sunday public (the cup is private in the file). */
const fixture = () => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  f.organizations[0].leagues[0].events[1].public = true;
  // A cup match still to be played: its move is news (a played match's venue corrected is not).
  f.organizations[0].leagues[0].events[1].matches.push({ id: 'rs-c3', round: 3, home: { winner_of: 'rs-c2' }, away: 'rs-lions', kickoff: '2036-10-18T10:00:00Z' });
  return f;
};
let dir: string;
let db: Database;
const load = (file: unknown) => {
  const p = parseImport(JSON.stringify(file));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
};
beforeEach(async () => {
  dir = tempDir('mail-send-time-');
  db = await openDatabase(path.join(dir, 'app.db'));
  load(fixture());
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const opts = (now: Date) => ({ now, digestHour: 18, alertDelayMs: 0, forceDigests: true, publicBaseUrl: BASE });

/** A follow of `scope`, its confirmation sent (rendered here) and its links kept. */
function follow(scope: { org_id: string; league_id?: string }): { confirm: string; unsubscribe: string } {
  requestFollow(db.store, { ...scope, email: FAN }, { now: T0, emailsPerDay: 3 });
  const row = db.sqlite.prepare(`SELECT * FROM email_outbox WHERE status = 'pending' ORDER BY id DESC`).get() as never;
  const email = composeEmail(db.store, row, { baseUrl: BASE, now: T0 });
  db.sqlite.prepare(`UPDATE email_outbox SET status = 'sent'`).run();
  const token = (page: string) => new RegExp(`/follow/${page}\\?token=([A-Za-z0-9_-]{43})`).exec(email.text)![1]!;
  return { confirm: token('confirm'), unsubscribe: token('unsubscribe') };
}

/** A confirmed follower of riverside, and one digest queued about a match moved in each competition. */
async function digestQueued(): Promise<{ unsubscribe: string }> {
  await runUpdates(db, opts(T0)); // the baseline
  const links = follow({ org_id: 'riverside' });
  expect(confirmFollow(db.store, links.confirm, T0).outcome).toBe('confirmed');
  const f = fixture();
  f.organizations[0].leagues[0].events[0].matches[2].venue = 'Secret Winter Ground';
  f.organizations[0].leagues[0].events[1].matches[2].venue = 'Cup Moved Ground';
  load(f);
  expect(await runUpdates(db, opts(new Date(T0.getTime() + 60_000)))).toMatchObject({ emails: 1 });
  return links;
}

/** The organizer makes these competitions private (and, as organizers do, renames one). */
function makePrivate(...indexes: number[]): void {
  const f = fixture();
  f.organizations[0].leagues[0].events[0].matches[2].venue = 'Secret Winter Ground';
  f.organizations[0].leagues[0].events[1].matches[2].venue = 'Cup Moved Ground';
  for (const i of indexes) {
    f.organizations[0].leagues[0].events[i].public = false;
    f.organizations[0].leagues[0].events[i].name = `PRIVATE ${f.organizations[0].leagues[0].events[i].name}`;
  }
  load(f);
}

/** The worker sends what is due (at `now`, its clock); returns what reached the fan, the rows' outcomes and the worker's log. */
async function send(now?: Date) {
  const log: string[] = [];
  const tokensBefore = (db.sqlite.prepare(`SELECT count(*) AS n FROM link_tokens`).get() as { n: number }).n;
  const worker = startMailWorker(db.store, createFileTransport({ dir: path.join(dir, 'mail') }), {
    from: 'C <no-reply@c.example>', baseUrl: BASE, intervalMs: 60_000, log: (line) => log.push(line), ...(now ? { now: () => now } : {}),
  });
  await worker.drain();
  await worker.stop();
  return {
    mails: (await readEmails(path.join(dir, 'mail'))).filter((m) => m.to === FAN),
    rows: db.sqlite.prepare(`SELECT tag, status, attempts, last_error FROM email_outbox WHERE status != 'sent' OR sent_at IS NOT NULL ORDER BY id`).all(),
    log,
    linksMinted: (db.sqlite.prepare(`SELECT count(*) AS n FROM link_tokens`).get() as { n: number }).n - tokensBefore,
  };
}

it('a digest about a competition made private since it was queued is not sent', async () => {
  await digestQueued();
  makePrivate(0, 1);
  const { mails, rows, log, linksMinted } = await send();
  expect(mails).toEqual([]);
  expect(rows).toEqual([
    { tag: 'follow-digest', status: 'failed', attempts: 0, last_error: `cancelled at send time: ${CANCEL_REASONS.nothingPublic}` },
  ]);
  expect(linksMinted).toBe(0); // no unsubscribe link for an email that never left
  expect(log.join('\n')).toMatch(/^mail #\d+ tag=follow-digest cancelled at send time: none of its competitions is public any more$/);
});

it('a league follow is told nothing of its league once it has gone private, and again once it is public', async () => {
  // README, decisions: a league with no public competition is, to the public, an unknown id: its news is private.
  await runUpdates(db, opts(T0)); // the baseline
  const links = follow({ org_id: 'riverside', league_id: 'rs-sunday' });
  expect(confirmFollow(db.store, links.confirm, T0).outcome).toBe('confirmed');
  makePrivate(0, 1); // both competitions private, a match of each moved
  expect(await runUpdates(db, opts(new Date(T0.getTime() + 60_000)))).toMatchObject({ emails: 0 });
  expect((await send()).mails).toEqual([]);
  const f = fixture();
  f.organizations[0].leagues[0].events[0].matches[2].venue = 'Public Again Ground';
  load(f);
  expect(await runUpdates(db, opts(new Date(T0.getTime() + 120_000)))).toMatchObject({ emails: 1 });
  const { mails } = await send();
  expect(mails).toHaveLength(1);
  // Back in public view, its competitions are news again (as new ones), under their public names.
  expect(mails[0]!.text).toContain('Winter 2026');
  expect(mails[0]!.text).not.toContain('PRIVATE');
});

it('a digest about two competitions, one made private since, tells only of the public one', async () => {
  await digestQueued();
  makePrivate(0);
  const { mails, rows } = await send();
  expect(mails).toHaveLength(1);
  const [digest] = mails;
  expect(digest!.text).toContain('Riverside Cup');
  expect(digest!.text).toContain('Cup Moved Ground');
  expect(digest!.text).toContain(`${BASE}/api/v0/calendar/rs-cup-2026`);
  for (const email of [digest!.text, digest!.html, digest!.subject]) {
    expect(email).not.toContain('Winter 2026');
    expect(email).not.toContain('Secret Winter Ground'); // the private match's new venue
    expect(email).not.toContain('rs-winter-2026');
  }
  expect(rows).toEqual([{ tag: 'follow-digest', status: 'sent', attempts: 1, last_error: null }]);
});

it('a digest queued before the follower unsubscribed with one click is not sent', async () => {
  const { unsubscribe } = await digestQueued();
  expect(unsubscribeFollow(db.store, unsubscribe, new Date(T0.getTime() + 120_000)).outcome).toBe('unsubscribed');
  const { mails, rows, linksMinted } = await send();
  expect(mails).toEqual([]);
  expect(rows).toEqual([
    { tag: 'follow-digest', status: 'failed', attempts: 0, last_error: `cancelled at send time: ${CANCEL_REASONS.followNotActive}` },
  ]);
  expect(linksMinted).toBe(0);
});

it("a league follow's confirmation is not sent once every competition of the league is private: it would name it", async () => {
  requestFollow(db.store, { org_id: 'riverside', league_id: 'rs-sunday', email: FAN }, { now: T0, emailsPerDay: 3 });
  makePrivate(0, 1);
  const { mails, rows, linksMinted } = await send();
  expect(mails).toEqual([]);
  expect(rows).toEqual([
    { tag: 'follow-confirm', status: 'failed', attempts: 0, last_error: `cancelled at send time: ${CANCEL_REASONS.leagueNotPublic}` },
  ]);
  expect(linksMinted).toBe(0);
});

it('a confirmation still waited for is sent, with its links', async () => {
  requestFollow(db.store, { org_id: 'riverside', league_id: 'rs-sunday', email: FAN }, { now: T0, emailsPerDay: 3 });
  makePrivate(0); // the league keeps a public competition
  const { mails, linksMinted } = await send();
  expect(mails).toHaveLength(1);
  expect(mails[0]!.text).toContain('/follow/confirm?token=');
  expect(linksMinted).toBe(2);
});

it('a match invitation queued before its competition was made private is not sent', async () => {
  // README, RSVP: a private competition's matches are out of public hands; the invitation's link would answer 404.
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  makePrivate(0);
  const { rows, linksMinted } = await send();
  expect(rows).toEqual([
    { tag: 'rsvp-invite', status: 'failed', attempts: 0, last_error: `cancelled at send time: ${CANCEL_REASONS.matchNotPublic}` },
  ]);
  expect(linksMinted).toBe(0);
  expect(await readEmails(path.join(dir, 'mail'))).toEqual([]);
});

it('a match invitation still waiting when its match kicks off is not sent: nobody can answer it any more', async () => {
  // The worker retries for about a day (Postmark down) and sends nothing while the server is stopped.
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  const { rows, linksMinted } = await send(new Date('2026-12-13T10:00:00Z')); // rs-m3's kickoff
  expect(rows).toEqual([
    { tag: 'rsvp-invite', status: 'failed', attempts: 0, last_error: `cancelled at send time: ${CANCEL_REASONS.matchStarted}` },
  ]);
  expect(linksMinted).toBe(0);
  expect(await readEmails(path.join(dir, 'mail'))).toEqual([]);
});

it('a match invitation of a public competition is sent', async () => {
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  const { rows } = await send();
  expect(rows).toEqual([{ tag: 'rsvp-invite', status: 'sent', attempts: 1, last_error: null }]);
  const [mail] = await readEmails(path.join(dir, 'mail'));
  expect(mail!.to).toBe('sam.carter@example.org');
  // A calendar user's review: a player was offered every club's matches (the competition's feed), not their team's.
  expect(mail!.text).toContain("Add your team's matches to your calendar: webcal://");
  expect(mail!.text).toContain(`Address to paste into another calendar: ${BASE}/api/v0/teams/rs-lions/calendar\n`);
  expect(mail!.text).not.toContain('/api/v0/calendar/');
});
