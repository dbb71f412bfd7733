// A result entered or corrected changes who plays a bracket match that members are already invited to. A season
// review found both sides left unsaid: the members whose team no longer plays it kept no invitation and were never
// told (one had said yes, and would have come), and the other side's members were never told whom they play now.
// Real SQLite with the real migrations, the real import (the organizer's way to enter and correct results), the
// invitation service and the mail worker; the .eml files read back with a MIME parser.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { applyImport, parseImport, type ImportCounts } from '../src/import/load.js';
import { importSummary } from '../src/import/summary.js';
import { CANCELLED_PREFIX } from '../src/mail/outbox.js';
import { CANCEL_REASONS } from '../src/mail/send-time.js';
import { createFileTransport } from '../src/mail/transports/file.js';
import { startMailWorker } from '../src/mail/worker.js';
import { inviteMatch, respondToInvitation, rsvpSummary } from '../src/rsvp/service.js';
import { tempDir } from './support/db.js';
import { linkIn, readEmails, type ReceivedEmail } from './support/mail.js';

// Years ahead: the mail worker sends at the wall clock, before every kickoff here.
const SEMI = '2036-05-02T14:00:00Z';
const NOW = new Date(Date.now() - 3600_000);

type Score = [number, number] | null;
/** The cup: two quarter-finals (A v B, C v D), their winners in the semi-final; each team one member with an address. */
function cup(qf1: Score, qf2: Score, contact?: string) {
  const quarter = (id: string, home: string, away: string, score: Score) => ({
    id, round: 1, home, away, kickoff: '2036-04-04T14:00:00Z',
    ...(score === null ? { status: 'scheduled' } : { status: 'completed', score: { home: score[0], away: score[1] } }),
  });
  return {
    organizations: [{
      id: 'fa', name: 'Fed FA', ...(contact ? { contact_email: contact } : {}),
      teams: ['a', 'b', 'c', 'd'].map((t) => ({ id: t, name: `Team ${t.toUpperCase()}`, members: [{ id: `${t}-1`, name: `Player ${t.toUpperCase()}`, email: `${t}@example.org` }] })),
      leagues: [{ id: 'cups', name: 'Cups', events: [{
        id: 'cup', name: 'Spring Cup', type: 'knockout', status: 'in_progress', public: true,
        matches: [
          quarter('qf1', 'a', 'b', qf1),
          quarter('qf2', 'c', 'd', qf2),
          { id: 'sf', round: 2, home: { winner_of: 'qf1' }, away: { winner_of: 'qf2' }, kickoff: SEMI, venue: 'North Park', status: 'scheduled' },
        ],
      }] }],
    }],
  };
}

