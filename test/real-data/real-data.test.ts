// The rules against real, published outcomes (openfootball data under /work/shared/real-data).
import { describe, expect, it } from 'vitest';
import { computeBracket, resolveTeams } from '../../src/competitions/bracket.js';
import { championName } from '../../src/competitions/champion.js';
import { computeStandings } from '../../src/competitions/standings.js';
import type { PointsRule } from '../../src/competitions/types.js';
import { readRealData, realDataAvailable } from './data-dir.js';
import { convertOpenFootball, slugify } from './openfootball.js';

const available = realDataAvailable('test/real-data/real-data.test.ts', [
  'england-premier-league-2011-12.json',
  'england-premier-league-2018-19.json',
  'england-premier-league-2023-24.json',
  'world-cup-2022.json',
]);

function load(file: string): ReturnType<typeof convertOpenFootball> {
  return convertOpenFootball(readRealData(file));
}

const P310: PointsRule = { win: 3, draw: 1, loss: 0 };

describe('slugify', () => {
  it.each([
    ['Manchester City FC', 'manchester-city-fc'],
    ['Brighton & Hove Albion', 'brighton-hove-albion'],
    ['USA', 'usa'],
    ['Côte d’Ivoire', 'cote-d-ivoire'],
  ])('%s -> %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(slug).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/);
  });
});

describe.skipIf(!available)('Premier League seasons', () => {
  it.each([
    // City and United level on 89 points: goal difference decided the 2011-12 title.
    ['england-premier-league-2011-12.json', 'Manchester City', 89, 64, 'Manchester United', 89, 56],
    ['england-premier-league-2018-19.json', 'Manchester City', 98, 72, 'Liverpool FC', 97, 67],
    ['england-premier-league-2023-24.json', 'Manchester City FC', 91, 62, 'Arsenal FC', 89, 62],
  ] as const)('%s: %s champion', (file, first, firstPts, firstGd, second, secondPts, secondGd) => {
    const { matches, teams } = load(file);
    const table = computeStandings(matches, teams, P310);
    expect(table).toHaveLength(20);
    expect(table.every((r) => r.played === 38 && r.group_name === null)).toBe(true);
    expect(table.reduce((n, r) => n + r.goals_for - r.goals_against, 0)).toBe(0);
    const top = table.slice(0, 2).map((r) => [r.rank, r.club_name, r.points, r.goals_for - r.goals_against]);
    expect(top).toEqual([
      [1, first, firstPts, firstGd],
      [2, second, secondPts, secondGd],
    ]);
    expect(championName({ competition_type: 'league', status: 'completed', points: P310 }, matches, teams)).toBe(first);
    expect(championName({ competition_type: 'league', status: 'in_progress', points: P310 }, matches, teams)).toBeNull();
  });
});

describe.skipIf(!available)('World Cup 2022', () => {
  const wc = available ? load('world-cup-2022.json') : { matches: [], teams: new Map(), real: new Map() };
  const name = (id: string | null | undefined): string | null => (id == null ? null : (wc.teams.get(id)?.name ?? id));

  it('converts 48 group matches and 16 knockout matches', () => {
    expect(wc.matches.filter((m) => m.bracket_role === null)).toHaveLength(48);
    expect(wc.matches.filter((m) => m.bracket_role !== null)).toHaveLength(16);
    expect(wc.teams.size).toBe(32);
  });

  it('Argentina are champions', () => {
    expect(championName({ competition_type: 'hybrid', status: 'completed', points: P310 }, wc.matches, wc.teams)).toBe(
      'Argentina',
    );
  });

  it('the final went to penalties: 3-3 after extra time, 4-2', () => {
    const final = wc.matches.find((m) => m.id === 'final');
    expect(final).toMatchObject({ home_score: 3, away_score: 3, home_penalties: 4, away_penalties: 2 });
    const r = resolveTeams(wc.matches).get('final');
    expect([name(r?.home), name(r?.away), name(r?.winner), name(r?.loser)]).toEqual([
      'Argentina',
      'France',
      'Argentina',
      'France',
    ]);
  });

  it('Croatia beat Morocco for third place', () => {
    const slots = computeBracket(wc.matches).filter((s) => s.bracket_role === 'third_place');
    expect(slots.map((s) => [s.side, name(s.team_id), s.source_match_id, s.source_outcome, name(s.winner_team_id)])).toEqual([
      ['home', 'Croatia', 'sf-1', 'loser', 'Croatia'],
      ['away', 'Morocco', 'sf-2', 'loser', 'Croatia'],
    ]);
  });

  // Every fed slot must resolve to the team openfootball names for it. Several of these ties
  // (Croatia v Japan, Morocco v Spain, Croatia v Brazil, Netherlands v Argentina) went to penalties.
  const fedSlots = available ? computeBracket(wc.matches).filter((s) => s.source_match_id !== null) : [];
  it.each(fedSlots.map((s) => [s.match_id, s.side, s.source_match_id, s.source_outcome, s] as const))(
    '%s %s: %s\'s %s is the real team',
    (matchId, side, _source, _outcome, slot) => {
      const real = wc.real.get(matchId);
      expect(slot.team_id).not.toBeNull();
      expect(slot.team_id).toBe(side === 'home' ? real?.home : real?.away);
    },
  );

  it('the bracket has 8 fed matches and lists them in playing order', () => {
    expect(fedSlots).toHaveLength(16);
    const order = [...new Set(computeBracket(wc.matches).map((s) => s.match_id))];
    expect(order).toEqual([
      'r16-1', 'r16-2', 'r16-3', 'r16-4', 'r16-5', 'r16-6', 'r16-7', 'r16-8',
      'qf-1', 'qf-2', 'qf-3', 'qf-4', 'sf-1', 'sf-2', 'final', 'third',
    ]);
  });

  // Our order (points, goal difference, goals for, head-to-head, name) is FIFA's for 2022 down to
  // goals for; no group needed head-to-head. C, D, E and G were split on goal difference, H on goals
  // for (South Korea over Uruguay), so the whole table matches the real one.
  const groups = available ? computeStandings(wc.matches, wc.teams, P310) : [];
  it.each([
    ['Group A', ['Netherlands 7', 'Senegal 6', 'Ecuador 4', 'Qatar 0']],
    ['Group B', ['England 7', 'USA 5', 'Iran 3', 'Wales 1']],
    ['Group C', ['Argentina 6', 'Poland 4', 'Mexico 4', 'Saudi Arabia 3']],
    ['Group D', ['France 6', 'Australia 6', 'Tunisia 4', 'Denmark 1']],
    ['Group E', ['Japan 6', 'Spain 4', 'Germany 4', 'Costa Rica 3']],
    ['Group F', ['Morocco 7', 'Croatia 5', 'Belgium 4', 'Canada 0']],
    ['Group G', ['Brazil 6', 'Switzerland 6', 'Cameroon 4', 'Serbia 1']],
    ['Group H', ['Portugal 6', 'South Korea 4', 'Uruguay 4', 'Ghana 3']],
  ])('%s: %j', (group, expected) => {
    const rows = groups.filter((r) => r.group_name === group);
    expect(rows.map((r) => `${r.club_name} ${r.points}`)).toEqual(expected);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(rows.every((r) => r.played === 3)).toBe(true);
  });

  it('the group winners and runners-up are the teams that played the round of 16', () => {
    const qualified = groups.filter((r) => r.rank <= 2).map((r) => r.team_id).sort();
    const r16 = wc.matches.filter((m) => m.round_name === 'Round of 16').flatMap((m) => [m.home_team_id, m.away_team_id]);
    expect([...r16].sort()).toEqual(qualified);
  });
});
