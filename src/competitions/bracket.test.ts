import { describe, expect, it } from 'vitest';
import { computeBracket, decideMatch, decideTie, resolveTeams, type BracketSlot, type ResolvedMatch } from './bracket.js';
import { L, match, W, type Result, type SlotSpec } from '../../test/support/builders/matches.js';
import type { BracketRole } from '../vocabulary/enums.js';
import type { MatchFacts } from './types.js';

function bm(
  id: string,
  role: BracketRole,
  round: number,
  position: number,
  home: SlotSpec,
  away: SlotSpec,
  result: Result = {},
): MatchFacts {
  return match({ id, role, round, position, home, away, result });
}


/** One line per match: "id: home v away -> winner", with "?" for unknown. */
function lines(slots: BracketSlot[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < slots.length; i += 2) {
    const h = slots[i] as BracketSlot;
    const a = slots[i + 1] as BracketSlot;
    out.push(`${h.match_id}: ${h.team_id ?? '?'} v ${a.team_id ?? '?'} -> ${h.winner_team_id ?? '?'}`);
  }
  return out;
}

/** Four-team single elimination with a third-place match; results optional per match. */
function fourTeam(sf1: Result, sf2: Result, final: Result = {}, third: Result = {}): MatchFacts[] {
  return [
    bm('sf1', 'winners', 1, 1, 'a', 'b', sf1),
    bm('sf2', 'winners', 1, 2, 'c', 'd', sf2),
    bm('final', 'winners', 2, 1, W('sf1'), W('sf2'), final),
    bm('third', 'third_place', 2, 1, L('sf1'), L('sf2'), third),
  ];
}

/**
 * Four-team double elimination. wb1/wb2 seeded; wbf = winners final; lb1 = the two first-round
 * losers; lbf = loser of wbf against winner of lb1; gf = winners-bracket champion (home) against
 * losers-bracket champion (away); reset = winner and loser of gf.
 */
function doubleElim(gf: Result, reset: Result | null): MatchFacts[] {
  const ms = [
    bm('wb1', 'winners', 1, 1, 'a', 'b', { score: [2, 0] }),
    bm('wb2', 'winners', 1, 2, 'c', 'd', { score: [0, 1] }),
    bm('wbf', 'winners', 2, 1, W('wb1'), W('wb2'), { score: [3, 1] }),
    bm('lb1', 'losers', 1, 1, L('wb1'), L('wb2'), { score: [1, 0] }),
    bm('lbf', 'losers', 2, 1, L('wbf'), W('lb1'), { score: [2, 1] }),
    bm('gf', 'grand_final', 3, 1, W('wbf'), W('lbf'), gf),
  ];
  if (reset !== null) ms.push(bm('reset', 'grand_final_reset', 4, 1, W('gf'), L('gf'), reset));
  return ms;
}

interface Case {
  name: string;
  matches: MatchFacts[];
  expected: string[];
}

