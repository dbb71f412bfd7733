import { describe, expect, it } from 'vitest';
import { beatenPlayingOn, championName, tiesLeadingNowhere } from './champion.js';
import { resolveTeams } from './bracket.js';
import { L, match, W, type Result, type SlotSpec } from '../../test/support/builders/matches.js';
import type { BracketRole, CompetitionType, EventStatus } from '../vocabulary/enums.js';
import { DEFAULT_RULES } from './standings.js';
import { PRESETS } from './tiebreakers.js';
import type { TiebreakPreset } from '../vocabulary/enums.js';
import type { Decision, MatchFacts, PointsRule, TeamFacts } from './types.js';

function mk(
  id: string,
  role: BracketRole | null,
  round: number,
  home: SlotSpec,
  away: SlotSpec,
  result: Result = {},
  group: string | null = null,
): MatchFacts {
  return match({ id, role, round, home, away, result, group });
}


const TEAMS: Map<string, TeamFacts> = new Map(
  ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => [id, { id, name: `Club ${id.toUpperCase()}`, name_ar: null }]),
);

/** Semis a-b and c-d, then the final and the third-place match (given a higher round on purpose). */
function knockout(final: Result, sf1: Result = { score: [1, 0] }, sf2: Result = { score: [0, 1] }): MatchFacts[] {
  return [
    mk('sf1', 'winners', 1, 'a', 'b', sf1),
    mk('sf2', 'winners', 1, 'c', 'd', sf2),
    mk('final', 'winners', 2, W('sf1'), W('sf2'), final),
    mk('third', 'third_place', 3, L('sf1'), L('sf2'), { score: [5, 0] }),
  ];
}

/** Double elimination: GF home = winners-bracket champion a, GF away = losers-bracket champion d. */
function doubleElim(gf: Result, reset: Result | null): MatchFacts[] {
  const ms = [
    mk('wb1', 'winners', 1, 'a', 'b', { score: [2, 0] }),
    mk('wb2', 'winners', 1, 'c', 'd', { score: [0, 1] }),
    mk('wbf', 'winners', 2, W('wb1'), W('wb2'), { score: [3, 1] }),
    mk('lb1', 'losers', 1, L('wb1'), L('wb2'), { score: [0, 1] }),
    mk('lbf', 'losers', 2, L('wbf'), W('lb1'), { score: [2, 1] }),
    mk('gf', 'grand_final', 3, W('wbf'), W('lbf'), gf),
  ];
  if (reset !== null) ms.push(mk('reset', 'grand_final_reset', 4, W('gf'), L('gf'), reset));
  return ms;
}

/** Under 3/1/0: A 6p (0 gd), B 4p (+2), C 4p (-1), D 2p. With draws worth a win, all four have 4p. */
const season = [
  mk('l1', null, 1, 'a', 'b', { score: [1, 0] }),
  mk('l2', null, 1, 'c', 'a', { score: [2, 0] }),
  mk('l3', null, 2, 'b', 'c', { score: [3, 0] }),
  mk('l4', null, 2, 'a', 'd', { score: [1, 0] }),
  mk('l5', null, 3, 'c', 'd', { score: [0, 0] }),
  mk('l6', null, 3, 'b', 'd', { score: [0, 0] }),
];

/** Four quarter-finals played, each won by its home club (a, c, e, g go on). */
const quarterFinals = [
  mk('q1', 'winners', 1, 'a', 'b', { score: [1, 0] }), mk('q2', 'winners', 1, 'c', 'd', { score: [1, 0] }),
  mk('q3', 'winners', 1, 'e', 'f', { score: [1, 0] }), mk('q4', 'winners', 1, 'g', 'h', { score: [1, 0] }),
];

interface Case {
  name: string;
  type: CompetitionType;
  status?: EventStatus;
  points?: PointsRule;
  matches: MatchFacts[];
  expected: string | null;
}

