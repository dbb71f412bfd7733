import { describe, expect, it } from 'vitest';
import { invitationOutOfMatch, rsvpState, type MatchForState, type RsvpState } from './state.js';

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
