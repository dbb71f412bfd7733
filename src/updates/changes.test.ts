import { describe, expect, it } from 'vitest';
import { adjustmentChanges, adjustmentsSeen, changeIn, isAlert, matchChange, netChanges, seenIn, withoutMootChanges, type ChangeNames, type SeenMatch } from './changes.js';

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
    // The walkover corrected to the other side: the other team goes through.
    ['a walkover given to the other side', m({ walkover: 'home', status: 'completed' }), m({ walkover: 'away', status: 'completed' }), 'result'],
    ['kick-off moved', base, m({ kickoff_at: '2026-12-06T15:00:00Z' }), 'moved'],
    ['venue moved', base, m({ venue: 'Other Park' }), 'moved'],
    ['postponed', base, m({ status: 'postponed' }), 'postponed'],
    ['postponed, date cleared', base, m({ status: 'postponed', kickoff_at: null }), 'postponed'],
    ['cancelled', base, m({ status: 'cancelled' }), 'cancelled'],
    ['rescheduled after a postponement', m({ status: 'postponed' }), m({ kickoff_at: '2026-12-20T15:00:00Z' }), 'rescheduled'],
    // A match dated for the first time (a cup's next round drawn) is given a date, not moved from "to be announced".
    ['dated for the first time', m({ kickoff_at: null, venue: 'Salisbury' }), m({ kickoff_at: '2026-10-21T18:45:00Z', venue: 'Cro Park' }), 'rescheduled'],
    ['its date taken away', base, m({ kickoff_at: null }), 'moved'],
    // Still to be dated, but its ground now known: a move of venue, not "New date" with no date.
    ['an undated match given its venue', m({ kickoff_at: null, venue: null }), m({ kickoff_at: null, venue: 'Cro Park' }), 'moved'],
    ['a played match\'s venue corrected', m({ status: 'completed', home_score: 2, away_score: 1 }), m({ status: 'completed', home_score: 2, away_score: 1, venue: 'Other Park' }), null],
    ['a played match\'s kickoff corrected', m({ status: 'completed', walkover: 'home' }), m({ status: 'completed', walkover: 'home', kickoff_at: '2026-12-05T14:00:00Z' }), null],
    ['a match under way with a score, resumed at another ground', m({ status: 'in_progress', home_score: 1, away_score: 0 }), m({ status: 'in_progress', home_score: 1, away_score: 0, venue: 'Other Park' }), 'moved'],
    ['a played match\'s kickoff corrected with its result', m({ status: 'completed', home_score: 2, away_score: 1 }), m({ status: 'completed', home_score: 1, away_score: 1, kickoff_at: '2026-12-05T14:00:00Z' }), 'result'],
    ['a cancelled match edited', m({ status: 'cancelled' }), m({ status: 'cancelled', venue: 'Else' }), null],
    ['a team decided by a feed', m({ home: 'Winner of Semi-final 1' }), m({ home: 'Rovers' }), null],
    ['in progress', base, m({ status: 'in_progress' }), null],
    // A review: both were told to nobody.
    ['back on after a cancellation, at its kickoff', m({ status: 'cancelled' }), base, 'reinstated'],
    ['back on after a cancellation, at another kickoff', m({ status: 'cancelled' }), m({ kickoff_at: '2026-12-20T15:00:00Z' }), 'reinstated'],
    ['cancelled, then postponed', m({ status: 'cancelled' }), m({ status: 'postponed' }), 'postponed'],
    ['cancelled, then played: the result', m({ status: 'cancelled' }), m({ status: 'completed', home_score: 1, away_score: 0 }), 'result'],
    ['a result withdrawn', m({ status: 'completed', home_score: 2, away_score: 1 }), base, 'result_withdrawn'],
    ['a walkover withdrawn', m({ status: 'completed', walkover: 'home' }), base, 'result_withdrawn'],
    ['a result withdrawn and the match cancelled: the cancellation', m({ status: 'completed', home_score: 2, away_score: 1 }), m({ status: 'cancelled' }), 'cancelled'],
    ['a result withdrawn and the match postponed: the postponement', m({ status: 'completed', home_score: 2, away_score: 1 }), m({ status: 'postponed' }), 'postponed'],
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
    ['back on tomorrow after a cancellation', m({ status: 'cancelled' }), base, true],
    ['a result is never an alert', base, m({ status: 'completed', home_score: 1, away_score: 0 }), false],
    ['in the past', m({ kickoff_at: '2026-12-01T15:00:00Z' }), m({ kickoff_at: '2026-12-01T16:00:00Z' }), false],
  ])('%s', (_label, before, after, alert) => {
    const change = matchChange(before, after)!;
    expect(isAlert(change, now)).toBe(alert);
  });
});

