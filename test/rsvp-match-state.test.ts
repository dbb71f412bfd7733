// Invitations read a match as the calendar feed shows it, and name who sends them. Found by a reviewer trying the
// service as its users would:
// - a match of a cancelled competition (the feed: STATUS:CANCELLED) was invited ("6 invited (emails queued)") and
//   its answers taken (200): only the match's own status was looked at, never its competition's;
// - a postponed match (the feed: TENTATIVE, "Postponed: …") was invited with its old kickoff, its page showed that
//   kickoff with no notice, and answers were taken: players could turn up for a match not being played;
// - one person listed twice (in both teams, or twice in one) got two emails with two tokens and was counted twice
//   in `pending`;
// - the invitation ended "Sent on behalf of <the competition>" where every other email names the organization.
// Real SQLite with the real migrations, the real import, invite service and mail worker (file transport).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { ConflictError } from '../src/errors.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { CANCEL_REASONS } from '../src/mail/send-time.js';
import { createFileTransport } from '../src/mail/transports/file.js';
import { startMailWorker } from '../src/mail/worker.js';
import { invitationView, inviteMatch, respondToInvitation, rsvpSummary } from '../src/rsvp/service.js';
import { tempDir } from './support/db.js';
import { composeQueued, linkIn, readEmails } from './support/mail.js';

const T0 = new Date('2026-11-21T12:00:00Z'); // rs-m3 (Mill Lane United vs Riverside Lions) kicks off 2026-12-13
const SAM = 'sam.carter@example.org';

let dir: string;
let db: Database;
type Fixture = { organizations: { teams: { id: string; members?: { id: string; name: string; email?: string }[] }[]; leagues: { events: { status: string }[] }[] }[] };
const fixture = (): Fixture => JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
const load = (f: Fixture) => {
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
};
/** The organizer cancels the whole competition (the import file's event status), as the reviewer did. */
const cancelCompetition = () => {
  const f = fixture();
  f.organizations[0]!.leagues[0]!.events[0]!.status = 'cancelled';
  load(f);
};
const setMatch = (status: string, kickoff = '2026-12-13T10:00:00Z') =>
  db.sqlite.prepare(`UPDATE matches SET status = ?, kickoff_at = ? WHERE id = 'rs-m3'`).run(status, kickoff);

