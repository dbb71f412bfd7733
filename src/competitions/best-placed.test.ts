// The best-placed teams of several groups: ranking across groups, the allocation table, when a slot's team is known.
import { describe, expect, it } from 'vitest';
import { match } from '../../test/support/builders/matches.js';
import { allocationRow, bestPlacedSlots, DEFAULT_BEST_PLACED_RANKING, rankAcrossGroups, slotCandidateGroups, type Candidate } from './best-placed.js';
import { computeBracket } from './bracket.js';
import { championName } from './champion.js';
import { bracketContext } from './group-feeds.js';
import { DEFAULT_RULES, type StandingsRow } from './standings.js';
import type { Tally } from './tiebreakers.js';
import type { AllocationRow, BestPlacedRule, Decision, EventFacts, MatchFacts, TeamFacts } from './types.js';
import type { TiebreakCriterion } from '../vocabulary/enums.js';

/** A record: points, goal difference, goals scored, wins. */
const tally = (points: number, gd: number, gf: number, won: number): Tally => ({
  played: 3, won, drawn: 0, lost: 0, goals_for: gf, goals_against: gf - gd, points, away_goals_for: 0, away_won: 0,
});
const cand = (group: string, team: string, rec: [number, number, number, number]): Candidate => ({ group, team_id: team, tally: tally(...rec) });
const nameOf = (id: string) => `Team ${id.toUpperCase()}`;
const UEFA = DEFAULT_BEST_PLACED_RANKING;
const NO_DECISION: TiebreakCriterion[] = ['points', 'goal_difference', 'goals_for', 'wins'];

describe('ranking across groups', () => {
  it.each<[string, Candidate[], readonly TiebreakCriterion[], Decision[], string[], boolean[]]>([
    ['points first', [cand('A', 'a', [3, 5, 5, 1]), cand('B', 'b', [4, -1, 1, 1])], UEFA, [], ['b', 'a'], [false]],
    ['then goal difference', [cand('A', 'a', [4, -1, 9, 1]), cand('B', 'b', [4, 0, 1, 1])], UEFA, [], ['b', 'a'], [false]],
    ['then goals scored', [cand('A', 'a', [4, 1, 3, 1]), cand('B', 'b', [4, 1, 7, 1])], UEFA, [], ['b', 'a'], [false]],
    ['then wins', [cand('A', 'a', [4, 1, 3, 1]), cand('B', 'b', [4, 1, 3, 0])], UEFA, [], ['a', 'b'], [false]],
    // EURO 2020's published thirds (points, goal difference, goals, wins): Portugal, Czech Republic, Switzerland, Ukraine, Finland, Slovakia.
    [
      'EURO 2020: the published order',
      [cand('A', 'sui', [4, -1, 4, 1]), cand('B', 'fin', [3, -2, 1, 1]), cand('C', 'ukr', [3, -1, 4, 1]), cand('D', 'cze', [4, 1, 3, 1]), cand('E', 'svk', [3, -5, 2, 1]), cand('F', 'por', [4, 1, 7, 1])],
      UEFA, [], ['por', 'cze', 'sui', 'ukr', 'fin', 'svk'], [false, false, false, false, false],
    ],
    ['level on everything, no decision in the ranking: the name is the last rule', [cand('A', 'b', [4, 1, 3, 1]), cand('B', 'a', [4, 1, 3, 1])], NO_DECISION, [], ['a', 'b'], [false]],
    ['level on everything, decision awaited', [cand('A', 'b', [4, 1, 3, 1]), cand('B', 'a', [4, 1, 3, 1])], UEFA, [], ['a', 'b'], [true]],
    ['level on everything, decision awaited, the name listed after it: still awaited', [cand('A', 'b', [4, 1, 3, 1]), cand('B', 'a', [4, 1, 3, 1])], [...UEFA, 'name'], [], ['a', 'b'], [true]],
    ['level on everything, decision recorded', [cand('A', 'a', [4, 1, 3, 1]), cand('B', 'b', [4, 1, 3, 1])], UEFA, [{ teams: ['a', 'b'], order: ['b', 'a'], reason: 'disciplinary points' }], ['b', 'a'], [false]],
    ['a decision naming only one of the teams level does not count', [cand('A', 'a', [4, 1, 3, 1]), cand('B', 'b', [4, 1, 3, 1])], UEFA, [{ teams: ['a', 'c'], order: ['c', 'a'], reason: 'other' }], ['a', 'b'], [true]],
    [
      'two separate level pairs are two unresolved sets, not one',
      [cand('A', 'a', [4, 1, 3, 1]), cand('B', 'b', [4, 1, 3, 1]), cand('C', 'c', [3, 0, 2, 1]), cand('D', 'd', [3, 0, 2, 1])],
      UEFA, [], ['a', 'b', 'c', 'd'], [true, false, true],
    ],
    ['FIFA World Cup 2026 (no wins): level teams with different wins wait for the decision', [cand('A', 'a', [3, 0, 2, 1]), cand('B', 'b', [3, 0, 2, 0])], ['points', 'goal_difference', 'goals_for', 'decision'], [], ['a', 'b'], [true]],
  ])('%s', (_name, candidates, ranking, decisions, order, level) => {
    const r = rankAcrossGroups(candidates, ranking, decisions, nameOf);
    expect(r.order.map((c) => c.team_id)).toEqual(order);
    expect(r.levelWithNext).toEqual(level);
  });
});

