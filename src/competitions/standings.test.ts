import { describe, expect, it } from 'vitest';
import { compareGroupNames, computeStandings, type StandingsRow } from './standings.js';
import { match } from '../../test/support/builders/matches.js';
import type { BracketRole } from '../vocabulary/enums.js';
import type { MatchFacts, PointsRule, TeamFacts } from './types.js';

const P310: PointsRule = { win: 3, draw: 1, loss: 0 };

let seq = 0;
/** A match between two teams; a score makes it completed unless a status says otherwise. */
function m(
  home: string,
  away: string,
  score: [number, number] | null,
  extra: Partial<MatchFacts> = {},
): MatchFacts {
  seq += 1;
  const result = score === null ? {} : { score };
  return { ...match({ id: `m${String(seq).padStart(4, '0')}`, role: null, round: 1, home, away, result }), ...extra };
}

/** Teams whose id is the lower-cased name unless given as "id=Name". */
function teamsOf(...specs: string[]): Map<string, TeamFacts> {
  return new Map(
    specs.map((s) => {
      const [id, name] = s.includes('=') ? (s.split('=') as [string, string]) : [s.toLowerCase(), s];
      return [id, { id, name, name_ar: null }];
    }),
  );
}

/** "Name pts gd gf" per row: compact enough to read a whole table in one line. */
function summary(rows: StandingsRow[]): string[] {
  return rows.map(
    (r) =>
      `${r.group_name === null ? '' : `${r.group_name}/`}${r.rank}. ${r.club_name} ${r.points}p ${r.goals_for - r.goals_against}gd ${r.goals_for}gf`,
  );
}

interface Case {
  name: string;
  matches: MatchFacts[];
  teams: Map<string, TeamFacts>;
  points?: PointsRule;
  expected: string[];
}

// Four clubs whose order depends on the points rule: D W/D, A W/L, C D/D, B L/D.
const pointsFixture = [m('a', 'b', [1, 0]), m('c', 'd', [0, 0]), m('c', 'b', [1, 1]), m('a', 'd', [0, 2])];
const ABCD = teamsOf('A', 'B', 'C', 'D');

