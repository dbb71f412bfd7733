// An organizer corrects a member's address after the invitations went out (a typo sent the link to a stranger,
// or the member moved): `npm run invite` run again invites the member at the new address, and the links that
// went to the old one stop working (they would let whoever holds them answer for the member). Before, the run
// counted the member as already invited: the new address never heard of the match, and the old link kept working.
// Real SQLite with the real migrations, the real import, invite service and mail worker (file transport).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { NotFoundError } from '../src/errors.js';
import { applyImport, parseImport } from '../src/import/load.js';
import { applyRetention } from '../src/jobs/retention.js';
import { CANCEL_REASONS } from '../src/mail/send-time.js';
import { createFileTransport } from '../src/mail/transports/file.js';
import { startMailWorker } from '../src/mail/worker.js';
import { inviteMatch, respondToInvitation, rsvpAnswers, rsvpSummary } from '../src/rsvp/service.js';
import { tempDir } from './support/db.js';
import { composeQueued, linkIn, readEmails } from './support/mail.js';

const T0 = new Date('2026-11-21T12:00:00Z');
const OLD = 'sam.carter@example.org'; // the fixture's Sam.Carter@example.org, as the import keeps it
const NEW = 'sam.carter@example.net';

let dir: string;
let db: Database;
/** The small fixture with the Lions' one member at `email` (the fixture's address when undefined, none when null). */
const load = (email?: string | null) => {
  const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
  const member = f.organizations[0].teams[0].members[0];
  if (email === null) delete member.email;
  else if (email !== undefined) member.email = email;
  const p = parseImport(JSON.stringify(f));
  if (!p.ok) throw new Error(JSON.stringify(p.problems));
  applyImport(db.sqlite, p.file);
};
beforeEach(async () => {
  dir = tempDir('rsvp-readdress-');
  db = await openDatabase(path.join(dir, 'app.db'));
  load();
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const tokenOf = (text: string) => new URL(linkIn(text, '/rsvp?token=')).searchParams.get('token')!;
const summary = () => rsvpSummary(db.store, 'rs-m3').summary.summary;

/** Invited at the fixture's address, the email sent, and answered yes through its link. */
function invitedAndAnswered(): string {
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1, readdressed: 0 });
  const [sent] = composeQueued(db.store, { now: T0 });
  expect(sent!.to).toBe(OLD);
  const token = tokenOf(sent!.text);
  respondToInvitation(db.store, token, 'yes', T0);
  expect(summary()).toEqual({ yes: 1, no: 0, maybe: 0, pending: 0 });
  return token;
}

it('a run after the address was corrected invites the new address, and the old link no longer answers', () => {
  const oldToken = invitedAndAnswered();
  load(NEW);
  expect(inviteMatch(db.store, 'rs-m3', T0)).toEqual({
    matchId: 'rs-m3', invited: 1, readdressed: 1, alreadyInvited: 0, withoutEmail: 0, withoutEmailMembers: [], withdrawn: 0, refusedMembers: [], listedTwice: 0,
  });
  expect(() => respondToInvitation(db.store, oldToken, 'no', T0)).toThrow(NotFoundError);
  // The answer came through a link the old address held: it is the new address's to give.
  expect(summary()).toEqual({ yes: 0, no: 0, maybe: 0, pending: 1 });
  const [sent] = composeQueued(db.store, { now: T0 });
  expect(sent!.to).toBe(NEW);
  respondToInvitation(db.store, tokenOf(sent!.text), 'maybe', T0);
  expect(summary()).toEqual({ yes: 0, no: 0, maybe: 1, pending: 0 });
  // And a third run is quiet again: nothing changed.
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 0, readdressed: 0, alreadyInvited: 1 });
});