/** UEFA EURO 2020 Regulations, the round of 16's table: for the qualifying thirds' groups, the thirds 1B, 1C, 1E, 1F meet. */
const EURO_2020: AllocationRow[] = [
  ['ABCD', 'ADBC'], ['ABCE', 'AEBC'], ['ABCF', 'AFBC'], ['ABDE', 'DEAB'], ['ABDF', 'DFAB'], ['ABEF', 'EFBA'], ['ACDE', 'EDCA'], ['ACDF', 'FDCA'],
  ['ACEF', 'EFCA'], ['ADEF', 'EFDA'], ['BCDE', 'EDBC'], ['BCDF', 'FDCB'], ['BCEF', 'FECB'], ['BDEF', 'FEDB'], ['CDEF', 'FEDC'],
].map(([g, s]) => ({ groups: [...(g as string)].map((x) => `Group ${x}`), slots: [...(s as string)].map((x) => `Group ${x}`) }));
const GROUPS = ['A', 'B', 'C', 'D', 'E', 'F'].map((x) => `Group ${x}`);
const rule = (allocation: AllocationRow[] | null, ranking: readonly TiebreakCriterion[] = UEFA): BestPlacedRule => ({ id: 'thirds', position: 3, groups: GROUPS, qualify: 4, ranking, allocation });

/** Each group's third, with its record; every other place left out (the rule only reads the rule's position). */
function thirds(records: Record<string, [number, number, number, number]>, awaiting: string[] = []): StandingsRow[] {
  return Object.entries(records).map(([g, rec]) => ({
    rank: 3, club_name: nameOf(`${g.toLowerCase()}3`), club_name_ar: null, ...tally(...rec), team_id: `${g.toLowerCase()}3`, group_name: `Group ${g}`,
    adjustment_points: null, awaiting_decision: awaiting.includes(g),
  }));
}
// EURO 2020: A, C, D, F through (row ACDF: 1B v 3F, 1C v 3D, 1E v 3C, 1F v 3A).
const EURO = { A: [4, -1, 4, 1], B: [3, -2, 1, 1], C: [3, -1, 4, 1], D: [4, 1, 3, 1], E: [3, -5, 2, 1], F: [4, 1, 7, 1] } as Record<string, [number, number, number, number]>;
// C and B level on everything at the cut line (4th and 5th); A and D level on everything among the qualifiers.
const CUT = { ...EURO, B: [3, -1, 4, 1] } as Record<string, [number, number, number, number]>;
const AMONG = { ...EURO, A: [4, 1, 3, 1] } as Record<string, [number, number, number, number]>;

