import { describe, expect, it } from 'vitest';
import { invitationOutOfMatch, invitationsOverFrom, rsvpState, undeliverableInvitations, type InvitationEmailOutcome, type MatchForState, type RsvpState } from './state.js';

const NOW = new Date('2026-12-13T10:00:00Z');
const match = (m: Partial<MatchForState>): MatchForState => ({ status: 'scheduled', event_status: 'in_progress', kickoff_at: '2026-12-13T10:00:01Z', ...m });

describe('rsvpState', () => {
  const cases: Array<[string, Partial<MatchForState>, RsvpState]> = [
    ['scheduled, kickoff ahead', {}, 'open'],
    ['scheduled, no kickoff set yet', { kickoff_at: null }, 'open'],
    ['scheduled, kickoff now', { kickoff_at: '2026-12-13T10:00:00Z' }, 'kicked_off'],
    ['scheduled, kickoff passed', { kickoff_at: '2026-12-12T10:00:00Z' }, 'kicked_off'],
    ['in progress', { status: 'in_progress' }, 'played'],
    ['completed', { status: 'completed', kickoff_at: '2026-12-12T10:00:00Z' }, 'played'],
    ['completed in a competition cancelled since', { status: 'completed', event_status: 'cancelled' }, 'played'],
    ['postponed (its old kickoff ahead)', { status: 'postponed' }, 'postponed'],
    ['postponed (its old kickoff passed)', { status: 'postponed', kickoff_at: '2026-12-12T10:00:00Z' }, 'postponed'],
    ['cancelled', { status: 'cancelled' }, 'cancelled'],
    ['scheduled in a cancelled competition', { event_status: 'cancelled' }, 'competition_cancelled'],
    ['postponed in a cancelled competition', { status: 'postponed', event_status: 'cancelled' }, 'competition_cancelled'],
  ];
  it.each(cases)('%s', (_name, m, state) => {
    expect(rsvpState(match(m), NOW)).toBe(state);
  });
});

describe('invitationsOverFrom', () => {
  const CHANGED = '2026-11-01T09:00:00.000Z';
  const cases: Array<[string, Partial<MatchForState>, string | null]> = [
    ['to come', {}, null],
    ['to come, no kickoff set yet', { kickoff_at: null }, null],
    ['postponed: its answers wait for the new kickoff', { status: 'postponed', kickoff_at: '2026-12-12T10:00:00Z' }, null],
    ['kicked off, no result entered', { kickoff_at: '2026-12-12T10:00:00Z' }, '2026-12-12T10:00:00Z'],
    ['completed', { status: 'completed', kickoff_at: '2026-12-12T10:00:00Z' }, '2026-12-12T10:00:00Z'],
    ['completed without a kickoff: its last change', { status: 'completed', kickoff_at: null }, CHANGED],
    ['cancelled: the kickoff it had', { status: 'cancelled', kickoff_at: '2027-01-10T10:00:00Z' }, '2027-01-10T10:00:00Z'],
    ['cancelled without a kickoff: its last change', { status: 'cancelled', kickoff_at: null }, CHANGED],
    ['its competition cancelled', { event_status: 'cancelled', kickoff_at: null }, CHANGED],
  ];
  it.each(cases)('%s', (_name, m, over) => {
    expect(invitationsOverFrom({ ...match(m), updated_at: CHANGED }, NOW)).toBe(over);
  });
});

describe('invitationOutOfMatch', () => {
  const cases: Array<[string, string, { home: string | null; away: string | null }, boolean]> = [
    ['the member plays for the home side', 'lions', { home: 'lions', away: 'rovers' }, false],
    ['the member plays for the away side', 'rovers', { home: 'lions', away: 'rovers' }, false],
    ['the member plays for neither (moved, or the slot has another team)', 'united', { home: 'lions', away: 'rovers' }, true],
    ['a side undecided: their team may yet play it', 'united', { home: 'lions', away: null }, false],
    ['both sides undecided', 'united', { home: null, away: null }, false],
  ];
  it.each(cases)('%s', (_name, team, sides, out) => {
    expect(invitationOutOfMatch(team, sides)).toBe(out);
  });
});

// The mail review: an invitation Postmark refused for good showed as invited, not answered.
describe('undeliverableInvitations: the latest email that reached the provider decides', () => {
  const cases: Array<[string, Array<[string, InvitationEmailOutcome]>, string[]]> = [
    ['no email yet', [], []],
    ['the invitation sent', [['a', 'sent']], []],
    ['the invitation refused', [['a', 'address_refused']], ['a']],
    ['sent, then a change refused (the address went inactive since)', [['a', 'sent'], ['a', 'address_refused']], ['a']],
    ['refused, then a change taken (the address reactivated)', [['a', 'address_refused'], ['a', 'sent']], []],
    ['refused, then a change waiting, cancelled or given up: still refused', [['a', 'address_refused'], ['a', 'other'], ['a', 'other']], ['a']],
    ['waiting or given up alone: nothing known of the address', [['a', 'other']], []],
    ['each invitation by its own emails', [['a', 'address_refused'], ['b', 'sent'], ['b', 'address_refused'], ['c', 'address_refused'], ['c', 'sent']], ['a', 'b']],
  ];
  it.each(cases)('%s', (_label, emails, expected) => {
    expect([...undeliverableInvitations(emails.map(([invitationId, outcome]) => ({ invitationId, outcome })))].sort()).toEqual(expected);
  });
});
