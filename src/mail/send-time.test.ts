// The send-time rules, table-driven: what a queued follower email may still say when it leaves.
import { describe, expect, it } from 'vitest';
import type { FollowStatus } from '../vocabulary/enums.js';
import { CANCEL_REASONS, competitionEventId, eventIdOfCalendarUrl, followConfirmAtSend, followUpdatesAtSend, isRegistrationAddress, readTold, registrationNoticeAtSend, registrationOverflowAtSend, registrationReceiptAtSend, rsvpChangeAtSend, rsvpInviteAtSend, rsvpWithdrawnAtSend, toldMatch, type InvitationFacts, type ToldMatch } from './send-time.js';

describe('eventIdOfCalendarUrl', () => {
  it.each([
    ['https://c.example/api/v0/calendar/rs-winter-2026', 'rs-winter-2026'],
    ['http://127.0.0.1:4321/api/v0/calendar/E_1', 'E_1'],
    ['https://c.example/competitions/api/v0/calendar/rs-cup-2026', 'rs-cup-2026'], // PUBLIC_BASE_URL with a path
    ['https://c.example/api/v0/calendar/rs-cup-2026/', undefined],
    ['https://c.example/api/v0/calendar/', undefined],
    ['https://c.example/api/v0/calendar/-starts-with-dash', undefined],
    ['https://c.example/api/v0/calendar/a%2Fb', undefined],
    ['https://c.example/api/v0/events/rs-cup-2026/standings', undefined],
    ['https://c.example/x?u=/api/v0/calendar/rs-cup-2026', undefined],
    ['not a url', undefined],
    // An id may be as long as the import takes one (64 characters), and no longer.
    [`https://c.example/api/v0/calendar/${'e'.repeat(64)}`, 'e'.repeat(64)],
    [`https://c.example/api/v0/calendar/${'e'.repeat(65)}`, undefined],
  ])('%s → %s', (url, id) => {
    expect(eventIdOfCalendarUrl(url)).toBe(id);
  });
});

// The summary to a registration address past its day's cap counts what arrived since; the retention job (or the
// organization removed) may have left none, and "0 new registrations" is no news.
describe('registrationOverflowAtSend', () => {
  it.each([
    ['registrations still there', 3, { send: { count: 3 } }],
    ['none left', 0, { cancel: CANCEL_REASONS.noRegistrationsLeft }],
  ])('%s', (_label, count, outcome) => {
    expect(registrationOverflowAtSend({ count: 5 }, count)).toEqual(outcome);
  });
});

describe('competitionEventId', () => {
  it.each([
    ['the recorded id', { eventId: 'rs-cup-2026', calendarUrl: 'https://c.example/api/v0/calendar/rs-cup-2026' }, 'rs-cup-2026'],
    ['the recorded id, whatever the link', { eventId: 'rs-cup-2026', calendarUrl: 'https://c.example/elsewhere' }, 'rs-cup-2026'],
    ['a row queued before ids were recorded: the link', { calendarUrl: 'https://c.example/api/v0/calendar/rs-cup-2026' }, 'rs-cup-2026'],
    ['neither', { calendarUrl: 'https://c.example/elsewhere' }, undefined],
  ])('%s', (_name, entry, id) => {
    expect(competitionEventId(entry)).toBe(id);
  });
});

const competition = (id: string) => ({ name: `Competition ${id}`, calendarUrl: `https://c.example/api/v0/calendar/${id}`, changes: [{}] });
const digest = (...ids: string[]) => ({ followId: 'fol_1', competitions: ids.map(competition) });

