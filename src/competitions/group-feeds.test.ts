// Group stage to knockout: a bracket slot fed by a group's final table holds its team once the group is finished,
// ranked by the event's tie-breakers; until then the bracket has no team and the calendar names the place.
import { describe, expect, it } from 'vitest';
import { match } from '../../test/support/builders/matches.js';
import { computeBracket } from './bracket.js';
import { calendarFeed } from './calendar-feed.js';
import { championName } from './champion.js';
import { bracketContext } from './group-feeds.js';
import { DEFAULT_RULES } from './standings.js';
import { PRESETS } from './tiebreakers.js';
import type { Decision, EventFacts, MatchFacts, TeamFacts } from './types.js';

const TEAMS = new Map<string, TeamFacts>(
  ['a', 'b', 'c', 'd'].map((id) => [id, { id, name: `Team ${id.toUpperCase()}`, name_ar: null }]),
);
const g = (id: string, group: string, home: string, away: string, score: [number, number] | null, status?: MatchFacts['status']) =>
  match({ id, role: null, round: 1, group, home, away, result: score === null ? { status: status ?? 'scheduled' } : { score, status } });

/** Group A: a and b level on 4; a has the better goal difference, b won the meeting. Group B: c beat d. */
function matches(groupA: MatchFacts[] = []): MatchFacts[] {
  const final: MatchFacts = {
    ...match({ id: 'final', role: 'winners', round: 1, home: null, away: null, result: { score: [1, 0] } }),
    kickoff_at: '2026-07-01T18:00:00Z',
    home_source_group: 'Group A',
    home_source_position: 1,
    away_source_group: 'Group B',
    away_source_position: 1,
  };
  return [
    ...(groupA.length > 0 ? groupA : [g('a1', 'Group A', 'b', 'a', [1, 0]), g('a2', 'Group A', 'a', 'c', [4, 0]), g('a3', 'Group A', 'c', 'b', [1, 1]), g('a4', 'Group A', 'a', 'c', [1, 1])]),
    g('b1', 'Group B', 'c', 'd', [2, 0]),
    final,
  ];
}
// Team c plays in both groups in this small fixture only to keep it small: places are per group table.

const event = (tiebreakers = PRESETS.default, decisions: Decision[] = []): Pick<EventFacts, 'points' | 'rules'> => ({
  points: { win: 3, draw: 1, loss: 0 },
  rules: { ...DEFAULT_RULES, tiebreakers, decisions },
});
const LOTS = [g('a1', 'Group A', 'a', 'b', [1, 1]), g('a2', 'Group A', 'a', 'c', [1, 0]), g('a3', 'Group A', 'b', 'c', [1, 0])];

describe('group feeds', () => {
  it.each<[string, () => MatchFacts[], Pick<EventFacts, 'points' | 'rules'>, (string | null)[]]>([
    ['a finished group gives its winner (goal difference first: a)', () => matches(), event(), ['a', 'c']],
    ['the event\'s tie-breakers decide the places (head-to-head first: b)', () => matches(), event(PRESETS.uefa), ['b', 'c']],
    ['a group with a match still to play gives nobody', () => matches([g('a1', 'Group A', 'b', 'a', [1, 0]), g('a2', 'Group A', 'a', 'c', null)]), event(), [null, 'c']],
    ['a postponed match holds the group back', () => matches([g('a1', 'Group A', 'b', 'a', [1, 0]), g('a2', 'Group A', 'a', 'c', null, 'postponed')]), event(), [null, 'c']],
    ['a cancelled match does not', () => matches([g('a1', 'Group A', 'b', 'a', [1, 0]), g('a2', 'Group A', 'a', 'c', null, 'cancelled')]), event(), ['b', 'c']],
    // a and b level on everything FIFA counts (1-1 between them, each beat c 1-0): lots (a decision) settle first place.
    ['a place only lots can settle gives nobody until they are recorded', () => matches(LOTS), event(PRESETS.fifa_world_cup), [null, 'c']],
    ['the recorded lots give the place', () => matches(LOTS), event(PRESETS.fifa_world_cup, [{ teams: ['a', 'b'], order: ['b', 'a'], reason: 'drawing of lots' }]), ['b', 'c']],
    ['under default the name is the last rule: a', () => matches(LOTS), event(), ['a', 'c']],
  ])('%s', (_name, ms, ev, expected) => {
    const all = ms();
    const slots = computeBracket(all, bracketContext(ev, all, TEAMS));
    expect(slots.map((s) => s.team_id)).toEqual(expected);
    expect(slots.map((s) => [s.source_group, s.source_position, s.source_match_id])).toEqual([
      ['Group A', 1, null],
      ['Group B', 1, null],
    ]);
  });

  it('the champion comes through the group feeds', () => {
    const ev = { ...event(PRESETS.uefa), competition_type: 'hybrid' as const, status: 'completed' as const };
    expect(championName(ev, matches(), TEAMS)).toBe('Team B');
  });

  it.each([
    ['en', 'Winner Group A vs Team C'],
    ['ar', '\u200F\u2068متصدر Group A\u2069 ضد \u2068Team C\u2069'],
  ] as const)('the calendar names an undecided place (%s)', (language, summary) => {
    const all = matches([g('a1', 'Group A', 'b', 'a', [1, 0]), g('a2', 'Group A', 'a', 'c', null)]);
    const facts: EventFacts = {
      id: 'e', league_id: 'l', league_name: 'L', org_id: 'o', org_name: 'O', language, timezone: 'UTC', name: 'Cup', competition_type: 'hybrid',
      status: 'in_progress', starts_at: null, ends_at: null, venue_city: null, match_duration_min: 90, ...event(),
    };
    const feed = calendarFeed(facts, all, TEAMS, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches.find((m) => m.id === 'final')?.summary).toBe(summary);
  });
});
