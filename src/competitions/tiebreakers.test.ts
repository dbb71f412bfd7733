// Each criterion and each preset on the smallest table that shows what it decides. Team ids a, b, c, d are named
// Alpha, Bravo, Charlie, Delta, so the name order is a, b, c, d: every case expects another order.
import { describe, expect, it } from 'vitest';
import { match } from '../../test/support/builders/matches.js';
import { computeStandings, DEFAULT_RULES } from './standings.js';
import { orderClubs, PRESETS, type Tally } from './tiebreakers.js';
import type { TiebreakCriterion, TiebreakPreset } from '../vocabulary/enums.js';
import type { Adjustment, Decision, MatchFacts, PointsRule, TeamFacts } from './types.js';

const P310: PointsRule = { win: 3, draw: 1, loss: 0 };
const NAMES: Record<string, string> = { a: 'Alpha', b: 'Bravo', c: 'Charlie', d: 'Delta' };

let seq = 0;
/** "a 1-0 b": a at home. */
function games(...specs: string[]): MatchFacts[] {
  return specs.map((s) => {
    const [home, score, away] = s.split(' ') as [string, string, string];
    const [h, a] = score.split('-').map(Number) as [number, number];
    seq += 1;
    return match({ id: `m${seq}`, role: null, round: 1, home, away, result: { score: [h, a] } });
  });
}

function order(
  criteria: TiebreakPreset | readonly TiebreakCriterion[],
  matches: MatchFacts[],
  extra: { decisions?: Decision[]; adjustments?: Adjustment[]; points?: PointsRule; names?: Record<string, string> } = {},
): string[] {
  const teams = new Map<string, TeamFacts>();
  const names = extra.names ?? NAMES;
  for (const id of Object.keys(names)) teams.set(id, { id, name: names[id] as string, name_ar: null });
  const rules = {
    ...DEFAULT_RULES,
    tiebreakers: typeof criteria === 'string' ? PRESETS[criteria] : criteria,
    decisions: extra.decisions ?? [],
    adjustments: extra.adjustments ?? [],
  };
  return computeStandings(matches, teams, extra.points ?? P310, rules).map((r) => r.team_id);
}

// a, b, c beat each other in a cycle (b 1-0 c, c 2-1 a, a 1-0 b) and each beat d, ending level on points, goal
// difference (+1) and goals (3). Among the three, b scored least; a and c stay level, and c won their meeting.
const CYCLE = () => games('b 1-0 c', 'a 1-2 c', 'a 1-0 b', 'a 1-0 d', 'c 1-0 d', 'b 2-1 d');
// a and b level on points; a has the better goal difference, b won both meetings (Getafe and Sevilla, LaLiga 2018-19).
// c leads; a and b level on 3 points: a won their one meeting so far, b has the better goal difference; their return
// meeting is still to come (LaLiga 2018-19 after matchday 11: Levante and Real Madrid, found by a review).
const RETURN_TO_COME = () => [
  ...games('a 1-0 b', 'c 1-0 a', 'b 5-0 d', 'c 0-0 d'),
  match({ id: 'return', role: null, round: 2, home: 'b', away: 'a' }),
];
const RETURN_CANCELLED = () => [
  ...games('a 1-0 b', 'c 1-0 a', 'b 5-0 d', 'c 0-0 d'),
  match({ id: 'return', role: null, round: 2, home: 'b', away: 'a', result: { status: 'cancelled' } }),
];
const GETAFE = () => games('b 1-0 a', 'a 0-1 b', 'a 5-0 c', 'a 4-0 d', 'c 1-0 b', 'd 1-0 b', 'c 0-0 d');