describe('followUpdatesAtSend', () => {
  const cases: Array<[string, FollowStatus | undefined, string[], string[], string | null]> = [
    // name, follow status, public ids now, queued about, → sent about (or the cancel reason)
    ['all still public, active', 'active', ['a', 'b'], ['a', 'b'], null],
    ['one made private since', 'active', ['b'], ['a', 'b'], null],
    ['every one made private since', 'active', [], ['a', 'b'], CANCEL_REASONS.nothingPublic],
    ['unsubscribed since', 'unsubscribed', ['a'], ['a'], CANCEL_REASONS.followNotActive],
    ['pending again (unsubscribed, then asked again)', 'pending', ['a'], ['a'], CANCEL_REASONS.followNotActive],
    ['the follow is gone', undefined, ['a'], ['a'], CANCEL_REASONS.followNotActive],
    ['unsubscribed and private: not active comes first', 'unsubscribed', [], ['a'], CANCEL_REASONS.followNotActive],
  ];
  it.each(cases)('%s', (_name, followStatus, publicNow, queued, reason) => {
    const data = digest(...queued);
    const result = followUpdatesAtSend(data, { followStatus, isPublic: (id) => publicNow.includes(id) });
    if (reason !== null) {
      expect(result).toEqual({ cancel: reason });
      return;
    }
    expect('send' in result && result.send.competitions.map((c) => c.name)).toEqual(
      queued.filter((id) => publicNow.includes(id)).map((id) => `Competition ${id}`),
    );
    if ('send' in result) expect(result.send.followId).toBe('fol_1');
  });

  it('drops a competition whose calendar link names no readable id (never sent on a guess)', () => {
    const data = { followId: 'fol_1', competitions: [competition('a'), { ...competition('b'), calendarUrl: 'https://c.example/elsewhere' }] };
    const result = followUpdatesAtSend(data, { followStatus: 'active', isPublic: () => true });
    expect('send' in result && result.send.competitions.map((c) => c.name)).toEqual(['Competition a']);
  });

  it('returns the queued data itself when nothing is dropped', () => {
    const data = digest('a');
    expect(followUpdatesAtSend(data, { followStatus: 'active', isPublic: () => true })).toEqual({ send: data });
  });
});

describe('followConfirmAtSend', () => {
  const cases: Array<[string, FollowStatus | undefined, boolean | null, string | null]> = [
    // name, follow status, its league still public (null: an organization follow), → cancel reason or sent
    ['an organization follow waiting for it', 'pending', null, null],
    ['a league follow, league still public', 'pending', true, null],
    ['a league follow, every competition of its league made private', 'pending', false, CANCEL_REASONS.leagueNotPublic],
    ['confirmed since through an earlier email', 'active', null, CANCEL_REASONS.followNotPending],
    ['unsubscribed since', 'unsubscribed', true, CANCEL_REASONS.followNotPending],
    ['the follow is gone', undefined, null, CANCEL_REASONS.followNotPending],
  ];
  it.each(cases)('%s', (_name, followStatus, leagueIsPublic, reason) => {
    const data = { followId: 'fol_1' };
    expect(followConfirmAtSend(data, { followStatus, leagueIsPublic })).toEqual(reason === null ? { send: data } : { cancel: reason });
  });
});

describe('rsvpInviteAtSend', () => {
  const data = { invitationId: 'inv_1', homeName: 'Riverside', awayName: 'Old Mill', kickoffAt: '2026-12-13T10:00:00Z', venue: 'Pitch 2' };
  const teams = { homeId: 'riv', awayId: 'mill', homeName: 'Riverside', awayName: 'Old Mill' };
  const match = { matchIsPublic: true, state: 'open' as const, kickoffAt: '2026-12-13T10:00:00Z', venue: 'Pitch 2', organizationName: 'Riverside FA', addressCurrent: true, teams };
  const cases: Array<[string, Parameters<typeof rsvpInviteAtSend>[1]['invitation'], string | null]> = [
    ['an invitation of a public match is sent', match, null],
    ['one whose competition was made private is not', { ...match, matchIsPublic: false }, CANCEL_REASONS.matchNotPublic],
    ['one withdrawn since (its address changed or was removed) is not', undefined, CANCEL_REASONS.invitationWithdrawn],
    ["one whose member's address was corrected or removed since (invite not run again) is not", { ...match, addressCurrent: false }, CANCEL_REASONS.addressChanged],
    ['one whose match was cancelled since is not', { ...match, state: 'cancelled' }, CANCEL_REASONS.matchCancelled],
    ['one whose competition was cancelled since is not', { ...match, state: 'competition_cancelled' }, CANCEL_REASONS.matchCancelled],
    ['one whose match kicked off while it waited is not', { ...match, state: 'kicked_off' }, CANCEL_REASONS.matchStarted],
    ['one whose match was played while it waited is not', { ...match, state: 'played' }, CANCEL_REASONS.matchStarted],
  ];
  it.each(cases)('%s', (_name, invitation, reason) => {
    expect(rsvpInviteAtSend(data, { invitation })).toEqual(
      reason === null ? { send: { ...data, postponed: false, organizationName: 'Riverside FA' } } : { cancel: reason },
    );
  });

  it('shows the match as it is when the email leaves: postponed, moved, and the sender recorded when queued', () => {
    expect(rsvpInviteAtSend({ ...data, organizationName: 'As queued' }, { invitation: { ...match, state: 'postponed', kickoffAt: '2027-01-10T10:00:00Z', venue: null } }))
      .toEqual({ send: { ...data, organizationName: 'As queued', postponed: true, kickoffAt: '2027-01-10T10:00:00Z', venue: null } });
  });

  it('names the teams that play it when it leaves: a corrected result gave the slot another team while it waited', () => {
    const now = { ...teams, awayId: 'hill', awayName: 'Hillside' };
    expect(rsvpInviteAtSend(data, { invitation: { ...match, teams: now } }))
      .toEqual({ send: { ...data, awayName: 'Hillside', postponed: false, organizationName: 'Riverside FA' } });
  });
});