let dir: string;
let db: Database;
beforeEach(async () => {
  dir = tempDir('rsvp-new-teams-');
  db = await openDatabase(path.join(dir, 'app.db'));
  seen = 0;
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An import of `file` (the cup, or the cup as a test changed it), through the real parser and import. */
function importFile(file: ReturnType<typeof cup>, check = false): ImportCounts {
  const parsed = parseImport(JSON.stringify(file));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return applyImport(db.sqlite, parsed.file, { check });
}

function importCup(qf1: Score, qf2: Score, options: { check?: boolean; contact?: string } = {}): ImportCounts {
  return importFile(cup(qf1, qf2, options.contact), options.check);
}

let seen = 0;
/** What the mail worker sends of the outbox: the emails new since the last call. */
async function send(): Promise<ReceivedEmail[]> {
  const worker = startMailWorker(db.store, createFileTransport({ dir: path.join(dir, 'mail') }), {
    from: 'C <no-reply@c.example>', baseUrl: 'https://c.example', intervalMs: 60_000, log: () => {},
  });
  await worker.drain();
  await worker.stop();
  const all = await readEmails(path.join(dir, 'mail'));
  const fresh = all.slice(seen);
  seen = all.length;
  return fresh.sort((x, y) => (x.to < y.to ? -1 : 1));
}
const tokenOf = (text: string) => new URL(linkIn(text, '/rsvp?token=')).searchParams.get('token')!;
const outboxCount = () => db.sqlite.prepare(`SELECT count(*) FROM email_outbox`).pluck().get();

it('a corrected result: the side put out is told its invitation is withdrawn, the other side whom it plays now', async () => {
  importCup([2, 1], [1, 0], { contact: 'cup@fed.example' });
  expect(inviteMatch(db.store, 'sf', NOW)).toMatchObject({ invited: 2 });
  const invitations = await send();
  expect(invitations.map((e) => e.subject)).toEqual(['Player A, can you make it? Team A vs Team C, 2 May 2036', 'Player C, can you make it? Team A vs Team C, 2 May 2036']);
  respondToInvitation(db.store, tokenOf(invitations[0]!.text), 'yes', NOW);

  // Checked first: said, nothing queued.
  const before = outboxCount();
  const checked = importCup([1, 2], [1, 0], { check: true, contact: 'cup@fed.example' });
  expect(importSummary('cup.json', checked, { check: true })).toEqual(expect.arrayContaining([
    'member "a-1" (Player A, of Team A) is in neither team of match "sf": their RSVP invitation (1 answered: no longer counted) would be withdrawn, and they would be told so by email',
    'match "sf" would be Team B v Team C (was Team A v Team C): 1 invited member would be told by email whom they play; the players of Team B would not be invited (npm run invite -- --match sf)',
  ]));
  expect(outboxCount()).toBe(before);

  const counts = importCup([1, 2], [1, 0], { contact: 'cup@fed.example' });
  expect(counts.outOfMatchMembers).toEqual([{ member: 'a-1', name: 'Player A', team: 'Team A', moved: false, matches: ['sf'], answers: 1, told: 1 }]);
  expect(counts.newTeams).toEqual([{ match: 'sf', home: 'Team B', away: 'Team C', before: { home: 'Team A', away: 'Team C' }, told: 1, uninvited: ['Team B'] }]);
  const [withdrawn, opponent, ...more] = await send();
  expect(more).toEqual([]);

  expect(withdrawn!.to).toBe('a@example.org');
  expect(withdrawn!.subject).toBe('Player A · Invitation withdrawn: Team A vs Team C, 2 May 2036');
  expect(withdrawn!.text).toContain('Team A no longer plays in Team A vs Team C (the fixtures have changed), so Fed FA has withdrawn your invitation to it.');
  expect(withdrawn!.text).toContain('Your answer (Yes) no longer counts, and you are not expected at this match.');
  expect(withdrawn!.text).toContain('Kickoff: Friday 2 May 2036, 14:00 UTC');
  expect(withdrawn!.text).toContain('If this is a mistake, reply to this email or write to cup@fed.example.');
  expect(withdrawn!.headers['reply-to']).toBe('cup@fed.example');
  expect(withdrawn!.text).not.toContain('/rsvp?token=');

  expect(opponent!.to).toBe('c@example.org');
  expect(opponent!.subject).toBe('Player C · New opponent: Team B vs Team C, 2 May 2036');
  expect(opponent!.text).toContain('Your opponent has changed: Team B instead of Team A.');
  expect(opponent!.text).toContain('Match: Team B vs Team C (was Team A vs Team C)');
  expect(opponent!.text).toContain('You have not answered yet.');
  // The link still answers for the member: the invitation stands.
  respondToInvitation(db.store, tokenOf(opponent!.text), 'maybe', NOW);
  expect(rsvpSummary(db.store, 'sf').summary.summary).toEqual({ yes: 0, no: 0, maybe: 1, pending: 0 });

  // Told once: the same file again says and sends nothing.
  expect(importCup([1, 2], [1, 0], { contact: 'cup@fed.example' })).toMatchObject({ outOfMatchMembers: [], newTeams: [] });
  expect(await send()).toEqual([]);
  // The organizer invites the team now in the match.
  expect(inviteMatch(db.store, 'sf', NOW)).toMatchObject({ invited: 1 });
  expect((await send()).map((e) => e.subject)).toEqual(['Player B, can you make it? Team B vs Team C, 2 May 2036']);
});

it('a slot decided by a result: the members invited before it are told whom they play', async () => {
  importCup([2, 1], null);
  // One side known: its members invited. The other slot is named as the calendar names it, by the match that decides it
  // (the first round's matches are not named: "Round 1", numbered apart from its own digit).
  expect(inviteMatch(db.store, 'sf', NOW)).toMatchObject({ invited: 1 });
  expect((await send()).map((e) => e.subject)).toEqual(['Player A, can you make it? Team A vs Winner of Round 1 (2), 2 May 2036']);
  const counts = importCup([2, 1], [0, 3]);
  expect(counts.newTeams).toEqual([{ match: 'sf', home: 'Team A', away: 'Team D', before: { home: 'Team A', away: 'the winner of "qf2"' }, told: 1, uninvited: ['Team D'] }]);
  const [mail, ...more] = await send();
  expect(more).toEqual([]);
  expect(mail!.subject).toBe('Player A · Opponent confirmed: Team A vs Team D, 2 May 2036');
  expect(mail!.text).toContain('Your opponent has been confirmed: Team D.');
  // No contact address: nothing says to reply (a reply would reach nobody).
  expect(mail!.headers['reply-to']).toBeUndefined();
});

it('an invitation still waiting when the result changes: withdrawn unsent, its member told nothing; the other side shown the teams of then', async () => {
  importCup([2, 1], [1, 0]);
  inviteMatch(db.store, 'sf', NOW);
  const counts = importCup([1, 2], [1, 0]);
  // Nothing had reached anyone: nothing to undo, nothing to correct.
  expect(counts.outOfMatchMembers).toEqual([{ member: 'a-1', name: 'Player A', team: 'Team A', moved: false, matches: ['sf'], answers: 0, told: 0 }]);
  expect(counts.newTeams).toEqual([{ match: 'sf', home: 'Team B', away: 'Team C', before: { home: 'Team A', away: 'Team C' }, told: 0, uninvited: ['Team B'] }]);
  const sent = await send();
  // The invitation that waited names the teams as they are when it leaves.
  expect(sent.map((e) => [e.to, e.subject])).toEqual([['c@example.org', 'Player C, can you make it? Team B vs Team C, 2 May 2036']]);
  expect(db.sqlite.prepare(`SELECT status, last_error FROM email_outbox WHERE to_address = 'a@example.org'`).get())
    .toEqual({ status: 'failed', last_error: `${CANCELLED_PREFIX}${CANCEL_REASONS.invitationWithdrawn}` });
});

it('corrected back before the emails leave: the member invited again is not told of a withdrawal, the other side not of a new opponent', async () => {
  importCup([2, 1], [1, 0]);
  inviteMatch(db.store, 'sf', NOW);
  await send();
  importCup([1, 2], [1, 0]);
  importCup([2, 1], [1, 0]);
  // The organizer invites again: Player A is back.
  expect(inviteMatch(db.store, 'sf', NOW)).toMatchObject({ invited: 1 });
  const sent = await send();
  expect(sent.map((e) => [e.to, e.subject])).toEqual([['a@example.org', 'Player A, can you make it? Team A vs Team C, 2 May 2036']]);
  const cancelled = db.sqlite.prepare(`SELECT template, to_address AS "to", last_error AS why FROM email_outbox WHERE status = 'failed' ORDER BY id`).all();
  expect(cancelled).toEqual([
    { template: 'rsvp-withdrawn', to: 'a@example.org', why: `${CANCELLED_PREFIX}${CANCEL_REASONS.invitedAgain}` },
    { template: 'rsvp-change', to: 'c@example.org', why: `${CANCELLED_PREFIX}${CANCEL_REASONS.matchAsBefore}` },
  ]);
});

// A review: a result cleared put a slot back to "to be decided", and the players of the team that had held it were
// told their own team had been their opponent.
it('a result withdrawn: the other side is told its opponent is to be decided again, the side whose place it was told nothing', async () => {
  importCup([2, 1], [1, 0]);
  inviteMatch(db.store, 'sf', NOW);
  await send();
  const counts = importCup(null, [1, 0]);
  expect(counts.newTeams).toEqual([{ match: 'sf', home: 'the winner of "qf1"', away: 'Team C', before: { home: 'Team A', away: 'Team C' }, told: 1, uninvited: [] }]);
  const [mail, ...more] = await send();
  expect(more).toEqual([]);
  expect(mail!.to).toBe('c@example.org');
  expect(mail!.subject).toBe('Player C · Opponent no longer confirmed: Winner of Round 1 (1) vs Team C, 2 May 2036');
  expect(mail!.text).toContain('Your opponent is no longer confirmed (it was Team A); you will be told once it is.');
});

// A review: a correction undone while its emails waited (the server stopped) told players to stay away from a match
// their team played.
it('a correction undone before its emails leave, nobody invited again: no withdrawal told, no new opponent', async () => {
  importCup([2, 1], [1, 0]);
  inviteMatch(db.store, 'sf', NOW);
  await send();
  importCup([1, 2], [1, 0]);
  const back = importCup([2, 1], [1, 0]);
  // Team A back in the match, its invitation gone with the first import: the organizer is told to invite it.
  expect(back.newTeams).toEqual([{ match: 'sf', home: 'Team A', away: 'Team C', before: { home: 'Team B', away: 'Team C' }, told: 0, uninvited: ['Team A'] }]);
  expect(await send()).toEqual([]);
  const cancelled = db.sqlite.prepare(`SELECT template, to_address AS "to", last_error AS why FROM email_outbox WHERE status = 'failed' ORDER BY id`).all();
  expect(cancelled).toEqual([
    { template: 'rsvp-withdrawn', to: 'a@example.org', why: `${CANCELLED_PREFIX}${CANCEL_REASONS.teamPlaysAgain}` },
    { template: 'rsvp-change', to: 'c@example.org', why: `${CANCELLED_PREFIX}${CANCEL_REASONS.matchAsBefore}` },
  ]);
});

// A review: a player moved to another team read that his old team, which still played, no longer did.
it('a member moved to another team: told they are in a team that does not play it', async () => {
  importCup([2, 1], [1, 0]);
  inviteMatch(db.store, 'sf', NOW);
  await send();
  const file = cup([2, 1], [1, 0]);
  const [a, , , d] = file.organizations[0]!.teams;
  d!.members.push(a!.members.pop()!);
  const counts = importFile(file);
  expect(counts.outOfMatchMembers).toEqual([{ member: 'a-1', name: 'Player A', team: 'Team D', moved: true, matches: ['sf'], answers: 0, told: 1 }]);
  expect(counts.newTeams).toEqual([]);
  expect(importSummary('cup.json', counts)).toContain(
    'member "a-1" (Player A, now of Team D) is in neither team of match "sf": their RSVP invitation is withdrawn, and they are told so by email',
  );
  const [mail, ...more] = await send();
  expect(more).toEqual([]);
  expect(mail!.text).toContain('You are now in Team D, which does not play in Team A vs Team C, so Fed FA has withdrawn your invitation to it.');
});

// A cup review: a semi-final removed from the file was named "to be decided v to be decided" in the summary, its
// invited players' team aside. Its slots are named as they stood before the import: a team, or what fed it.
it('a fed match removed: the summary names its sides as the bracket had them, a team or the match feeding it', () => {
  importCup([2, 1], null);
  expect(inviteMatch(db.store, 'sf', NOW)).toMatchObject({ invited: 1 });
  const file = cup([2, 1], null);
  file.organizations[0]!.leagues[0]!.events[0]!.matches.pop();
  const counts = importFile(file, true);
  expect(counts.removedMatches).toEqual([
    { match: 'sf', home: 'Team A', away: 'the winner of "qf2"', kickoff: 'Friday 2 May 2036, 14:00 UTC', result: null, invitations: 1 },
  ]);
  expect(importSummary('cup.json', counts, { check: true }).join('\n')).toContain('match "sf" (Team A v the winner of "qf2", Friday 2 May 2036, 14:00 UTC)');
});