const cases: Case[] = [
  {
    name: 'empty event gives an empty table',
    matches: [],
    teams: new Map(),
    expected: [],
  },
  {
    name: 'points, then goal difference, then goals for',
    matches: [
      m('a', 'b', [3, 0]), // A +3
      m('c', 'd', [4, 2]), // C +2, 4 goals
      m('e', 'f', [2, 0]), // E +2, 2 goals
    ],
    teams: teamsOf('A', 'B', 'C', 'D', 'E', 'F'),
    expected: [
      '1. A 3p 3gd 3gf',
      '2. C 3p 2gd 4gf',
      '3. E 3p 2gd 2gf',
      '4. D 0p -2gd 2gf',
      '5. F 0p -2gd 0gf',
      '6. B 0p -3gd 0gf',
    ],
  },
  {
    name: 'default 3/1/0',
    matches: pointsFixture,
    teams: ABCD,
    expected: ['1. D 4p 2gd 2gf', '2. A 3p -1gd 1gf', '3. C 2p 0gd 1gf', '4. B 1p -1gd 1gf'],
  },
  {
    name: 'custom 2/1/0: a win is worth less, C passes A on goal difference',
    matches: pointsFixture,
    teams: ABCD,
    points: { win: 2, draw: 1, loss: 0 },
    expected: ['1. D 3p 2gd 2gf', '2. C 2p 0gd 1gf', '3. A 2p -1gd 1gf', '4. B 1p -1gd 1gf'],
  },
  {
    name: 'custom 3/0/0: draws are worthless',
    matches: pointsFixture,
    teams: ABCD,
    points: { win: 3, draw: 0, loss: 0 },
    expected: ['1. D 3p 2gd 2gf', '2. A 3p -1gd 1gf', '3. C 0p 0gd 1gf', '4. B 0p -1gd 1gf'],
  },
  {
    name: 'negative points for a loss',
    matches: pointsFixture,
    teams: ABCD,
    points: { win: 3, draw: 1, loss: -1 },
    expected: ['1. D 4p 2gd 2gf', '2. C 2p 0gd 1gf', '3. A 2p -1gd 1gf', '4. B 0p -1gd 1gf'],
  },
  {
    name: 'two-way head-to-head beats the name order',
    matches: [m('beta', 'alpha', [1, 0]), m('alpha', 'c', [2, 1]), m('beta', 'd', [1, 2])],
    teams: teamsOf('alpha=Alpha', 'beta=Beta', 'c=Cee', 'd=Dee'),
    expected: ['1. Dee 3p 1gd 2gf', '2. Beta 3p 0gd 2gf', '3. Alpha 3p 0gd 2gf', '4. Cee 0p -1gd 1gf'],
  },
  {
    name: 'three-way head-to-head decided on h2h goal difference',
    // Zed, Ant and Yak beat each other in a circle with different margins; Wolf evens out the overall table.
    matches: [
      m('zed', 'ant', [3, 0]),
      m('ant', 'yak', [1, 0]),
      m('yak', 'zed', [1, 0]),
      m('zed', 'wolf', [1, 0]),
      m('wolf', 'zed', [3, 0]),
      m('ant', 'wolf', [3, 0]),
      m('wolf', 'ant', [1, 0]),
      m('yak', 'wolf', [2, 1]),
      m('wolf', 'yak', [2, 1]),
    ],
    teams: teamsOf('Zed', 'Ant', 'Yak', 'Wolf'),
    expected: ['1. Wolf 9p 0gd 7gf', '2. Zed 6p 0gd 4gf', '3. Yak 6p 0gd 4gf', '4. Ant 6p 0gd 4gf'],
  },
  {
    name: 'three-way head-to-head on h2h goals for, then the remaining pair re-evaluated on their own match',
    // Mini-table of three: Zed and Ant 3p 0gd 2gf, Ace 3p 0gd 1gf. Among Zed and Ant alone, Zed won.
    matches: [
      m('zed', 'ant', [2, 1]),
      m('ant', 'ace', [1, 0]),
      m('ace', 'zed', [1, 0]),
      m('ace', 'wolf', [1, 1]),
      m('zed', 'wolf', [0, 0]),
      m('ant', 'wolf', [0, 0]),
    ],
    teams: teamsOf('Zed', 'Ant', 'Ace', 'Wolf'),
    expected: ['1. Zed 4p 0gd 2gf', '2. Ant 4p 0gd 2gf', '3. Ace 4p 0gd 2gf', '4. Wolf 3p 0gd 1gf'],
  },
  {
    name: 'h2h separates one club, the pair left tied is re-evaluated among just the two',
    // Mini-table of three: Zulu 3p 0gd 3gf on top; Mike and Kilo both 3p 0gd 2gf.
    // Mike beat Kilo, so Mike is second although Kilo comes first by name.
    matches: [
      m('zulu', 'mike', [2, 1]),
      m('kilo', 'zulu', [2, 1]),
      m('mike', 'kilo', [1, 0]),
      m('mike', 'whiskey', [1, 1]),
      m('kilo', 'whiskey', [1, 1]),
      m('zulu', 'whiskey', [0, 0]),
    ],
    teams: teamsOf('Zulu', 'Mike', 'Kilo', 'Whiskey'),
    expected: ['1. Zulu 4p 0gd 3gf', '2. Mike 4p 0gd 3gf', '3. Kilo 4p 0gd 3gf', '4. Whiskey 3p 0gd 2gf'],
  },
  {
    name: 'a perfect circle is not separated by h2h: name decides',
    matches: [m('c', 'b', [1, 0]), m('b', 'a', [1, 0]), m('a', 'c', [1, 0])],
    teams: teamsOf('c=Charlie', 'b=Bravo', 'a=Alpha'),
    expected: ['1. Alpha 3p 0gd 1gf', '2. Bravo 3p 0gd 1gf', '3. Charlie 3p 0gd 1gf'],
  },
  {
    name: 'name order is by code unit, not locale: "Zeta" < "ajax" < "Ålesund"',
    matches: [m('x', 'y', [1, 1]), m('y', 'z', [1, 1]), m('z', 'x', [1, 1])],
    teams: teamsOf('x=ajax', 'y=Ålesund', 'z=Zeta'),
    expected: ['1. Zeta 2p 0gd 2gf', '2. ajax 2p 0gd 2gf', '3. Ålesund 2p 0gd 2gf'],
  },
  {
    name: 'same name: the team id is the last tiebreak',
    matches: [m('u2', 'u1', [0, 0])],
    teams: teamsOf('u2=United', 'u1=United'),
    expected: ['1. United 1p 0gd 0gf', '2. United 1p 0gd 0gf'],
  },
  {
    name: 'only completed non-bracket matches with both scores count; fixtures still list their teams',
    matches: [
      m('a', 'b', [1, 0]),
      m('c', 'a', null), // scheduled: C appears with nothing played
      m('b', 'a', [5, 0], { status: 'in_progress' }),
      m('b', 'a', [5, 0], { status: 'postponed' }),
      m('b', 'a', [5, 0], { status: 'cancelled' }),
      m('b', 'a', null, { status: 'completed' }), // completed without a score
      m('b', 'a', [5, 0], { bracket_role: 'winners' as BracketRole }), // knockout tie between the same clubs
      m('k', 'a', [5, 0], { bracket_role: 'winners' as BracketRole }), // K only plays in the bracket
    ],
    teams: teamsOf('A', 'B', 'C', 'K'),
    expected: ['1. A 3p 1gd 1gf', '2. C 0p 0gd 0gf', '3. B 0p -1gd 0gf'],
  },
  {
    name: 'groups: one table per group, ranks restart, natural group order, bracket ignored',
    matches: [
      m('b1', 'b2', [0, 2], { group_name: 'Group B' }),
      m('a1', 'a2', [2, 0], { group_name: 'Group A' }),
      m('t1', 't2', [1, 1], { group_name: 'Group 10' }),
      m('s1', 's2', [1, 3], { group_name: 'Group 2' }),
      m('a1', 'b2', [0, 9], { bracket_role: 'winners' as BracketRole }),
    ],
    teams: teamsOf('a1=A1', 'a2=A2', 'b1=B1', 'b2=B2', 's1=S1', 's2=S2', 't1=T1', 't2=T2'),
    expected: [
      'Group 2/1. S2 3p 2gd 3gf',
      'Group 2/2. S1 0p -2gd 1gf',
      'Group 10/1. T1 1p 0gd 1gf',
      'Group 10/2. T2 1p 0gd 1gf',
      'Group A/1. A1 3p 2gd 2gf',
      'Group A/2. A2 0p -2gd 0gf',
      'Group B/1. B2 3p 2gd 2gf',
      'Group B/2. B1 0p -2gd 0gf',
    ],
  },
];

