import { describe, expect, it } from 'vitest';
import { isAlert, matchChange, type SeenMatch } from './changes.js';

const base: SeenMatch = {
  label: 'Matchday 3', home: 'Rovers', away: 'Harbour', kickoff_at: '2026-12-05T15:00:00Z', venue: 'Park', status: 'scheduled',
  home_score: null, away_score: null, home_penalties: null, away_penalties: null, walkover: null, after_extra_time: false, winner: null, next_label: null,
};
const m = (patch: Partial<SeenMatch>): SeenMatch => ({ ...base, ...patch });

describe('matchChange', () => {
  it.each<[string, SeenMatch | undefined, SeenMatch, string | null]>([
    ['nothing changed', base, base, null],
    ['a new match', undefined, base, 'new_fixture'],
    ['a new match that is cancelled already', undefined, m({ status: 'cancelled' }), null],
    ['a result', base, m({ status: 'completed', home_score: 2, away_score: 1 }), 'result'],
    ['a corrected result', m({ status: 'completed', home_score: 2, away_score: 1 }), m({ status: 'completed', home_score: 2, away_score: 2 }), 'result'],
    ['the same result again', m({ status: 'completed', home_score: 2, away_score: 1 }), m({ status: 'completed', home_score: 2, away_score: 1 }), null],
    ['penalties added', m({ home_score: 1, away_score: 1 }), m({ home_score: 1, away_score: 1, home_penalties: 4, away_penalties: 3 }), 'result'],
    ['a walkover', base, m({ walkover: 'home', status: 'completed' }), 'result'],
    ['kick-off moved', base, m({ kickoff_at: '2026-12-06T15:00:00Z' }), 'moved'],
    ['venue moved', base, m({ venue: 'Other Park' }), 'moved'],
    ['postponed', base, m({ status: 'postponed' }), 'postponed'],
    ['postponed, date cleared', base, m({ status: 'postponed', kickoff_at: null }), 'postponed'],
    ['cancelled', base, m({ status: 'cancelled' }), 'cancelled'],
    ['rescheduled after a postponement', m({ status: 'postponed' }), m({ kickoff_at: '2026-12-20T15:00:00Z' }), 'rescheduled'],
    ['a cancelled match edited', m({ status: 'cancelled' }), m({ status: 'cancelled', venue: 'Else' }), null],
    ['a team decided by a feed', m({ home: 'Winner of Semi-final 1' }), m({ home: 'Rovers' }), null],
    ['in progress', base, m({ status: 'in_progress' }), null],
  ])('%s', (_label, before, after, kind) => {
    expect(matchChange(before, after)?.kind ?? null).toBe(kind);
  });
});

describe('isAlert', () => {
  const now = new Date('2026-12-04T12:00:00Z');
  it.each<[string, SeenMatch, SeenMatch, boolean]>([
    ['moved, playing tomorrow', base, m({ kickoff_at: '2026-12-05T18:00:00Z' }), true],
    ['moved from tomorrow to next month', base, m({ kickoff_at: '2027-01-05T18:00:00Z' }), true],
    ['moved next month', m({ kickoff_at: '2027-01-05T18:00:00Z' }), m({ kickoff_at: '2027-01-06T18:00:00Z' }), false],
    ['postponed, was tomorrow', base, m({ status: 'postponed' }), true],
    ['cancelled, was tomorrow', base, m({ status: 'cancelled' }), true],
    ['a result is never an alert', base, m({ status: 'completed', home_score: 1, away_score: 0 }), false],
    ['in the past', m({ kickoff_at: '2026-12-01T15:00:00Z' }), m({ kickoff_at: '2026-12-01T16:00:00Z' }), false],
  ])('%s', (_label, before, after, alert) => {
    const change = matchChange(before, after)!;
    expect(isAlert(change, now)).toBe(alert);
  });
});
