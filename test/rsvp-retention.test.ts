// An RSVP invitation holds a member's address, their answer and when they gave it. A data protection review found every
// invitation kept for good, its match played years before. Now the retention job deletes an invitation, with its links
// and its finished emails, 180 days after its match's kickoff once the match is over for it (played, kicked off,
// cancelled); an invitation to a match still to come, or postponed, stays. Real SQLite with the real migrations and
// import, the real invite command's service, its email rendered as the worker renders it, and the retention job.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { NotFoundError } from '../src/errors.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { applyRetention, runRetention } from '../src/jobs/retention.js';
import { inviteMatch, respondToInvitation, rsvpAnswers } from '../src/rsvp/service.js';
import { tempDir } from './support/db.js';
import { composeQueued, linkIn } from './support/mail.js';

const DAY = 24 * 3600_000;
const T0 = new Date('2026-11-21T12:00:00Z');
const KICKOFF = Date.parse('2026-12-13T10:00:00Z'); // the fixture's rs-m3
const afterKickoff = (days: number) => new Date(KICKOFF + days * DAY);

let dir: string;
let db: Database;
/** The small fixture, its match rs-m3 changed by `change`. */
const load = (change: (match: Record<string, unknown>) => void = () => {}) => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  change(f.organizations[0].leagues[0].events[0].matches[2]);
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
};
beforeEach(async () => {
  dir = tempDir('rsvp-retention-');
  db = await openDatabase(path.join(dir, 'app.db'));
  load();
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sam invited to rs-m3, the email sent (its row as if sent a day before `now`), and answered yes through its link. */
function invitedAndAnswered(now: Date): string {
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  const [sent] = composeQueued(db.store, { now: T0 });
  const token = new URL(linkIn(sent!.text, '/rsvp?token=')).searchParams.get('token')!;
  respondToInvitation(db.store, token, 'yes', T0);
  // A finished email of the invitation younger than the outbox's 30 days (a change told late): it goes with it.
  db.sqlite.prepare(`UPDATE email_outbox SET created_at = ?`).run(new Date(now.getTime() - DAY).toISOString());
  return token;
}

const count = (sql: string) => (db.sqlite.prepare(sql).get() as { n: number }).n;

it.each([
  ['played, 181 days after its kickoff', false, (m: Record<string, unknown>) => Object.assign(m, { status: 'completed', score: { home: 1, away: 0 } }), 181],
  ['played, 179 days after its kickoff', true, (m: Record<string, unknown>) => Object.assign(m, { status: 'completed', score: { home: 1, away: 0 } }), 179],
  ['kicked off without a result entered, 181 days after', false, () => {}, 181],
  ['cancelled, 181 days after the kickoff it had', false, (m: Record<string, unknown>) => Object.assign(m, { status: 'cancelled' }), 181],
  ['postponed, a year after its old kickoff (its answers wait for the new one)', true, (m: Record<string, unknown>) => Object.assign(m, { status: 'postponed' }), 365],
  ['still to come (moved two years ahead)', true, (m: Record<string, unknown>) => Object.assign(m, { kickoff: '2028-12-13T10:00:00Z' }), 365],
] as const)('an invitation to a match %s → kept: %s', (_name, kept, change, days) => {
  const now = afterKickoff(days);
  const token = invitedAndAnswered(now);
  load(change);
  const result = applyRetention(db.store, now);
  if (kept) {
    expect(result.invitations).toBe(0);
    expect(rsvpAnswers(db.store, 'rs-m3')!.map((r) => [r.member_id, r.email, r.answer])).toEqual([['rs-lions-1', 'sam.carter@example.org', 'yes']]);
    expect(count(`SELECT count(*) AS n FROM link_tokens WHERE purpose = 'rsvp'`)).toBe(1);
    expect(count(`SELECT count(*) AS n FROM email_outbox`)).toBe(1);
    return;
  }
  expect(result.invitations).toBe(1);
  // Nothing of it is left: the organizer's list is empty, its link opens nothing, its email is gone.
  expect(rsvpAnswers(db.store, 'rs-m3')).toEqual([]);
  expect(count(`SELECT count(*) AS n FROM rsvp_invitations`)).toBe(0);
  expect(count(`SELECT count(*) AS n FROM link_tokens WHERE purpose = 'rsvp'`)).toBe(0);
  expect(count(`SELECT count(*) AS n FROM email_outbox`)).toBe(0);
  expect(() => respondToInvitation(db.store, token, 'no', now)).toThrow(NotFoundError);
});

it('npm run retention says how many invitations it deleted', () => {
  invitedAndAnswered(afterKickoff(200));
  load((m) => Object.assign(m, { status: 'completed', score: { home: 1, away: 0 } }));
  expect(runRetention(db.store, afterKickoff(200))).toMatch(/ 1 RSVP invitations of matches over \(played, kicked off or cancelled\) more than 180 days ago, /);
});