describe('computeStandings', () => {
  it.each(cases)('$name', ({ matches, teams, points, expected }) => {
    expect(summary(computeStandings(matches, teams, points ?? P310))).toEqual(expected);
  });

  it.each(cases)('$name: independent of the order of the matches', ({ matches, teams, points }) => {
    const forward = computeStandings(matches, teams, points ?? P310);
    const rotated = [...matches.slice(1), ...matches.slice(0, 1)].reverse();
    expect(computeStandings(rotated, teams, points ?? P310)).toEqual(forward);
  });

  it('fills every field of a row, ids and group included', () => {
    const rows = computeStandings(
      [m('a', 'b', [2, 1], { group_name: 'G' }), m('b', 'a', [1, 1], { group_name: 'G' })],
      teamsOf('A', 'B'),
      P310,
    );
    expect(rows).toEqual([
      { rank: 1, club_name: 'A', club_name_ar: null, played: 2, won: 1, drawn: 1, lost: 0, goals_for: 3, goals_against: 2, points: 4, away_goals_for: 1, away_won: 0, team_id: 'a', group_name: 'G', adjustment_points: null, awaiting_decision: false },
      { rank: 2, club_name: 'B', club_name_ar: null, played: 2, won: 0, drawn: 1, lost: 1, goals_for: 2, goals_against: 3, points: 1, away_goals_for: 1, away_won: 0, team_id: 'b', group_name: 'G', adjustment_points: null, awaiting_decision: false },
    ]);
  });

  it('the tiebreaks of the same-name case pick the id, not the input order', () => {
    const rows = computeStandings([m('u2', 'u1', [0, 0])], teamsOf('u2=United', 'u1=United'), P310);
    expect(rows.map((r) => r.team_id)).toEqual(['u1', 'u2']);
  });

  // A league fixture with an empty slot (a bye) is no meeting: its score counts for neither side.
  it('counts no result of a match with an empty slot', () => {
    const rows = computeStandings([m('a', 'b', [1, 0]), { ...m('a', 'b', [3, 0]), away_team_id: null }, { ...m('a', 'b', [0, 2]), home_team_id: null }], teamsOf('A', 'B'), P310);
    expect(summary(rows)).toEqual(['1. A 3p 1gd 1gf', '2. B 0p -1gd 0gf']);
  });

  it('falls back to the team id when a team is missing from the map', () => {
    const rows = computeStandings([m('ghost', 'a', [1, 0])], teamsOf('A'), P310);
    expect(rows.map((r) => r.club_name)).toEqual(['ghost', 'A']);
  });
});

describe('compareGroupNames', () => {
  it.each([
    [null, 'Group A', -1],
    ['Group A', null, 1],
    ['Group A', 'Group B', -1],
    ['Group 2', 'Group 10', -1],
    ['Group 10', 'Group 9', 1],
    ['Group 1', 'Group 01', 1],
    // Leading zeros are no value: 009 is nine.
    ['Group 009', 'Group 10', -1],
    // A label that is another's start comes first.
    ['Group A', 'Group A2', -1],
    ['Group A', 'Group A', 0],
    ['Group 99999999999999999999', 'Group 100000000000000000000', -1],
    // A review's twelve Arabic groups came out 1, 10, 11, 12, 2, …
    ['المجموعة ٢', 'المجموعة ١٠', -1],
    ['المجموعة ١٠', 'المجموعة ٩', 1],
    ['المجموعة ۱۱', 'المجموعة ١٠', 1],
  ] as const)('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareGroupNames(a, b))).toBe(sign);
  });
});