describe('each criterion', () => {
  it.each<[string, readonly TiebreakCriterion[], () => MatchFacts[], string[], Parameters<typeof order>[2]?]>([
    ['points', ['points'], () => games('b 1-0 a'), ['b', 'a']],
    ['goal_difference', ['points', 'goal_difference'], () => games('a 1-0 c', 'b 3-0 c'), ['b', 'a', 'c']],
    ['goals_for', ['points', 'goals_for'], () => games('a 1-0 c', 'b 2-1 c'), ['b', 'a', 'c']],
    ['wins (2 for a win, 1 for a draw)', ['points', 'wins'], () => games('b 1-0 c', 'a 0-0 c', 'a 0-0 d'), ['b', 'a', 'c', 'd'], { points: { win: 2, draw: 1, loss: 0 } }],
    ['away_goals_for', ['points', 'away_goals_for'], () => games('a 2-2 b'), ['b', 'a']],
    // UEFA club competitions' group stages 2021-24, art. 17.01 (i): a and b each won one and lost one; b won away.
    ['away_wins', ['points', 'wins', 'away_wins'], () => games('a 1-0 c', 'c 0-1 b', 'c 1-0 a', 'b 0-1 c'), ['c', 'b', 'a']],
    ['head_to_head_points', ['points', 'head_to_head_points'], () => games('b 1-0 a', 'a 1-0 c'), ['b', 'a', 'c']],
    ['head_to_head_goal_difference', ['points', 'head_to_head_goal_difference'], () => games('a 1-0 b', 'b 3-0 a'), ['b', 'a']],
    ['head_to_head_goals_for (three level)', ['points', 'head_to_head_goals_for'], () => games('c 3-3 a', 'a 0-0 b', 'b 1-1 c'), ['c', 'a', 'b']],
    ['head_to_head_away_goals_for', ['points', 'head_to_head_away_goals_for'], () => games('a 1-2 b', 'b 0-1 a'), ['b', 'a']],
    ['head-to-head not re-applied: a and c stay level, the name decides', ['points', 'head_to_head_points', 'head_to_head_goal_difference', 'head_to_head_goals_for'], CYCLE, ['a', 'c', 'b', 'd']],
    ['reapply_head_to_head: a and c again, on their own meeting', ['points', 'head_to_head_points', 'head_to_head_goal_difference', 'head_to_head_goals_for', 'reapply_head_to_head'], CYCLE, ['c', 'a', 'b', 'd']],
    ['decision', ['points', 'decision'], () => games('a 0-0 b'), ['b', 'a'], { decisions: [{ teams: ['a', 'b'], order: ['b', 'a'], reason: 'drawing of lots' }] }],
    ['decision naming more clubs than are level', ['points', 'decision'], () => games('a 0-0 b', 'c 1-0 a', 'c 1-0 b'), ['c', 'b', 'a'], { decisions: [{ teams: ['a', 'b', 'c'], order: ['c', 'b', 'a'], reason: 'fair play' }] }],
    ['a decision about other clubs changes nothing', ['points', 'decision'], () => games('a 0-0 b'), ['a', 'b'], { decisions: [{ teams: ['c', 'd'], order: ['d', 'c'], reason: 'lots' }] }],
    ['name', ['points', 'name'], () => games('a 0-0 b'), ['b', 'a'], { names: { a: 'Zulu', b: 'Yankee' } }],
    ['head-to-head on one meeting of two', ['points', 'head_to_head_points', 'goal_difference'], RETURN_TO_COME, ['c', 'a', 'b', 'd']],
    ['all_meetings_played: a meeting to come, goal difference decides', ['points', 'all_meetings_played', 'head_to_head_points', 'goal_difference'], RETURN_TO_COME, ['c', 'b', 'a', 'd']],
    ['all_meetings_played: a cancelled meeting is not to come', ['points', 'all_meetings_played', 'head_to_head_points', 'goal_difference'], RETURN_CANCELLED, ['c', 'a', 'b', 'd']],
    // Only meetings between the clubs level count: a's match still to come against c leaves a and b's meetings all played.
    ['all_meetings_played: a match to come against another club', ['points', 'all_meetings_played', 'head_to_head_points', 'goal_difference'],
      () => [...games('a 1-0 b', 'a 0-0 b', 'b 5-0 d', 'c 0-0 d'), match({ id: 'to-come', role: null, round: 2, home: 'a', away: 'c' })], ['a', 'b', 'c', 'd']],
    ['same name: the id decides', ['name'], () => games('b 0-0 a'), ['a', 'b'], { names: { a: 'United', b: 'United' } }],
    // A review's "\u200Fالنصر" came after every other Arabic name: the mark shows nothing and ranks nothing.
    ['name, without direction marks', ['points', 'name'], () => games('a 0-0 b'), ['a', 'b'], { names: { a: '\u200Fالنصر', b: 'الهلال' } }],
    ['name, without the Arabic letter mark', ['name'], () => games('a 0-0 b'), ['b', 'a'], { names: { a: '\u061Cالهلال', b: 'النصر' } }],
    ['name, only a direction mark apart: the id decides', ['name'], () => games('b 0-0 a'), ['a', 'b'], { names: { a: '\u200Fالنصر', b: 'النصر' } }],
    ['name, the fallback past the last criterion', ['points'], () => games('a 0-0 b'), ['a', 'b'], { names: { a: '\u200Fالنصر', b: 'الهلال' } }],
  ])('%s', (_name, criteria, matches, expected, extra) => {
    expect(order(criteria, matches(), extra)).toEqual(expected);
  });
});