describe('netChanges', () => {
  const moved = (id: number, match: string | null, from: string, to: string) => ({
    id, match_id: match, kind: 'moved' as const, data: { before: m({ kickoff_at: from }), after: m({ kickoff_at: to }) },
  });
  const A = '2026-12-05T15:00:00Z';
  const B = '2026-12-06T19:00:00Z';
  const C = '2026-12-07T15:00:00Z';
  it.each<[string, ReturnType<typeof moved>[], Array<[number, string, string | null, string | null]>]>([
    ['one change each: as they are', [moved(1, 'x', A, B), moved(2, 'y', A, C)], [[1, 'moved', A, B], [2, 'moved', A, C]]],
    ['moved twice: once, from the first before to the last after, at the first place', [moved(1, 'x', A, B), moved(2, 'y', A, C), moved(3, 'x', B, C)], [[1, 'moved', A, C], [2, 'moved', A, C]]],
    ['moved and moved back: nothing', [moved(1, 'x', A, B), moved(2, 'x', B, A)], []],
    ['a competition\'s own news is kept', [{ id: 1, match_id: null, kind: 'new_competition' as const, data: { before: null, after: null } } as never, moved(2, 'x', A, B)], [[1, 'new_competition', null, null], [2, 'moved', A, B]]],
  ])('%s', (_label, changes, expected) => {
    expect(netChanges(changes).map((c) => [c.id, c.kind, c.data.before?.kickoff_at ?? null, c.data.after?.kickoff_at ?? null])).toEqual(expected);
  });

  it('a competition cancelled in the same email: its moves and fixtures are moot, its results and news are not', () => {
    const change = (id: number, event_id: string, match_id: string | null, kind: string) => ({ id, event_id, match_id, kind, data: { before: null, after: null } }) as never as Parameters<typeof withoutMootChanges>[0][number];
    const told = withoutMootChanges([
      change(1, 'cup', 'x', 'moved'), change(2, 'cup', 'y', 'result'), change(3, 'cup', null, 'competition_cancelled'),
      change(4, 'cup', 'z', 'new_fixture'), change(5, 'league', 'w', 'moved'), change(6, 'cup', null, 'champion'),
    ]);
    expect(told.map((c) => c.id)).toEqual([2, 3, 5, 6]);
  });

  // A review: a competition cancelled and put back on between two digests was told as cancelled.
  it.each<[string, string[], number[]]>([
    ['cancelled, then back on: neither (never told of the cancellation), its moves told', ['moved', 'competition_cancelled', 'competition_reinstated'], [1]],
    ['back on (its cancellation told before): said, its moves too', ['moved', 'competition_reinstated'], [1, 2]],
    ['back on, then cancelled again: the cancellation, its moves moot', ['competition_reinstated', 'moved', 'competition_cancelled'], [3]],
    ['cancelled, back on, cancelled: the last cancellation', ['competition_cancelled', 'competition_reinstated', 'competition_cancelled'], [3]],
  ])('%s', (_label, kinds, kept) => {
    const told = withoutMootChanges(kinds.map((kind, i) => ({
      id: i + 1, event_id: 'cup', match_id: kind.startsWith('competition_') ? null : 'x', kind, data: { before: null, after: null },
    }) as never as Parameters<typeof withoutMootChanges>[0][number]));
    expect(told.map((c) => c.id)).toEqual(kept);
  });

  it('postponed, then a result: the result; a new fixture then moved: a new fixture at its last kickoff', () => {
    const postponed = { id: 1, match_id: 'x', kind: 'postponed' as const, data: { before: m({}), after: m({ status: 'postponed' }) } };
    const played = { id: 2, match_id: 'x', kind: 'result' as const, data: { before: m({ status: 'postponed' }), after: m({ status: 'completed', home_score: 1, away_score: 0 }) } };
    expect(netChanges([postponed, played]).map((c) => c.kind)).toEqual(['result']);
    const added = { id: 1, match_id: 'x', kind: 'new_fixture' as const, data: { before: null, after: m({}) } };
    const movedOn = { id: 2, match_id: 'x', kind: 'moved' as const, data: { before: m({}), after: m({ kickoff_at: C }) } };
    expect(netChanges([added, movedOn]).map((c) => [c.kind, c.data.before, c.data.after?.kickoff_at])).toEqual([['new_fixture', null, C]]);
  });
});