describe('rsvpChangeAtSend', () => {
  const before = { kickoffAt: '2026-12-13T10:00:00Z', venue: 'Pitch 2', postponed: false, cancelled: false };
  const data = { invitationId: 'inv_1', homeName: 'Riverside', awayName: 'Old Mill', before, state: 'open' as const, kickoffAt: '2026-12-12T15:00:00Z', venue: 'Pitch 2', response: null };
  const teams = { homeId: 'riv', awayId: 'mill', homeName: 'Riverside', awayName: 'Old Mill' };
  const hillside = { ...teams, awayId: 'hill', awayName: 'Hillside' };
  const told: ToldMatch = { state: 'open', kickoffAt: '2026-12-13T10:00:00Z', venue: 'Pitch 2', teams };
  const now: InvitationFacts = {
    matchIsPublic: true, state: 'open', kickoffAt: '2026-12-12T16:00:00Z', venue: null, venueOrCity: 'Pitch 2', organizationName: 'Riverside FA',
    response: 'yes', addressCurrent: true, told, teams,
  };
  /** Sent: the match now (`facts`), beside what the member was told (`was`). */
  const sent = (facts: Partial<InvitationFacts>, was: ToldMatch = told) => {
    const f = { ...now, ...facts };
    return {
      send: {
        ...data, before: { kickoffAt: was.kickoffAt, venue: was.venue, postponed: was.state === 'postponed', cancelled: was.state === 'cancelled' || was.state === 'competition_cancelled' },
        state: f.state as ToldMatch['state'], kickoffAt: f.kickoffAt, venue: f.venueOrCity, homeName: f.teams.homeName, awayName: f.teams.awayName, homeId: f.teams.homeId, awayId: f.teams.awayId, response: 'yes' as const,
      },
    };
  };
  const cases: Array<[string, InvitationFacts | undefined, ReturnType<typeof rsvpChangeAtSend>]> = [
    ['moved again since it was queued: the match as it is now, the answer as it is now', now, sent({})],
    ['postponed since', { ...now, state: 'postponed' }, sent({ state: 'postponed' })],
    ['cancelled since', { ...now, state: 'cancelled' }, sent({ state: 'cancelled' })],
    ['its competition cancelled since', { ...now, state: 'competition_cancelled' }, sent({ state: 'competition_cancelled' })],
    ['a new venue, the kickoff as told', { ...now, kickoffAt: told.kickoffAt, venueOrCity: 'Harbour Park' }, sent({ kickoffAt: told.kickoffAt, venueOrCity: 'Harbour Park' })],
    ['back to the kickoff and venue the member was told', { ...now, kickoffAt: told.kickoffAt }, { cancel: CANCEL_REASONS.matchAsBefore }],
    ['invited after the move: told the new kickoff already', { ...now, told: { ...told, kickoffAt: now.kickoffAt } }, { cancel: CANCEL_REASONS.matchAsBefore }],
    ['told it was postponed, still postponed', { ...now, state: 'postponed', told: { ...told, state: 'postponed' } }, { cancel: CANCEL_REASONS.matchAsBefore }],
    ['told it was postponed, back on at its old kickoff: news', { ...now, kickoffAt: told.kickoffAt, told: { ...told, state: 'postponed' } },
      sent({ kickoffAt: told.kickoffAt }, { ...told, state: 'postponed' })],
    ['told it was cancelled, its competition cancelled since', { ...now, state: 'competition_cancelled', told: { ...told, state: 'cancelled' } }, { cancel: CANCEL_REASONS.matchAsBefore }],
    // A review: a match put back on after its cancellation was told to nobody, and its players stayed home.
    ['told it was cancelled, back on at its old kickoff: news', { ...now, kickoffAt: told.kickoffAt, told: { ...told, state: 'cancelled' } },
      sent({ kickoffAt: told.kickoffAt }, { ...told, state: 'cancelled' })],
    ['kicked off while it waited', { ...now, state: 'kicked_off' }, { cancel: CANCEL_REASONS.matchStarted }],
    ['played while it waited', { ...now, state: 'played' }, { cancel: CANCEL_REASONS.matchStarted }],
    ["its member's address corrected or removed since", { ...now, addressCurrent: false }, { cancel: CANCEL_REASONS.addressChanged }],
    ['its competition made private since', { ...now, matchIsPublic: false }, { cancel: CANCEL_REASONS.matchNotPublic }],
    ['its invitation withdrawn since', undefined, { cancel: CANCEL_REASONS.invitationWithdrawn }],
    ['nothing told recorded (an invitation from before): compared with the change\'s before', { ...now, told: null }, sent({})],
    ['nothing told recorded, back where the change found it', { ...now, told: null, kickoffAt: before.kickoffAt }, { cancel: CANCEL_REASONS.matchAsBefore }],
    // A season review: a corrected result gave the member's opponent's slot another team, and nobody was told.
    ['another opponent, kickoff and venue as told: news, with the teams told', { ...now, kickoffAt: told.kickoffAt, teams: hillside },
      { send: { ...sent({ kickoffAt: told.kickoffAt, teams: hillside }).send, before: { ...sent({}).send.before, teams } } }],
    ['another opponent while postponed: news', { ...now, state: 'postponed', told: { ...told, state: 'postponed' }, teams: hillside },
      { send: { ...sent({ state: 'postponed', teams: hillside }, { ...told, state: 'postponed' }).send, before: { ...sent({}, { ...told, state: 'postponed' }).send.before, teams } } }],
    ['the opponent renamed, nothing else: no news (a team, not a name)', { ...now, kickoffAt: told.kickoffAt, teams: { ...teams, awayName: 'Old Mill Athletic' } }, { cancel: CANCEL_REASONS.matchAsBefore }],
    ['moved, the opponent renamed: the new name, no teams told', { ...now, teams: { ...teams, awayName: 'Old Mill Athletic' } }, sent({ teams: { ...teams, awayName: 'Old Mill Athletic' } })],
    ['told before teams were recorded, another opponent: no news of teams', { ...now, kickoffAt: told.kickoffAt, told: { state: 'open', kickoffAt: told.kickoffAt, venue: told.venue }, teams: hillside },
      { cancel: CANCEL_REASONS.matchAsBefore }],
    ['cancelled, told so, another team in the slot: as told', { ...now, state: 'cancelled', told: { ...told, state: 'cancelled' }, teams: hillside }, { cancel: CANCEL_REASONS.matchAsBefore }],
  ];
  it.each(cases)('%s', (_name, invitation, expected) => {
    expect(rsvpChangeAtSend(data, { invitation })).toEqual(expected);
  });

  it('nothing told recorded (an invitation from before): a change from cancelled is compared with its cancellation', () => {
    const back = { ...now, told: null, kickoffAt: before.kickoffAt };
    expect(rsvpChangeAtSend({ ...data, before: { ...before, cancelled: true } }, { invitation: back })).toEqual({
      send: { ...data, before: { ...before, cancelled: true }, state: 'open', kickoffAt: before.kickoffAt, venue: 'Pitch 2', homeName: 'Riverside', awayName: 'Old Mill', homeId: 'riv', awayId: 'mill', response: 'yes' },
    });
  });

  it.each([
    ['{"state":"postponed","kickoffAt":null,"venue":"Pitch 2"}', { state: 'postponed', kickoffAt: null, venue: 'Pitch 2' }],
    [null, null],
    ['not json', null],
    ['{"state":"played","kickoffAt":null,"venue":null}', null],
    ['{"kickoffAt":"2026-12-13T10:00:00Z"}', null],
    ['{"state":"open","kickoffAt":null,"venue":null,"teams":{"homeId":"riv","awayId":null,"homeName":"Riverside","awayName":"To be decided"}}',
      { state: 'open', kickoffAt: null, venue: null, teams: { homeId: 'riv', awayId: null, homeName: 'Riverside', awayName: 'To be decided' } }],
  ])('readTold(%s): what the member was told, or nothing', (json, told) => {
    expect(readTold(json)).toEqual(told);
  });

  it('toldMatch: what an email leaving now tells, who plays it too, nothing once the match kicked off', () => {
    expect(toldMatch(now)).toEqual({ state: 'open', kickoffAt: now.kickoffAt, venue: 'Pitch 2', teams });
    expect(toldMatch({ ...now, state: 'kicked_off' })).toBeNull();
  });
});