describe('adjustments', () => {
  it('count in points and rank, and say how much of the total they are', () => {
    const teams = new Map(Object.entries(NAMES).map(([id, name]) => [id, { id, name, name_ar: null }]));
    const rows = computeStandings(games('a 1-0 b', 'c 0-0 d'), teams, P310, {
      ...DEFAULT_RULES,
      adjustments: [{ team: 'a', points: -4, reason: 'breach' }, { team: 'a', points: 1, reason: 'appeal' }, { team: 'd', points: 2, reason: 'awarded' }],
    });
    expect(rows.map((r) => [r.team_id, r.points, r.adjustment_points])).toEqual([
      ['d', 3, 2],
      ['c', 1, 0],
      ['a', 0, -3],
      ['b', 0, 0],
    ]);
  });

  it('do not count in head-to-head', () => {
    // a and b level on 3 after a's deduction; b won the meeting, so b is above whatever a's total was.
    expect(order('la_liga', games('b 1-0 a', 'a 1-0 c', 'a 1-0 d'), { adjustments: [{ team: 'a', points: -3, reason: 'x' }] }).slice(0, 2)).toEqual(['b', 'a']);
  });

  // A competition of groups: each adjustment counts in its team's group, whichever group the list names first, and
  // every group's table has the column (0 where none of its teams was adjusted).
  it('in a competition of groups, count in their team\'s group, and every table shows them', () => {
    const teams = new Map(Object.entries({ ...NAMES, e: 'Echo', f: 'Foxtrot' }).map(([id, name]) => [id, { id, name, name_ar: null }]));
    const grouped = (group: string, ...specs: string[]) => games(...specs).map((g) => ({ ...g, group_name: group }));
    const rows = computeStandings([...grouped('Group A', 'a 1-0 b'), ...grouped('Group B', 'c 1-0 d'), ...grouped('Group C', 'e 1-0 f')], teams, P310, {
      ...DEFAULT_RULES,
      adjustments: [{ team: 'c', points: -2, reason: 'late registration' }, { team: 'a', points: -4, reason: 'ineligible player' }],
    });
    expect(rows.map((r) => [r.group_name, r.team_id, r.points, r.adjustment_points])).toEqual([
      ['Group A', 'b', 0, 0], ['Group A', 'a', -1, -4],
      ['Group B', 'c', 1, -2], ['Group B', 'd', 0, 0],
      ['Group C', 'e', 3, 0], ['Group C', 'f', 0, 0],
    ]);
  });

  it('are absent from the rows (null) when the event has none', () => {
    const teams = new Map([['a', { id: 'a', name: 'A', name_ar: null }], ['b', { id: 'b', name: 'B', name_ar: null }]]);
    expect(computeStandings(games('a 1-0 b'), teams, P310).map((r) => r.adjustment_points)).toEqual([null, null]);
  });
});

describe('all_meetings_played in a cancelled competition', () => {
  // Nothing of a cancelled competition is still to come (publicMatchStatus): the meetings played are all there are.
  it('applies head-to-head on the meetings played', () => {
    const teams = new Map(Object.entries(NAMES).map(([id, name]) => [id, { id, name, name_ar: null }]));
    const rules = { ...DEFAULT_RULES, tiebreakers: PRESETS.la_liga };
    expect(computeStandings(RETURN_TO_COME(), teams, P310, rules, 'in_progress').map((r) => r.team_id)).toEqual(['c', 'b', 'a', 'd']);
    expect(computeStandings(RETURN_TO_COME(), teams, P310, rules, 'cancelled').map((r) => r.team_id)).toEqual(['c', 'a', 'b', 'd']);
  });
});