describe('adjustmentChanges', () => {
  const seen = (...a: Array<[string, number, string]>) => adjustmentsSeen(a.map(([team, points, reason]) => ({ team, points, reason })));
  const name = (team: string) => team.toUpperCase();
  it.each([
    ['a deduction', seen(), seen(['lions', -3, 'Ineligible player']), [{ team: 'LIONS', before: 0, after: -3, reasons: ['Ineligible player'] }]],
    ['the same, listed in another order', seen(['b', 1, 'x'], ['a', -2, 'y']), seen(['a', -2, 'y'], ['b', 1, 'x']), []],
    ['a reason reworded alone: no news', seen(['a', -2, 'y']), seen(['a', -2, 'z']), []],
    ['a second deduction', seen(['a', -3, 'r']), seen(['a', -3, 'r'], ['a', -1, 's']), [{ team: 'A', before: -3, after: -4, reasons: ['r', 's'] }]],
    ['withdrawn', seen(['a', -3, 'r']), seen(), [{ team: 'A', before: -3, after: 0, reasons: [] }]],
    ['two teams, one changed', seen(['a', -2, 'r'], ['b', 3, 's']), seen(['a', -2, 'r'], ['b', 2, 's']), [{ team: 'B', before: 3, after: 2, reasons: ['s'] }]],
  ] as const)('%s', (_label, before, after, expected) => {
    expect(adjustmentChanges(before, after, name)).toEqual(expected);
  });

  it('names each team in the organization\'s other language too, when asked', () => {
    expect(adjustmentChanges(seen(['a', -2, 'r'], ['b', 3, 's']), seen(['a', -2, 'r'], ['b', 2, 's']), name, (team) => ({ language: 'ar', name: `${team}ـ` }))).toEqual([
      { team: 'B', team_other: { language: 'ar', name: 'bـ' }, before: 3, after: 2, reasons: ['s'] },
    ]);
  });
});

describe('a change in the language its reader asked for', () => {
  // An Arabic club's match, its names in English kept beside the Arabic.
  const arabic = m({
    label: 'نصف النهائي', home: 'نادي السلط', away: 'نادي الزرقاء', winner: 'نادي السلط', next_label: 'النهائي',
    other: { language: 'en', label: 'Semi-final', home: 'Al-Salt', away: 'Zarqa', winner: 'Al-Salt', next_label: 'Final' },
  });
  const { other: _, ...inArabic } = arabic;
  const inEnglish = { ...inArabic, label: 'Semi-final', home: 'Al-Salt', away: 'Zarqa', winner: 'Al-Salt', next_label: 'Final' };
  it.each<[string, SeenMatch, 'en' | 'ar', SeenMatch]>([
    ['the other language asked: its names', arabic, 'en', inEnglish],
    ['the organization\'s language: its own names, the other dropped', arabic, 'ar', inArabic],
    // Seen before the other names were kept: the organization's, whatever was asked.
    ['no other names kept', inArabic, 'en', inArabic],
    ['other names kept in a language not asked: the organization\'s', m({ other: { language: 'ar', label: 'x', home: 'y', away: 'z', winner: null, next_label: null } }), 'en', base],
  ])('%s', (_name, state, language, expected) => {
    expect(seenIn(state, language)).toEqual(expected);
  });

  it.each<[string, ChangeNames, 'en' | 'ar', object]>([
    ['a match line: before and after', { before: arabic, after: arabic }, 'en', { before: inEnglish, after: inEnglish }],
    ['a new fixture: nothing before', { before: null, after: arabic }, 'en', { before: null, after: inEnglish }],
    // Its before seen without other names (before they were kept): the line in the organization's language whole, not
    // "Al-Salt vs Zarqa (was walkover: نادي السلط)".
    ['a line whose before kept no other names', { before: inArabic, after: arabic }, 'en', { before: inArabic, after: inArabic }],
    ['a line whose after kept no other names', { before: arabic, after: inArabic }, 'en', { before: inArabic, after: inArabic }],
    ['a champion', { before: null, after: null, champion: 'نادي السلط', champion_other: { language: 'en', name: 'Al-Salt' } }, 'en', { before: null, after: null, champion: 'Al-Salt' }],
    ['a champion, in the organization\'s language', { before: null, after: null, champion: 'نادي السلط', champion_other: { language: 'en', name: 'Al-Salt' } }, 'ar', { before: null, after: null, champion: 'نادي السلط' }],
    ['a champion recorded before: its one name', { before: null, after: null, champion: 'نادي السلط' }, 'en', { before: null, after: null, champion: 'نادي السلط' }],
    ['no champion', { before: null, after: null, champion: null, champion_other: { language: 'en', name: 'x' } }, 'en', { before: null, after: null, champion: null }],
    [
      'a points adjustment',
      { before: null, after: null, adjustment: { team: 'نادي السلط', team_other: { language: 'en', name: 'Al-Salt' }, before: 0, after: -3, reasons: [] } },
      'en',
      { before: null, after: null, adjustment: { team: 'Al-Salt', before: 0, after: -3, reasons: [] } },
    ],
    [
      'a points adjustment, in the organization\'s language',
      { before: null, after: null, adjustment: { team: 'نادي السلط', team_other: { language: 'en', name: 'Al-Salt' }, before: 0, after: -3, reasons: [] } },
      'ar',
      { before: null, after: null, adjustment: { team: 'نادي السلط', before: 0, after: -3, reasons: [] } },
    ],
  ])('%s', (_name, data, language, expected) => {
    expect(changeIn(data, language)).toEqual(expected);
  });

  it('keeps what names nothing (a new competition\'s count) as it is', () => {
    expect(changeIn({ before: null, after: null, matches: 12, next_kickoff: null } as ChangeNames, 'en')).toEqual({ before: null, after: null, matches: 12, next_kickoff: null });
  });
});