describe('rsvpWithdrawnAtSend', () => {
  const data = { memberId: 'a-1', matchId: 'sf' };
  const facts = { addressCurrent: true, invitedAgain: false, teamPlays: false, state: 'open' as const };
  const cases: Array<[string, Parameters<typeof rsvpWithdrawnAtSend>[1], string | null]> = [
    ['the match still to be played: sent', facts, null],
    ['postponed since: sent (they might still come on its new date)', { ...facts, state: 'postponed' }, null],
    ['the member removed, or their address changed, since', { ...facts, addressCurrent: false }, CANCEL_REASONS.memberReaddressed],
    ['invited to the match again (the organizer undid the change): the invitation says it all', { ...facts, invitedAgain: true }, CANCEL_REASONS.invitedAgain],
    ['their team back in the match, not invited again yet (a correction undone): not told to stay away', { ...facts, teamPlays: true }, CANCEL_REASONS.teamPlaysAgain],
    ['the match cancelled since: nobody comes', { ...facts, state: 'cancelled' }, CANCEL_REASONS.matchCancelled],
    ['its competition cancelled since', { ...facts, state: 'competition_cancelled' }, CANCEL_REASONS.matchCancelled],
    ['kicked off while it waited', { ...facts, state: 'kicked_off' }, CANCEL_REASONS.matchStarted],
    ['played while it waited', { ...facts, state: 'played' }, CANCEL_REASONS.matchStarted],
    ['the match removed since', { ...facts, state: undefined }, CANCEL_REASONS.matchRemoved],
  ];
  it.each(cases)('%s', (_name, f, reason) => {
    expect(rsvpWithdrawnAtSend(data, f)).toEqual(reason === null ? { send: data } : { cancel: reason });
  });
});