const cases: Case[] = [
  {
    name: 'nothing played: seeded slots known, fed slots null',
    matches: fourTeam({}, {}),
    expected: ['sf1: a v b -> ?', 'sf2: c v d -> ?', 'final: ? v ? -> ?', 'third: ? v ? -> ?'],
  },
  {
    name: 'one semi decided feeds its winner and its loser',
    matches: fourTeam({ score: [0, 2] }, {}),
    expected: ['sf1: a v b -> b', 'sf2: c v d -> ?', 'final: b v ? -> ?', 'third: a v ? -> ?'],
  },
  {
    name: 'full single elimination with third place',
    matches: fourTeam({ score: [3, 1] }, { score: [0, 1] }, { score: [1, 2] }, { score: [4, 4], pens: [5, 4] }),
    expected: ['sf1: a v b -> a', 'sf2: c v d -> d', 'final: a v d -> d', 'third: b v c -> b'],
  },
  {
    name: 'penalties decide a level match; level penalties or none leave it undecided',
    matches: [
      bm('p1', 'winners', 1, 1, 'a', 'b', { score: [1, 1], pens: [3, 4] }),
      bm('p2', 'winners', 1, 2, 'c', 'd', { score: [2, 2], pens: [5, 5] }),
      bm('p3', 'winners', 1, 3, 'e', 'f', { score: [0, 0] }),
      bm('p4', 'winners', 1, 4, 'g', 'h', { score: [2, 1], pens: [0, 5] }), // the score already decided it
    ],
    expected: ['p1: a v b -> b', 'p2: c v d -> ?', 'p3: e v f -> ?', 'p4: g v h -> g'],
  },
  {
    name: 'only a completed match is decided, whatever its score',
    matches: [
      bm('s1', 'winners', 1, 1, 'a', 'b', { score: [2, 0], status: 'in_progress' }),
      bm('s2', 'winners', 1, 2, 'c', 'd', { score: [2, 0], status: 'postponed' }),
      bm('s3', 'winners', 1, 3, 'e', 'f', { score: [2, 0], status: 'cancelled' }),
      bm('s4', 'winners', 1, 4, 'g', 'h', { status: 'completed' }),
    ],
    expected: ['s1: a v b -> ?', 's2: c v d -> ?', 's3: e v f -> ?', 's4: g v h -> ?'],
  },
  {
    name: 'walkover: the named side wins without (or against) a score, and feeds on',
    matches: [
      bm('w1', 'winners', 1, 1, 'a', 'b', { walkover: 'away' }),
      bm('w2', 'winners', 1, 2, 'c', 'd', { walkover: 'home', score: [0, 3] }),
      bm('w3', 'winners', 1, 3, 'e', 'f', { walkover: 'home', status: 'scheduled' }),
      bm('wf', 'winners', 2, 1, W('w1'), L('w2')),
    ],
    expected: ['w1: a v b -> b', 'w2: c v d -> c', 'w3: e v f -> ?', 'wf: b v d -> ?'],
  },
  {
    name: 'byes: the present team advances at once; the loser of a bye is nobody',
    matches: [
      bm('b1', 'winners', 1, 1, 'a', null),
      bm('b2', 'winners', 1, 2, null, 'b', { status: 'cancelled' }),
      bm('r2', 'winners', 2, 1, W('b1'), W('b2')),
      bm('cons', 'third_place', 2, 1, L('b1'), L('b2')),
    ],
    expected: ['b1: a v ? -> a', 'b2: ? v b -> b', 'r2: a v b -> ?', 'cons: ? v ? -> ?'],
  },
  {
    // The import takes a bye written as a two-legged tie (each leg with the same empty slot): it is a bye all the same.
    name: 'a bye in a two-legged round: the present team advances, as from a single match',
    matches: [
      { ...bm('t-1', 'winners', 1, 1, 'a', null), leg: 1 },
      { ...bm('t-2', 'winners', 1, 1, null, 'a'), leg: 2, first_leg_match_id: 't-1' },
      bm('f', 'winners', 2, 1, W('t-2'), 'b'),
    ],
    expected: ['t-1: a v ? -> a', 't-2: ? v a -> a', 'f: a v b -> ?'],
  },
  {
    name: 'a bye whose present slot is fed waits for its source',
    matches: [
      bm('q1', 'winners', 1, 1, 'a', 'b'),
      bm('q2', 'winners', 1, 2, 'c', 'd', { score: [0, 1] }),
      bm('bye1', 'winners', 2, 1, W('q1'), null),
      bm('bye2', 'winners', 2, 2, null, W('q2')),
    ],
    expected: ['q1: a v b -> ?', 'q2: c v d -> d', 'bye1: ? v ? -> ?', 'bye2: ? v d -> d'],
  },
  {
    name: 'two empty slots: nobody advances',
    matches: [bm('e1', 'winners', 1, 1, null, null, { status: 'completed' })],
    expected: ['e1: ? v ? -> ?'],
  },
  {
    name: 'double elimination, winners-bracket champion takes the grand final: reset not played',
    matches: doubleElim({ score: [2, 0] }, { status: 'cancelled' }),
    expected: [
      'wb1: a v b -> a',
      'wb2: c v d -> d',
      'wbf: a v d -> a',
      'lb1: b v c -> b',
      'lbf: d v b -> d',
      'gf: a v d -> a',
      // The reset reports its feeds as the data says, with no winner since it was never played.
      'reset: a v d -> ?',
    ],
  },
  {
    name: 'double elimination, losers-bracket champion takes the grand final: reset decides',
    matches: doubleElim({ score: [0, 1] }, { score: [1, 3] }),
    expected: [
      'wb1: a v b -> a',
      'wb2: c v d -> d',
      'wbf: a v d -> a',
      'lb1: b v c -> b',
      'lbf: d v b -> d',
      'gf: a v d -> d',
      'reset: d v a -> a',
    ],
  },
  {
    name: 'a feed cycle is undecided, and so is everything downstream of it',
    matches: [
      bm('x', 'winners', 1, 1, W('y'), 'a', { score: [1, 0] }),
      bm('y', 'winners', 1, 2, W('x'), 'b', { score: [1, 0] }),
      bm('self', 'winners', 1, 3, L('self'), null),
      bm('down', 'winners', 2, 1, W('x'), 'c', { score: [0, 1] }),
    ],
    expected: ['x: ? v a -> ?', 'y: ? v b -> ?', 'self: ? v ? -> ?', 'down: ? v c -> ?'],
  },
  {
    name: 'a feed from a match that does not exist stays null',
    matches: [bm('f', 'winners', 2, 1, W('nowhere'), 'a', { score: [0, 1] })],
    expected: ['f: ? v a -> ?'],
  },
  {
    name: 'order: role, then round, then position, then id, whatever the input order',
    matches: [
      bm('t', 'third_place', 1, 0, 'a', 'b'),
      bm('gr', 'grand_final_reset', 1, 0, 'a', 'b'),
      bm('g', 'grand_final', 1, 0, 'a', 'b'),
      bm('l2', 'losers', 2, 0, 'a', 'b'),
      bm('l1', 'losers', 1, 0, 'a', 'b'),
      bm('w2b', 'winners', 2, 1, 'a', 'b'),
      bm('w2a', 'winners', 2, 1, 'a', 'b'),
      bm('w10', 'winners', 1, 10, 'a', 'b'),
      bm('w9', 'winners', 1, 9, 'a', 'b'),
    ],
    expected: [
      'w9: a v b -> ?',
      'w10: a v b -> ?',
      'w2a: a v b -> ?',
      'w2b: a v b -> ?',
      'l1: a v b -> ?',
      'l2: a v b -> ?',
      'g: a v b -> ?',
      'gr: a v b -> ?',
      't: a v b -> ?',
    ],
  },
];