const cases: Case[] = [
  { name: 'league completed: top of the table', type: 'league', status: 'completed', matches: season, expected: 'Club A' },
  { name: 'league in progress: no champion yet', type: 'league', status: 'in_progress', matches: season, expected: null },
  { name: 'league scheduled: no champion', type: 'league', status: 'scheduled', matches: season, expected: null },
  { name: 'league cancelled: no champion', type: 'league', status: 'cancelled', matches: season, expected: null },
  {
    // Everyone on 4 points: B's goal difference (+2) beats A's (0).
    name: 'league with custom points: the points rule picks the champion',
    type: 'league',
    status: 'completed',
    points: { win: 2, draw: 2, loss: 0 },
    matches: season,
    expected: 'Club B',
  },
  { name: 'league with no matches', type: 'league', status: 'completed', matches: [], expected: null },
  // Several tables (groups) in a league: each has its leader, and none of them is the competition's champion.
  {
    name: 'league of two groups: no champion',
    type: 'league',
    matches: [mk('g1', null, 1, 'a', 'b', { score: [1, 0] }, 'Group A'), mk('g2', null, 1, 'c', 'd', { score: [2, 0] }, 'Group B')],
    expected: null,
  },
  // A two-legged final: its first leg is half of the tie, not another final of the last round.
  {
    name: 'knockout: a two-legged final, decided on its second leg',
    type: 'knockout',
    matches: [
      mk('sf1', 'winners', 1, 'a', 'b', { score: [1, 0] }), mk('sf2', 'winners', 1, 'c', 'd', { score: [0, 1] }),
      { ...mk('f1', 'winners', 2, W('sf2'), W('sf1'), { score: [2, 0] }), leg: 1 },
      { ...mk('f2', 'winners', 2, W('sf1'), W('sf2'), { score: [1, 0] }), leg: 2, first_leg_match_id: 'f1' },
    ],
    expected: 'Club D',
  },
  // Data with two grand finals (a replayed one entered as a new match): the latest round decides.
  {
    name: 'double elimination: of two grand finals, the later one decides',
    type: 'knockout',
    matches: [...doubleElim({ score: [2, 1] }, null), mk('gf2', 'grand_final', 4, W('wbf'), W('lbf'), { score: [0, 3] })],
    expected: 'Club D',
  },
  // The legs of a tie are paired by first_leg, not by their place in the round (the import takes them in either order):
  // a grand final over two legs is decided on its second leg even when its first leg was given the later position.
  {
    name: 'double elimination: a two-legged grand final, its first leg at the later position, decided on its second leg',
    type: 'knockout',
    matches: [
      ...doubleElim({}, null).filter((m) => m.id !== 'gf'),
      { ...mk('gf1', 'grand_final', 3, W('lbf'), W('wbf'), { score: [2, 0] }), leg: 1, bracket_position: 1 },
      { ...mk('gf2', 'grand_final', 3, W('wbf'), W('lbf'), { score: [1, 0] }), leg: 2, first_leg_match_id: 'gf1' },
    ],
    expected: 'Club D',
  },
  { name: 'knockout: final decided on the score', type: 'knockout', matches: knockout({ score: [0, 2] }), expected: 'Club D' },
  {
    name: 'knockout: final decided on penalties',
    type: 'knockout',
    matches: knockout({ score: [3, 3], pens: [4, 2] }),
    expected: 'Club A',
  },
  { name: 'knockout: final by walkover', type: 'knockout', matches: knockout({ walkover: 'away' }), expected: 'Club D' },
  { name: 'knockout: final not played yet', type: 'knockout', matches: knockout({}), expected: null },
  {
    name: 'knockout: final level after penalties is not decided',
    type: 'knockout',
    matches: knockout({ score: [1, 1], pens: [3, 3] }),
    expected: null,
  },
  {
    name: 'knockout: a final with a missing finalist is not decided, whatever the score says',
    type: 'knockout',
    matches: knockout({ score: [1, 0] }, {}),
    expected: null,
  },
  {
    name: 'knockout: the last round still has two matches',
    type: 'knockout',
    matches: knockout({ score: [1, 0] }).filter((m) => m.id !== 'final'),
    expected: null,
  },
  {
    name: 'knockout: the event status does not matter once the final is decided',
    type: 'knockout',
    status: 'in_progress',
    matches: knockout({ score: [2, 1] }),
    expected: 'Club A',
  },
  { name: 'knockout with no matches', type: 'knockout', matches: [], expected: null },
  // A cup drawn round by round, entered as far as it is drawn (a review's cup named a semi-final's winner champion).
  {
    name: 'knockout drawn round by round: one semi-final of two entered, played',
    type: 'knockout',
    status: 'in_progress',
    matches: [
      ...quarterFinals,
      mk('s1', 'winners', 2, 'a', 'c', { score: [3, 0] }),
    ],
    expected: null,
  },
  {
    name: 'knockout drawn round by round: every round drawn with named teams, the final played',
    type: 'knockout',
    status: 'in_progress',
    matches: [
      ...quarterFinals,
      mk('s1', 'winners', 2, 'a', 'g', { score: [3, 0] }), mk('s2', 'winners', 2, 'e', W('q2'), { score: [0, 2] }),
      mk('f', 'winners', 3, 'a', 'c', { score: [0, 1] }),
    ],
    expected: 'Club C',
  },
  {
    name: 'knockout with named teams: a beaten team in the final leaves the champion undecided',
    type: 'knockout',
    status: 'in_progress',
    matches: [
      mk('s1', 'winners', 1, 'a', 'b', { score: [1, 0] }), mk('s2', 'winners', 1, 'c', 'd', { score: [1, 0] }),
      mk('f', 'winners', 2, 'a', 'd', { score: [0, 1] }),
    ],
    expected: null,
  },
  {
    name: 'hybrid: the bracket winner, not the best group team',
    type: 'hybrid',
    status: 'completed',
    matches: [
      mk('g1', null, 1, 'e', 'a', { score: [9, 0] }, 'Group A'),
      mk('g2', null, 1, 'f', 'b', { score: [9, 0] }, 'Group B'),
      mk('k1', 'winners', 2, 'a', 'b', { score: [0, 1] }),
    ],
    expected: 'Club B',
  },
  {
    name: 'hybrid: group stage only so far',
    type: 'hybrid',
    status: 'in_progress',
    matches: [mk('g1', null, 1, 'e', 'a', { score: [9, 0] }, 'Group A')],
    expected: null,
  },
  {
    name: 'double elimination: winners-bracket champion wins the grand final, reset cancelled',
    type: 'knockout',
    matches: doubleElim({ score: [2, 1] }, { status: 'cancelled' }),
    expected: 'Club A',
  },
  {
    name: 'double elimination: no reset match in the data',
    type: 'knockout',
    matches: doubleElim({ score: [2, 1] }, null),
    expected: 'Club A',
  },
  {
    name: 'double elimination: losers-bracket champion wins the grand final, reset still to play',
    type: 'knockout',
    matches: doubleElim({ score: [0, 1] }, {}),
    expected: null,
  },
  {
    name: 'double elimination: the reset is decided',
    type: 'knockout',
    matches: doubleElim({ score: [0, 1] }, { score: [2, 2], pens: [4, 3] }),
    expected: 'Club D',
  },
  {
    name: 'double elimination: the reset winner can be the grand-final loser',
    type: 'knockout',
    matches: doubleElim({ score: [0, 1] }, { score: [0, 1] }),
    expected: 'Club A',
  },
  {
    name: 'double elimination: grand final not played yet',
    type: 'knockout',
    matches: doubleElim({}, {}),
    expected: null,
  },
  {
    name: 'double elimination: the reset is still scheduled although not needed (organizer has not closed it)',
    type: 'knockout',
    matches: doubleElim({ score: [2, 1] }, {}),
    expected: null,
  },
];