describe('isRegistrationAddress', () => {
  // A notice's address against the organization's registration_emails as the import keeps them now.
  it.each([
    ['the address as kept', 'tasjeel@club.example', ['coaches@club.example', 'tasjeel@club.example'], true],
    ['case (a row queued before addresses were lower-cased)', 'Tasjeel@Club.Example', ['tasjeel@club.example'], true],
    ['a name with it', 'Tasjeel <tasjeel@club.example>', ['tasjeel@club.example'], true],
    ['removed', 'coaches@club.example', ['tasjeel@club.example'], false],
    ['none left', 'tasjeel@club.example', [], false],
    ['Gmail without its dots: the same mailbox', 'club.tasjeel@gmail.com', ['clubtasjeel@gmail.com'], true],
    ['a +tag at Gmail: the same mailbox', 'tasjeel+reg@gmail.com', ['tasjeel@gmail.com'], true],
    ['a dot at Outlook: another person (mailboxOf would merge them)', 'john.smith@outlook.com', ['johnsmith@outlook.com'], false],
    ['a +tag elsewhere: maybe another mailbox', 'tasjeel+reg@club.example', ['tasjeel@club.example'], false],
    ['not an address', 'nobody', ['nobody'], false],
  ])('%s → %s', (_name, to, listed, expected) => {
    expect(isRegistrationAddress(to, listed)).toBe(expected);
  });
});

describe('registrationNoticeAtSend', () => {
  it.each([
    ['kept, address listed', { registrationKept: true, addressListed: true }, { send: { n: 1 } }],
    ['kept, address removed', { registrationKept: true, addressListed: false }, { cancel: CANCEL_REASONS.notRegistrationAddress }],
    ['gone, address listed', { registrationKept: false, addressListed: true }, { cancel: CANCEL_REASONS.registrationGone }],
    ['gone and address removed: gone comes first', { registrationKept: false, addressListed: false }, { cancel: CANCEL_REASONS.registrationGone }],
    ['a summary (no registration), address listed', { addressListed: true }, { send: { n: 1 } }],
    ['a summary (no registration), address removed', { addressListed: false }, { cancel: CANCEL_REASONS.notRegistrationAddress }],
  ])('%s', (_name, facts, expected) => {
    expect(registrationNoticeAtSend({ n: 1 }, facts)).toEqual(expected);
  });
});

describe('registrationReceiptAtSend', () => {
  it.each([
    [true, { send: { n: 1 } }],
    [false, { cancel: CANCEL_REASONS.registrationGone }],
  ])('registration kept: %s', (registrationKept, expected) => {
    expect(registrationReceiptAtSend({ n: 1 }, { registrationKept })).toEqual(expected);
  });
});