describe('best-placed slots', () => {
  const all = () => true;
  it.each<[string, BestPlacedRule, StandingsRow[], (g: string) => boolean, Decision[], (string | null)[]]>([
    ['EURO 2020 with its allocation table', rule(EURO_2020), thirds(EURO), all, [], ['f3', 'd3', 'c3', 'a3']],
    ['without a table slot k is the k-th best', rule(null), thirds(EURO), all, [], ['f3', 'd3', 'a3', 'c3']],
    ['a group unfinished: no slot is known', rule(EURO_2020), thirds(EURO), (g) => g !== 'Group E', [], [null, null, null, null]],
    ['a group\'s third awaiting a decision in its own table: no slot is known', rule(EURO_2020), thirds(EURO, ['B']), all, [], [null, null, null, null]],
    ['with a table, a decision awaited at the cut line: no slot is known', rule(EURO_2020), thirds(CUT), all, [], [null, null, null, null]],
    ['with a table, the decision recorded at the cut line', rule(EURO_2020), thirds(CUT), all, [{ teams: ['b3', 'c3'], order: ['c3', 'b3'], reason: 'disciplinary points' }], ['f3', 'd3', 'c3', 'a3']],
    ['with a table, the decision the other way round', rule(EURO_2020), thirds(CUT), all, [{ teams: ['b3', 'c3'], order: ['b3', 'c3'], reason: 'disciplinary points' }], ['d3', 'f3', 'a3', 'b3']],
    ['with a table, a decision awaited among the qualifiers does not matter', rule(EURO_2020), thirds(AMONG), all, [], ['f3', 'd3', 'c3', 'a3']],
    ['without a table, it does: the two slots of the teams level wait', rule(null), thirds(AMONG), all, [], ['f3', null, null, 'c3']],
    ['without a table, a decision awaited at the cut line: the last slot waits', rule(null), thirds(CUT), all, [], ['f3', 'd3', 'a3', null]],
    ['no decision in the ranking: the name settles the cut line', rule(EURO_2020, NO_DECISION), thirds(CUT), all, [], ['d3', 'f3', 'a3', 'b3']],
  ])('%s', (_name, r, rows, finished, decisions, expected) => {
    expect(bestPlacedSlots(r, rows, finished, decisions, nameOf)).toEqual(expected);
  });

  it('finds the allocation row whatever the order of the groups', () => {
    expect(allocationRow(EURO_2020, ['Group F', 'Group A', 'Group D', 'Group C'])?.slots).toEqual(['Group F', 'Group D', 'Group C', 'Group A']);
    expect(allocationRow(EURO_2020, ['Group A', 'Group B'])).toBeUndefined();
  });

  it('names the groups each slot can draw from (the regulations\' 3A/D/E/F, 3D/E/F, 3A/B/C/D, 3A/B/C)', () => {
    expect([1, 2, 3, 4].map((k) => slotCandidateGroups(rule(EURO_2020), k).map((g) => g.slice(-1)).join(''))).toEqual(['ADEF', 'DEF', 'ABCD', 'ABC']);
    expect(slotCandidateGroups(rule(null), 1)).toEqual(GROUPS);
  });
});

// Three groups of three through the real tables: the third of each, the best two of them in the final.
const TEAMS = new Map<string, TeamFacts>(['a', 'b', 'c'].flatMap((g) => [1, 2, 3].map((n) => `${g}${n}`)).map((id) => [id, { id, name: nameOf(id), name_ar: null }]));
const gm = (id: string, group: string, home: string, away: string, score: [number, number], status?: MatchFacts['status']) =>
  match({ id, role: null, round: 1, group, home, away, result: status === undefined ? { score } : { status } });