describe('each preset', () => {
  it.each<[TiebreakPreset, () => MatchFacts[], string[]]>([
    // Level on points: the presets that look at the meetings first put b (who won both) above a.
    ['default', GETAFE, ['a', 'b', 'd', 'c']],
    ['fifa_world_cup', GETAFE, ['a', 'b', 'd', 'c']],
    ['premier_league', GETAFE, ['a', 'b', 'd', 'c']],
    ['bundesliga', GETAFE, ['a', 'b', 'd', 'c']],
    ['uefa', GETAFE, ['b', 'a', 'd', 'c']],
    ['la_liga', GETAFE, ['b', 'a', 'd', 'c']],
    ['serie_a', GETAFE, ['b', 'a', 'd', 'c']],
    // LaLiga's tables during the season use the meetings only once all are played; before, goal difference.
    ['la_liga', RETURN_TO_COME, ['c', 'b', 'a', 'd']],
    // Level on points, goal difference and goals: FIFA 2022 does not re-apply head-to-head, the default does.
    ['fifa_world_cup', CYCLE, ['a', 'c', 'b', 'd']],
    ['default', CYCLE, ['c', 'a', 'b', 'd']],
    ['uefa', CYCLE, ['c', 'a', 'b', 'd']],
    // Level on everything overall, one meeting each way with the same aggregate: away goals in the meetings decide
    // in the Premier League and the Bundesliga (b scored 2 at a, a scored 1 at b).
    ['premier_league', () => games('a 1-2 b', 'b 0-1 a'), ['b', 'a']],
    ['bundesliga', () => games('a 1-2 b', 'b 0-1 a'), ['b', 'a']],
    ['default', () => games('a 1-2 b', 'b 0-1 a'), ['a', 'b']],
    // Each preset's criteria in the regulation's order, where two neighbours disagree.
    // Premier League C.17: points in the meetings before away goals in them (a won at home 3-2, then drew at b).
    ['premier_league', () => games('a 3-2 b', 'b 0-0 a', 'b 1-0 c', 'd 1-0 a'), ['a', 'b', 'd', 'c']],
    // LaLiga art. 201: three clubs level, points in their meetings before goal difference in them (b beat c 5-0).
    ['la_liga', () => games('a 1-0 b', 'a 1-0 c', 'b 5-0 c', 'b 1-0 d', 'c 1-0 d', 'd 0-1 c'), ['a', 'b', 'c', 'd']],
    // Serie A: past the meetings (a and b never met), goal difference before goals scored.
    ['serie_a', () => games('a 2-0 c', 'b 5-4 d'), ['a', 'b', 'd', 'c']],
    // Bundesliga: goals scored before the meetings (a won theirs, b scored more).
    ['bundesliga', () => games('a 1-0 b', 'b 3-1 c'), ['b', 'a', 'c']],
  ])('%s', (preset, matches, expected) => {
    expect(order(preset, matches())).toEqual(expected);
  });

  it('uefa: more wins after goal difference and goals (EURO art. 20.01), not the name', () => {
    // a and b never met and end level on points (3), goal difference (0) and goals (2): b won once, a drew three times.
    // d and e (4 points, +1) are split by goals; c is last.
    const names = { ...NAMES, e: 'Echo' };
    const matches = games('b 2-0 c', 'd 1-0 b', 'e 1-0 b', 'a 1-1 c', 'a 1-1 d', 'a 0-0 e');
    expect(order('uefa', matches, { names })).toEqual(['d', 'e', 'b', 'a', 'c']);
  });

  it('bundesliga: all away goals after the meetings (c and d never met)', () => {
    // c and d: same points, goal difference and goals; d scored its goal away.
    expect(order('bundesliga', games('c 1-0 a', 'b 0-1 d', 'a 0-0 b')).slice(0, 2)).toEqual(['d', 'c']);
  });

  it('every preset ends in the name, so the order is always total', () => {
    for (const criteria of Object.values(PRESETS)) expect(criteria.at(-1)).toBe('name');
  });
});

describe('clubs awaiting a decision', () => {
  // Only what orderClubs reads of a tally matters here: everyone level on everything.
  const zero: Tally = { played: 0, won: 0, drawn: 0, lost: 0, goals_for: 0, goals_against: 0, points: 0, away_goals_for: 0, away_won: 0 };
  const ids = ['a', 'b', 'c'];
  const input = (decisions: Decision[]) => ({
    overall: new Map(ids.map((id) => [id, { ...zero, points: id === 'c' ? 1 : 0 }])),
    headToHead: (level: readonly string[]) => new Map(level.map((id) => [id, zero])),
    nameOf: (id: string) => NAMES[id] as string,
    decisions,
  });
  it.each<[string, readonly TiebreakCriterion[], Decision[], string[], string[]]>([
    ['level past a decision step with nothing recorded: only the name orders them', PRESETS.fifa_world_cup, [], ['c', 'a', 'b'], ['a', 'b']],
    ['a recorded decision settles them', PRESETS.fifa_world_cup, [{ teams: ['a', 'b'], order: ['b', 'a'], reason: 'lots' }], ['c', 'b', 'a'], []],
    ['a list without a decision step: the name is its rule', PRESETS.default, [], ['c', 'a', 'b'], []],
    ['a list ending in a decision, without name: the same', ['points', 'decision'], [], ['c', 'a', 'b'], ['a', 'b']],
  ])('%s', (_name, criteria, decisions, expected, awaiting) => {
    const ranking = orderClubs(ids, criteria, input(decisions));
    expect(ranking.order).toEqual(expected);
    expect([...ranking.awaitingDecision].sort()).toEqual(awaiting);
  });
});