describe('computeBracket', () => {
  it.each(cases)('$name', ({ matches, expected }) => {
    expect(lines(computeBracket(matches))).toEqual(expected);
  });

  it.each(cases)('$name: independent of input order', ({ matches }) => {
    expect(computeBracket([...matches].reverse())).toEqual(computeBracket(matches));
  });

  it('gives every field of both slots: seeded home then fed away', () => {
    const slots = computeBracket([
      bm('sf', 'winners', 1, 1, 'a', 'b', { score: [1, 0] }),
      { ...bm('f', 'winners', 2, 1, 'c', W('sf'), { score: [1, 1], pens: [2, 4] }), kickoff_at: '2026-11-01T13:30:00Z', round_name: 'Final', after_extra_time: 1 },
    ]).filter((s) => s.match_id === 'f');
    const rest = { round_name: 'Final', walkover: false, after_extra_time: true };
    expect(slots).toEqual([
      { match_id: 'f', round_ordinal: 2, side: 'home', team_id: 'c', bracket_role: 'winners', source_match_id: null, source_outcome: null, status: 'completed', winner_team_id: 'a', kickoff_at: '2026-11-01T13:30:00Z', score: 1, penalties: 2, leg: null, first_leg_match_id: null, source_group: null, source_position: null, source_best_placed: null, source_slot: null, source_groups: null, ...rest },
      { match_id: 'f', round_ordinal: 2, side: 'away', team_id: 'a', bracket_role: 'winners', source_match_id: 'sf', source_outcome: 'winner', status: 'completed', winner_team_id: 'a', kickoff_at: '2026-11-01T13:30:00Z', score: 1, penalties: 4, leg: null, first_leg_match_id: null, source_group: null, source_position: null, source_best_placed: null, source_slot: null, source_groups: null, ...rest },
    ]);
  });

  it('gives a slot no score, penalties or kickoff until the match has them', () => {
    const slots = computeBracket([bm('sf', 'winners', 1, 1, 'a', 'b', { score: [1, 0] }), bm('f', 'winners', 2, 1, 'c', W('sf'))]);
    expect(slots.filter((s) => s.match_id === 'f').map((s) => [s.kickoff_at, s.score, s.penalties])).toEqual([[null, null, null], [null, null, null]]);
    expect(slots.filter((s) => s.match_id === 'sf').map((s) => [s.score, s.penalties])).toEqual([[1, null], [0, null]]);
  });

  it('leaves league and group matches out', () => {
    const group: MatchFacts = { ...bm('g1', 'winners', 1, 1, 'a', 'b'), bracket_role: null, group_name: 'Group A' };
    expect(computeBracket([group, bm('k', 'winners', 2, 1, 'a', 'b')]).map((s) => s.match_id)).toEqual(['k', 'k']);
  });

  // An API review's bracket widget had to invent round names and could not tell a walkover from a match to come.
  it('says a walkover on both slots, and a match without a round name gives null', () => {
    const w = { ...bm('s', 'winners', 1, 1, 'a', 'b'), status: 'completed' as const, walkover_winner: 'home' as const, round_name: null };
    expect(computeBracket([w]).map((s) => [s.round_name, s.walkover, s.after_extra_time, s.winner_team_id])).toEqual([[null, true, false, 'a'], [null, true, false, 'a']]);
  });

  it('a seeded slot reports no source outcome even if one is stored', () => {
    const m = { ...bm('s', 'winners', 1, 1, 'a', 'b'), home_source_outcome: 'winner' as const };
    expect(computeBracket([m])[0]?.source_outcome).toBeNull();
  });

  it('derives a fed team from its source, not from a stale team column', () => {
    const sf = bm('sf', 'winners', 1, 1, 'a', 'b', { score: [0, 1] });
    const f = { ...bm('f', 'winners', 2, 1, W('sf'), 'c'), home_team_id: 'a' };
    expect(computeBracket([sf, f])[2]?.team_id).toBe('b');
  });

  it('follows a chain of 20000 byes without exhausting the stack', () => {
    const ms = [bm('c0', 'winners', 1, 0, 'a', null)];
    for (let i = 1; i < 20_000; i++) ms.push(bm(`c${i}`, 'winners', i + 1, 0, W(`c${i - 1}`), null));
    ms.reverse(); // resolve from the far end first: the deepest walk
    expect(resolveTeams(ms).get('c19999')?.winner).toBe('a');
  });

  it('breaks a long feed cycle without hanging', () => {
    const n = 5_000;
    const ms = Array.from({ length: n }, (_, i) => bm(`k${i}`, 'winners', 1, i, W(`k${(i + 1) % n}`), null));
    const resolved = resolveTeams(ms);
    expect([...resolved.values()].every((r) => r.winner === null && r.home === null)).toBe(true);
  });
});