describe('championName', () => {
  it.each(cases)('$name', ({ type, status, points, matches, expected }) => {
    const event = { competition_type: type, status: status ?? 'completed', points: points ?? { win: 3, draw: 1, loss: 0 } };
    expect(championName(event, matches, TEAMS)).toBe(expected);
  });
});

// B and A level at the top on everything the tables count: 4 points, +1, 1 goal, and 0-0 in their meeting (c is
// last). The name would put Club A first; a regulation with an off-pitch step (a play-off, lots) has not decided yet.
describe('a league title that only a decision can settle', () => {
  const level = [
    mk('t1', null, 1, 'a', 'b', { score: [0, 0] }),
    mk('t2', null, 2, 'a', 'c', { score: [1, 0] }),
    mk('t3', null, 3, 'b', 'c', { score: [1, 0] }),
  ];
  const playOff: Decision = { teams: ['a', 'b'], order: ['b', 'a'], reason: 'title play-off' };
  it.each<[string, TiebreakPreset, Decision[], string | null]>([
    ['premier_league, no play-off recorded: no champion', 'premier_league', [], null],
    ['premier_league, the play-off recorded: its winner', 'premier_league', [playOff], 'Club B'],
    ['fifa_world_cup, no lots recorded: no champion', 'fifa_world_cup', [], null],
    ['default: the name is its last rule, so Club A', 'default', [], 'Club A'],
  ])('%s', (_name, preset, decisions, expected) => {
    const event = {
      competition_type: 'league' as const,
      status: 'completed' as const,
      points: { win: 3, draw: 1, loss: 0 },
      rules: { ...DEFAULT_RULES, tiebreakers: PRESETS[preset], decisions },
    };
    expect(championName(event, level, TEAMS)).toBe(expected);
  });
});