it('the same address spelled in another case is the same member: nothing is sent again', () => {
  invitedAndAnswered();
  load('SAM.CARTER@Example.org');
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 0, readdressed: 0, alreadyInvited: 1 });
  expect(composeQueued(db.store, { now: T0 })).toEqual([]);
  expect(summary()).toEqual({ yes: 1, no: 0, maybe: 0, pending: 0 });
});

it('an address removed withdraws the invitation and its links', () => {
  const oldToken = invitedAndAnswered();
  load(null);
  // Until invite runs, the organizer's list shows the answer and why it will go (npm run rsvp).
  expect(rsvpAnswers(db.store, 'rs-m3')!.map((r) => [r.member_id, r.answer, r.state])).toEqual([['rs-lions-1', 'yes', 'address_removed']]);
  expect(inviteMatch(db.store, 'rs-m3', T0)).toEqual({
    matchId: 'rs-m3', invited: 0, readdressed: 0, alreadyInvited: 0, withoutEmail: 1, withdrawn: 1, refusedMembers: [], listedTwice: 0,
    withoutEmailMembers: [{ team_id: 'rs-lions', team_name: 'Riverside Lions', member_id: 'rs-lions-1', member_name: 'Sam Carter' }],
  });
  expect(rsvpAnswers(db.store, 'rs-m3')).toEqual([]);
  expect(() => respondToInvitation(db.store, oldToken, 'no', T0)).toThrow(NotFoundError);
  expect(summary()).toEqual({ yes: 0, no: 0, maybe: 0, pending: 0 });
  expect(db.sqlite.prepare(`SELECT count(*) AS n FROM link_tokens WHERE purpose = 'rsvp'`).get()).toEqual({ n: 0 });
});

it('an invitation to the old address still in the outbox is not sent; the new one is', async () => {
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1 });
  load(NEW);
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 1, readdressed: 1 });
  const log: string[] = [];
  const worker = startMailWorker(db.store, createFileTransport({ dir: path.join(dir, 'mail') }), {
    from: 'C <no-reply@c.example>', baseUrl: 'https://c.example', intervalMs: 60_000, log: (line) => log.push(line),
  });
  await worker.drain();
  await worker.stop();
  expect((await readEmails(path.join(dir, 'mail'))).map((m) => m.to)).toEqual([NEW]);
  expect(db.sqlite.prepare(`SELECT to_address, status, last_error FROM email_outbox ORDER BY id`).all()).toEqual([
    { to_address: OLD, status: 'failed', last_error: `cancelled at send time: ${CANCEL_REASONS.invitationWithdrawn}` },
    { to_address: NEW, status: 'sent', last_error: null },
  ]);
});

it('retention deletes the links of an invitation that is gone, and keeps those of the others', () => {
  const withMembers = (members: { id: string; name: string; email: string }[]) => {
    const f = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/import-small.json'), 'utf8'));
    f.organizations[0].teams[0].members = members;
    const p = parseImport(JSON.stringify(f));
    if (!p.ok) throw new Error(JSON.stringify(p.problems));
    applyImport(db.sqlite, p.file);
  };
  const sam = { id: 'rs-lions-1', name: 'Sam Carter', email: OLD };
  withMembers([sam, { id: 'rs-lions-2', name: 'Ali Haddad', email: 'ali@example.org' }]);
  expect(inviteMatch(db.store, 'rs-m3', T0)).toMatchObject({ invited: 2 });
  composeQueued(db.store, { now: T0 });
  const rsvpLinks = () => db.sqlite.prepare(`SELECT count(*) AS n FROM link_tokens WHERE purpose = 'rsvp'`).get();
  expect(rsvpLinks()).toEqual({ n: 2 });
  // The organizer takes Ali out of the team: the import deletes the member, and his invitation with him.
  withMembers([sam]);
  expect(applyRetention(db.store, T0).links).toBe(1);
  expect(rsvpLinks()).toEqual({ n: 1 });
  expect(summary()).toEqual({ yes: 0, no: 0, maybe: 0, pending: 1 });
});