beforeEach(async () => {
  dir = tempDir('rsvp-match-state-');
  db = await openDatabase(path.join(dir, 'app.db'));
  load(fixture());
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const tokenOf = (text: string) => new URL(linkIn(text, '/rsvp?token=')).searchParams.get('token')!;
const summary = () => rsvpSummary(db.store, 'rs-m3').summary.summary;
/** Sam invited, the email rendered as the worker would, its token. */
const invitedToken = () => {
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  const [sent] = composeQueued(db.store, { now: T0 });
  return tokenOf(sent!.text);
};
/** What the mail worker sends of the outbox now, and what it recorded. */
async function send() {
  const worker = startMailWorker(db.store, createFileTransport({ dir: path.join(dir, 'mail') }), {
    from: 'C <no-reply@c.example>', baseUrl: 'https://c.example', intervalMs: 60_000, log: () => {},
  });
  await worker.drain();
  await worker.stop();
  return {
    mails: await readEmails(path.join(dir, 'mail')),
    rows: db.sqlite.prepare(`SELECT status, last_error FROM email_outbox ORDER BY id`).all(),
  };
}
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConflictError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('a match of a cancelled competition is a cancelled match', () => {
  it('invite refuses it, naming why, and queues nothing', () => {
    cancelCompetition();
    expect(refusal(() => inviteMatch(db.store, 'rs-m3', T0))).toBe('match rs-m3: its competition is cancelled; nobody was invited');
    expect(db.sqlite.prepare(`SELECT (SELECT count(*) FROM rsvp_invitations) + (SELECT count(*) FROM email_outbox) AS n`).get()).toEqual({ n: 0 });
  });

  it('an invitation made before cannot be answered (409), and its page says the competition is cancelled', () => {
    const token = invitedToken();
    respondToInvitation(db.store, token, 'yes', T0);
    cancelCompetition();
    expect(refusal(() => respondToInvitation(db.store, token, 'no', T0))).toBe('The competition of this match is cancelled: answers are closed.');
    expect(summary()).toEqual({ yes: 1, no: 0, maybe: 0, pending: 0 });
    expect(invitationView(db.store, token, T0)).toMatchObject({ closed: true, state: 'competition_cancelled', response: 'yes' });
  });

  it('an invitation still in the outbox when it was cancelled is not sent', async () => {
    expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
    cancelCompetition();
    const { mails, rows } = await send();
    expect(mails).toEqual([]);
    expect(rows).toEqual([{ status: 'failed', last_error: `cancelled at send time: ${CANCEL_REASONS.matchCancelled}` }]);
  });

  it('a completed match of a cancelled competition stays played, as in the feed', () => {
    cancelCompetition();
    setMatch('completed', '2026-11-01T10:00:00Z');
    expect(refusal(() => inviteMatch(db.store, 'rs-m3', T0))).toBe('match rs-m3: it was played on 2026-11-01; nobody was invited');
  });
});

describe('a postponed match', () => {
  it('is not invited until its new kickoff is set, and then is', () => {
    setMatch('postponed');
    expect(refusal(() => inviteMatch(db.store, 'rs-m3', T0)))
      .toBe('match rs-m3: it is postponed and has no new kickoff yet (invite again once it is rescheduled); nobody was invited');
    expect(db.sqlite.prepare(`SELECT count(*) AS n FROM email_outbox`).get()).toEqual({ n: 0 });
    setMatch('scheduled', '2027-01-17T10:00:00Z');
    expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  });

  it('an invitation made before shows it postponed, without its old kickoff, and takes answers again once rescheduled', () => {
    const token = invitedToken();
    setMatch('postponed');
    expect(refusal(() => respondToInvitation(db.store, token, 'yes', T0))).toBe('The match is postponed: answers reopen when its new kickoff is set.');
    expect(invitationView(db.store, token, T0)).toMatchObject({ closed: true, state: 'postponed' });
    // Its old kickoff passing changes nothing: it is still postponed, not "kicked off".
    expect(invitationView(db.store, token, new Date('2026-12-20T00:00:00Z'))).toMatchObject({ state: 'postponed' });
    setMatch('scheduled', '2027-01-17T10:00:00Z');
    expect(invitationView(db.store, token, T0)).toMatchObject({ closed: false, state: 'open', kickoffAt: '2027-01-17T10:00:00Z' });
    expect(respondToInvitation(db.store, token, 'yes', T0).summary).toEqual({ yes: 1, no: 0, maybe: 0, pending: 0 });
  });

  it('an invitation still in the outbox when it was postponed says so, and not the old kickoff', async () => {
    expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
    setMatch('postponed');
    const { mails, rows } = await send();
    expect(rows).toEqual([{ status: 'sent', last_error: null }]);
    const [mail] = mails;
    expect(mail!.subject).toBe('Sam Carter · Postponed: Mill Lane United vs Riverside Lions');
    expect(mail!.text).toContain('Kickoff: Postponed: new date to follow');
    expect(mail!.text).toContain('You can answer once it is:');
    expect(mail!.text).not.toMatch(/13 Dec|Dec 13|December/);
    expect(mail!.html).toContain('Postponed: new date to follow');
  });

  it('an invitation still in the outbox when the match moved shows the new kickoff', async () => {
    expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
    setMatch('scheduled', '2027-01-17T10:00:00Z');
    const [mail] = (await send()).mails;
    expect(mail!.subject).toMatch(/^Sam Carter, can you make it\? Mill Lane United vs Riverside Lions, .*17/);
    expect(mail!.text).not.toMatch(/13 Dec|Dec 13|December/);
  });
});

describe('one person listed twice is invited once', () => {
  const withMembers = (lions: { id: string; name: string; email?: string }[], united: { id: string; name: string; email?: string }[]) => {
    const f = fixture();
    f.organizations[0]!.teams.find((t) => t.id === 'rs-lions')!.members = lions;
    f.organizations[0]!.teams.find((t) => t.id === 'rs-united')!.members = united;
    load(f);
  };

  it('in both teams and twice in one, the address spelled in other cases: one email, one token, counted once', () => {
    withMembers(
      [{ id: 'rs-lions-1', name: 'Sam Carter', email: SAM }, { id: 'rs-lions-2', name: 'Sam  Carter', email: 'Sam.Carter@example.org' }],
      [{ id: 'rs-united-1', name: 'SAM CARTER', email: SAM }],
    );
    // As a row from before addresses were lower-cased on import would have it: case is no second mailbox.
    db.sqlite.prepare(`UPDATE team_members SET email = 'SAM.CARTER@EXAMPLE.ORG' WHERE id = 'rs-united-1'`).run();
    expect(inviteMatch(db.store, 'rs-m3', T0)).toEqual({
      matchId: 'rs-m3', invited: 1, readdressed: 0, alreadyInvited: 0, withoutEmail: 0, withoutEmailMembers: [], withdrawn: 0, refusedMembers: [], listedTwice: 2,
    });
    expect(db.sqlite.prepare(`SELECT to_address FROM email_outbox`).all()).toEqual([{ to_address: SAM }]);
    expect(summary()).toEqual({ yes: 0, no: 0, maybe: 0, pending: 1 });
    // Run again: the invitation stands, nobody is added.
    expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 0, alreadyInvited: 1, listedTwice: 2 });
    expect(summary()).toEqual({ yes: 0, no: 0, maybe: 0, pending: 1 });
  });

  it('two people sharing one address (a parent\'s, for two children) are each invited', () => {
    withMembers([{ id: 'rs-lions-1', name: 'Sam Carter', email: SAM }, { id: 'rs-lions-2', name: 'Maya Carter', email: SAM }], []);
    expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 2, listedTwice: 0 });
    expect(summary()).toEqual({ yes: 0, no: 0, maybe: 0, pending: 2 });
  });

  // An RSVP review: the parent's two invitations read alike in subject and preview ("Will you play? …"), only the
  // body's "Hello …" apart; the parent answered one and took the other for a duplicate. Each now starts with its name.
  it("the two invitations to one parent's address read apart: each child's name first in subject and preview", async () => {
    withMembers([{ id: 'rs-lions-1', name: 'Sam Carter', email: SAM }, { id: 'rs-lions-2', name: 'Maya Carter', email: SAM }], []);
    expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 2 });
    const { mails } = await send();
    const preview = (html: string) => /<div style="display:none;[^"]*">([^<]*)<\/div>/.exec(html)![1]!;
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Maya Carter, can you make it? Mill Lane United vs Riverside Lions, 13 Dec',
      'Sam Carter, can you make it? Mill Lane United vs Riverside Lions, 13 Dec',
    ]);
    expect(mails.map((m) => preview(m.html).split(' · ')[0]).sort()).toEqual(['Maya Carter', 'Sam Carter']);
  });
});

it('the invitation is sent on behalf of the organization, as every other email, not of the competition', async () => {
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  const [mail] = (await send()).mails;
  expect(mail!.text).toContain('Sent on behalf of Riverside Sunday League.');
  expect(mail!.text).not.toContain('Sent on behalf of Winter 2026');
  expect(mail!.html).toContain('Riverside Sunday League');
});

it('an invitation queued before the organization was recorded in it names the organization too', async () => {
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  const row = db.sqlite.prepare(`SELECT id, data_json FROM email_outbox`).get() as { id: number; data_json: string };
  const { organizationName: _dropped, ...older } = JSON.parse(row.data_json);
  db.sqlite.prepare(`UPDATE email_outbox SET data_json = ? WHERE id = ?`).run(JSON.stringify(older), row.id);
  const [mail] = (await send()).mails;
  expect(mail!.text).toContain('Sent on behalf of Riverside Sunday League.');
});