describe('resolveTeams', () => {
  it.each<[string, MatchFacts[], string, ResolvedMatch]>([
    [
      'final with both semis decided',
      fourTeam({ score: [3, 1] }, { score: [0, 1] }, { score: [1, 2] }),
      'final',
      { home: 'a', away: 'd', winner: 'd', loser: 'a' },
    ],
    ['third place before any semi', fourTeam({}, {}), 'third', { home: null, away: null, winner: null, loser: null }],
    ['a bye', [bm('b', 'winners', 1, 1, null, 'x')], 'b', { home: null, away: 'x', winner: 'x', loser: null }],
    // A tie is decided on its second leg: its first leg's winner feeds nothing.
    [
      'a first leg decides nothing on its own',
      [{ ...bm('t1', 'winners', 1, 1, 'b', 'a', { score: [2, 0] }), leg: 1 }, { ...bm('t2', 'winners', 1, 1, 'a', 'b'), leg: 2, first_leg_match_id: 't1' }],
      't1',
      { home: 'b', away: 'a', winner: null, loser: null },
    ],
    // A feed from a match the bracket does not have: nobody, whatever a stale team column says.
    [
      'a slot fed by a match not in the bracket',
      [{ ...bm('f', 'winners', 2, 1, W('gone'), 'c'), home_team_id: 'a' }],
      'f',
      { home: null, away: 'c', winner: null, loser: null },
    ],
    [
      'a league match is resolved from its columns',
      [{ ...bm('lg', 'winners', 1, 1, 'a', 'b', { score: [0, 0] }), bracket_role: null }],
      'lg',
      { home: 'a', away: 'b', winner: null, loser: null },
    ],
  ])('%s', (_name, matches, id, expected) => {
    expect(resolveTeams(matches).get(id)).toEqual(expected);
  });
});