// What the import tells an organizer of a cup entered round by round: the ties whose winners go nowhere yet.
describe('tiesLeadingNowhere', () => {
  const ids = (matches: MatchFacts[]) => tiesLeadingNowhere(matches, resolveTeams(matches)).map((m) => m.id);
  it.each<[string, MatchFacts[], string[]]>([
    ['a final fed by both semi-finals, none played yet', knockout({}, {}, {}), []],
    ['the quarter-finals, no semi-final drawn: every one of them', quarterFinals, ['q1', 'q2', 'q3', 'q4']],
    ['one semi-final of two drawn', [...quarterFinals, mk('s1', 'winners', 2, W('q1'), W('q2'))], ['q3', 'q4']],
    // A double elimination is decided by its grand final: winners-bracket ties not yet leading on are no unfinished draw.
    ['a double elimination, its winners final not drawn yet: none', [mk('wb1', 'winners', 1, 'a', 'b', { score: [2, 0] }), mk('wb2', 'winners', 1, 'c', 'd', { score: [0, 1] }), mk('gf', 'grand_final', 3, null, null)], []],
  ])('%s', (_label, matches, expected) => {
    expect(ids(matches)).toEqual(expected);
  });
});

describe('beatenPlayingOn', () => {
  const beaten = (matches: MatchFacts[]) => beatenPlayingOn(matches, resolveTeams(matches));
  it.each<[string, MatchFacts[], ReturnType<typeof beatenPlayingOn>]>([
    ['a round drawn with the winners named', [mk('q1', 'winners', 1, 'a', 'b', { score: [1, 0] }), mk('q2', 'winners', 1, 'c', 'd', { score: [1, 0] }), mk('s', 'winners', 2, 'a', 'c')], []],
    // A review's cup took a team beaten in round one into round two, unsaid.
    ['a beaten team named in the next round', [mk('q1', 'winners', 1, 'a', 'b', { score: [1, 0] }), mk('q2', 'winners', 1, 'c', 'd', { score: [1, 0] }), mk('s', 'winners', 2, 'a', 'd')],
      [{ team: 'd', beatenIn: 'q2', playsIn: 's' }]],
    ['fed by winner_of: never', knockout({}), []],
    ['a third-place match is not the winners bracket', knockout({ score: [1, 0] }), []],
    ['a match not played yet puts nobody out', [mk('q1', 'winners', 1, 'a', 'b'), mk('s', 'winners', 2, 'b', 'c')], []],
  ])('%s', (_name, matches, expected) => {
    expect(beaten(matches)).toEqual(expected);
  });
});