/** a3: 0 points, -3; b3: 0, -2, 1 goal; c3: 0, -2, 0 goals. The best two thirds: b3, c3. */
function tournament(edit: (ms: MatchFacts[]) => MatchFacts[] = (ms) => ms): MatchFacts[] {
  const final: MatchFacts = {
    ...match({ id: 'final', role: 'winners', round: 2, home: null, away: null, result: { score: [2, 1] } }),
    home_source_best: 'thirds', home_source_slot: 1, away_source_best: 'thirds', away_source_slot: 2,
  };
  return edit([
    gm('a1', 'Group A', 'a1', 'a2', [1, 0]), gm('a2', 'Group A', 'a1', 'a3', [1, 0]), gm('a3', 'Group A', 'a2', 'a3', [2, 0]),
    gm('b1', 'Group B', 'b1', 'b2', [1, 0]), gm('b2', 'Group B', 'b1', 'b3', [1, 0]), gm('b3', 'Group B', 'b2', 'b3', [2, 1]),
    gm('c1', 'Group C', 'c1', 'c2', [1, 0]), gm('c2', 'Group C', 'c1', 'c3', [1, 0]), gm('c3', 'Group C', 'c2', 'c3', [1, 0]),
    final,
  ]);
}
const ev = (extra: Partial<EventFacts['rules'] & object> = {}): Pick<EventFacts, 'points' | 'rules' | 'competition_type' | 'status'> => ({
  competition_type: 'hybrid',
  status: 'in_progress',
  points: { win: 3, draw: 1, loss: 0 },
  rules: { ...DEFAULT_RULES, best_placed: [{ id: 'thirds', position: 3, groups: ['Group A', 'Group B', 'Group C'], qualify: 2, ranking: UEFA, allocation: null }], ...extra },
});
const setStatus = (id: string, status: MatchFacts['status']) => (ms: MatchFacts[]) =>
  ms.map((m) => (m.id === id ? { ...m, status, home_score: null, away_score: null } : m));

describe('best-placed slots in the bracket', () => {
  it.each<[string, MatchFacts[], ReturnType<typeof ev>, (string | null)[], string | null]>([
    ['every group finished: the best two thirds', tournament(), ev(), ['b3', 'c3'], 'Team B3'],
    ['a match still to play in one group: nobody yet', tournament(setStatus('a3', 'scheduled')), ev(), [null, null], null],
    ['a postponed match holds its group back', tournament(setStatus('a3', 'postponed')), ev(), [null, null], null],
    // Without a2 v a3, a3 lost once 0-1 (-1): now the best third, above b3.
    ['a cancelled match does not', tournament(setStatus('a3', 'cancelled')), ev(), ['a3', 'b3'], 'Team A3'],
    ['adjustments count as in the group table', tournament(), ev({ adjustments: [{ team: 'c3', points: 1, reason: 'appeal' }] }), ['c3', 'b3'], 'Team C3'],
    ['a rule the event does not have gives nobody', tournament(), ev({ best_placed: [] }), [null, null], null],
  ])('%s', (_name, matches, event, teams, champion) => {
    const slots = computeBracket(matches, bracketContext(event, matches, TEAMS), event.rules?.best_placed);
    expect(slots.map((s) => s.team_id)).toEqual(teams);
    expect(championName(event, matches, TEAMS)).toBe(champion);
  });

  it('the slots say where their teams come from', () => {
    const matches = tournament();
    const slots = computeBracket(matches, bracketContext(ev(), matches, TEAMS), ev().rules?.best_placed);
    expect(slots.map((s) => [s.source_best_placed, s.source_slot, s.source_position, s.source_groups, s.source_group, s.source_match_id])).toEqual([
      ['thirds', 1, 3, ['Group A', 'Group B', 'Group C'], null, null],
      ['thirds', 2, 3, ['Group A', 'Group B', 'Group C'], null, null],
    ]);
  });
});