// A two-legged tie on its second leg (README, two-legged ties): the aggregate, then away goals where the event says
// so, then the second leg's penalties; a walkover in the second leg decides it; nothing is decided until both legs
// are completed with their scores. \`a\` hosts the second leg (t2), \`b\` the first (t1).
describe('decideTie', () => {
  const first = (result: Result) => ({ ...bm('t1', 'winners', 1, 1, 'b', 'a', result), leg: 1 });
  const second = (result: Result) => ({ ...bm('t2', 'winners', 1, 1, 'a', 'b', result), leg: 2, first_leg_match_id: 't1' });
  const undecided = { winner: null, loser: null };
  it.each<[string, MatchFacts | undefined, MatchFacts, boolean, { winner: string | null; loser: string | null }]>([
    ['on aggregate', first({ score: [1, 0] }), second({ score: [2, 0] }), false, { winner: 'a', loser: 'b' }],
    ['level on aggregate, the first leg\'s visitor more away goals', first({ score: [1, 2] }), second({ score: [2, 1] }), true, { winner: 'a', loser: 'b' }],
    ['level on aggregate, the second leg\'s visitor more away goals', first({ score: [2, 1] }), second({ score: [3, 2] }), true, { winner: 'b', loser: 'a' }],
    ['level on aggregate without the away goals rule, no penalties', first({ score: [2, 1] }), second({ score: [3, 2] }), false, undecided],
    ['level, then the second leg\'s penalties', first({ score: [1, 1] }), second({ score: [1, 1], pens: [3, 4] }), true, { winner: 'b', loser: 'a' }],
    ['a walkover in the second leg', first({ score: [3, 0] }), second({ walkover: 'away' }), false, { winner: 'b', loser: 'a' }],
    ['the first leg under way', first({ score: [0, 3], status: 'in_progress' }), second({ score: [1, 0] }), false, undecided],
    ['the second leg under way', first({ score: [0, 0] }), second({ score: [2, 0], status: 'in_progress' }), false, undecided],
    ['the second leg completed without a score', first({ score: [0, 1] }), { ...second({}), status: 'completed' }, false, undecided],
    ['no first leg', undefined, second({ score: [2, 0] }), false, undecided],
  ])('%s', (_label, firstLeg, secondLeg, awayGoalsRule, expected) => {
    expect(decideTie(secondLeg, firstLeg, 'a', 'b', awayGoalsRule)).toEqual({ home: 'a', away: 'b', ...expected });
  });
});

describe('decideMatch', () => {
  // Penalties decide only with both sides' counts: one alone is no shoot-out.
  it.each<[string, Partial<MatchFacts>, string | null]>([
    ['level, both penalty counts', { home_penalties: 5, away_penalties: 4 }, 'a'],
    ['level, only the home count', { home_penalties: 5 }, null],
    ['level, only the away count', { away_penalties: 4 }, null],
  ])('%s', (_label, pens, winner) => {
    const m = { ...bm('m', 'winners', 1, 1, 'a', 'b', { score: [1, 1] }), home_penalties: null, away_penalties: null, ...pens };
    expect(decideMatch(m, 'a', 'b').winner).toBe(winner);
  });
});
