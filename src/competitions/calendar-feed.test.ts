// What the calendar says about slots that are not decided yet: never the same words for two different slots.
import { describe, expect, it } from 'vitest';
import { match, W, L } from '../../test/support/builders/matches.js';
import { calendarFeed, calendarName, matchNames } from './calendar-feed.js';
import { DEFAULT_RULES } from './standings.js';
import type { EventFacts, MatchFacts } from './types.js';

const event = (language: 'en' | 'ar'): EventFacts => ({
  id: 'cup', league_id: 'l', league_name: 'L', org_id: 'o', org_name: 'O', language, timezone: 'UTC', name: 'Cup', competition_type: 'knockout',
  status: 'in_progress', starts_at: null, ends_at: null, venue_city: null, points: { win: 3, draw: 1, loss: 0 }, match_duration_min: 90,
});
const at = (m: MatchFacts, name: string): MatchFacts => ({ ...m, round_name: name, kickoff_at: '2026-05-01T18:00:00Z' });

const teams = new Map('abcdefgh'.split('').map((id) => [id, { id, name: `Team ${id.toUpperCase()}`, name_ar: null }]));
const cup = [
  at(match({ id: 'qf1', role: 'winners', round: 1, position: 0, home: 'a', away: 'b' }), 'Quarter-final'),
  at(match({ id: 'qf2', role: 'winners', round: 1, position: 1, home: 'c', away: 'd' }), 'Quarter-final'),
  at(match({ id: 'qf3', role: 'winners', round: 1, position: 2, home: 'e', away: 'f' }), 'Quarter-final'),
  at(match({ id: 'qf4', role: 'winners', round: 1, position: 3, home: 'g', away: 'h' }), 'Quarter-final'),
  at(match({ id: 'sf2', role: 'winners', round: 2, position: 1, home: W('qf3'), away: W('qf4') }), 'Semi-final'),
  at(match({ id: 'sf1', role: 'winners', round: 2, position: 0, home: W('qf1'), away: W('qf2') }), 'Semi-final'),
  at(match({ id: 'final', role: 'winners', round: 3, home: W('sf1'), away: W('sf2') }), 'Final'),
  at(match({ id: 'third', role: 'third_place', round: 3, home: L('sf1'), away: L('sf2') }), 'Third place'),
];

describe('undecided slots in the calendar', () => {
  it.each([
    ['en', 'final', 'Winner of Semi-final 1 vs Winner of Semi-final 2'],
    ['en', 'third', 'Loser of Semi-final 1 vs Loser of Semi-final 2'],
    ['en', 'sf1', 'Winner of Quarter-final 1 vs Winner of Quarter-final 2'],
    ['en', 'sf2', 'Winner of Quarter-final 3 vs Winner of Quarter-final 4'],
    ['ar', 'final', '\u200F\u2068الفائز في Semi-final 1\u2069 ضد \u2068الفائز في Semi-final 2\u2069'],
  ] as const)('%s %s: %s', (language, id, summary) => {
    const feed = calendarFeed(event(language), cup, teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches.find((m) => m.id === id)!.summary).toBe(summary);
  });

  it('never gives two undecided slots of one match the same words, in any round', () => {
    for (const language of ['en', 'ar'] as const) {
      const feed = calendarFeed(event(language), cup, teams, { uidDomain: 'x.example', refreshMinutes: 5 });
      for (const m of feed.matches) {
        const [home, away] = m.summary.split(language === 'en' ? ' vs ' : ' ضد ');
        expect(home, m.summary).not.toBe(away);
      }
    }
  });

  // A review's quarter-finals (two ties of two legs, then two single matches) read "Winner of Quarter-final 2 vs
  // Winner of Quarter-final 4", each leg counted; and a hybrid's final counted its group matches in "Round 1".
  it('counts a two-legged tie once, and a group match not at all', () => {
    const leg = (m: MatchFacts, legNo: 1 | 2, first?: string): MatchFacts => ({ ...m, leg: legNo, first_leg_match_id: first ?? null });
    const legs = [
      leg(at(match({ id: 'qf1a', role: 'winners', round: 1, position: 0, home: 'a', away: 'b' }), 'Quarter-final'), 1),
      leg(at(match({ id: 'qf1b', role: 'winners', round: 1, position: 0, home: 'b', away: 'a' }), 'Quarter-final'), 2, 'qf1a'),
      leg(at(match({ id: 'qf2a', role: 'winners', round: 1, position: 1, home: 'c', away: 'd' }), 'Quarter-final'), 1),
      leg(at(match({ id: 'qf2b', role: 'winners', round: 1, position: 1, home: 'd', away: 'c' }), 'Quarter-final'), 2, 'qf2a'),
      at(match({ id: 'qf3', role: 'winners', round: 1, position: 2, home: 'e', away: 'f' }), 'Quarter-final'),
      at(match({ id: 'qf4', role: 'winners', round: 1, position: 3, home: 'g', away: 'h' }), 'Quarter-final'),
      at(match({ id: 'sf1', role: 'winners', round: 2, position: 0, home: W('qf1b'), away: W('qf2b') }), 'Semi-final'),
      at(match({ id: 'sf2', role: 'winners', round: 2, position: 1, home: W('qf3'), away: W('qf4') }), 'Semi-final'),
    ];
    const feed = calendarFeed(event('en'), legs, teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    const summary = (id: string) => feed.matches.find((m) => m.id === id)!.summary;
    expect(summary('sf1')).toBe('Winner of Quarter-final 1 vs Winner of Quarter-final 2');
    expect(summary('sf2')).toBe('Winner of Quarter-final 3 vs Winner of Quarter-final 4');

    const groups = 'abcd'.split('').map((id, i) => ({ ...match({ id: `g${i}`, role: null, round: 1, home: id, away: 'abcd'[(i + 1) % 4]!, group: 'Group A' }), kickoff_at: '2026-05-01T18:00:00Z' }));
    const hybrid = [
      ...groups,
      { ...match({ id: 'k1', role: 'winners', round: 1, position: 0, home: 'a', away: 'b' }), kickoff_at: '2026-05-01T18:00:00Z' },
      { ...match({ id: 'k2', role: 'winners', round: 1, position: 1, home: 'c', away: 'd' }), kickoff_at: '2026-05-01T18:00:00Z' },
      { ...match({ id: 'k3', role: 'winners', round: 2, position: 0, home: W('k1'), away: W('k2') }), kickoff_at: '2026-05-01T18:00:00Z' },
    ];
    const mixed = calendarFeed({ ...event('en'), competition_type: 'hybrid' }, hybrid, teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(mixed.matches.find((m) => m.id === 'k3')!.summary).toBe('Winner of Round 1 (1) vs Winner of Round 1 (2)');
  });

  // Both legs of a tie are fed by the same winners, so the match a quarter-final's winner goes on to may be either leg:
  // followers read "Team A go through to Semi-final 2" from whichever is read last, and a first leg saying
  // "Semi-final" alone would not tell them which tie.
  it('gives a tie\'s first leg its second leg\'s number', () => {
    const leg = (m: MatchFacts, legNo: 1 | 2, first?: string): MatchFacts => ({ ...m, leg: legNo, first_leg_match_id: first ?? null });
    const semis = [
      ...cup.filter((m) => m.id.startsWith('qf')),
      leg(at(match({ id: 'sf1a', role: 'winners', round: 2, position: 0, home: W('qf1'), away: W('qf2') }), 'Semi-final'), 1),
      leg(at(match({ id: 'sf1b', role: 'winners', round: 2, position: 0, home: W('qf2'), away: W('qf1') }), 'Semi-final'), 2, 'sf1a'),
      leg(at(match({ id: 'sf2a', role: 'winners', round: 2, position: 1, home: W('qf3'), away: W('qf4') }), 'Semi-final'), 1),
      leg(at(match({ id: 'sf2b', role: 'winners', round: 2, position: 1, home: W('qf4'), away: W('qf3') }), 'Semi-final'), 2, 'sf2a'),
    ];
    const names = matchNames(event('en'), semis, teams);
    expect(['sf1a', 'sf1b', 'sf2a', 'sf2b'].map((id) => names.get(id)!.numberedLabel)).toEqual(['Semi-final 1', 'Semi-final 1', 'Semi-final 2', 'Semi-final 2']);
  });

  // A label ending in a number keeps it apart from the match's: a review read "الفائز في دور الـ16 5".
  it.each([
    ['en', 'Round of 16', 'Winner of Round of 16 (1) vs Winner of Round of 16 (2)'],
    ['en', 'Last 16', 'Winner of Last 16 (1) vs Winner of Last 16 (2)'],
    ['en', 'Eighth-final', 'Winner of Eighth-final 1 vs Winner of Eighth-final 2'],
    ['ar', 'دور الـ16', '\u200F\u2068الفائز في دور الـ16 (1)\u2069 ضد \u2068الفائز في دور الـ16 (2)\u2069'],
    ['ar', 'دور الـ١٦', '\u200F\u2068الفائز في دور الـ١٦ (1)\u2069 ضد \u2068الفائز في دور الـ١٦ (2)\u2069'],
  ] as const)('%s "%s": %s', (language, round, summary) => {
    const r16 = [
      at(match({ id: 'r1', role: 'winners', round: 1, position: 0, home: 'a', away: 'b' }), round),
      at(match({ id: 'r2', role: 'winners', round: 1, position: 1, home: 'c', away: 'd' }), round),
      at(match({ id: 'qf', role: 'winners', round: 2, position: 0, home: W('r1'), away: W('r2') }), 'Quarter-final'),
    ];
    const feed = calendarFeed(event(language), r16, teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches.find((m) => m.id === 'qf')!.summary).toBe(summary);
  });

  it('keeps a label that only one match carries as it is', () => {
    const feed = calendarFeed(event('en'), cup, teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches.find((m) => m.id === 'final')!.description).toBe('Cup\nFinal');
  });
});

// Outlook draws a STATUS:CANCELLED event as if it took place, and a postponed match stays at its old kickoff
// (STATUS:TENTATIVE, drawn like any event by Google Calendar and Outlook): the title is what every app shows.
describe('a match that will not be played at its time says so in its title', () => {
  const played = (status: MatchFacts['status']) => [at(match({ id: 'qf1', role: 'winners', round: 1, home: 'a', away: 'b', result: { status } }), 'Quarter-final')];
  it.each([
    ['en', 'scheduled', 'Team A vs Team B'],
    ['en', 'in_progress', 'Team A vs Team B'],
    ['en', 'completed', 'Team A vs Team B'],
    ['en', 'postponed', 'Postponed: Team A vs Team B'],
    ['en', 'cancelled', 'Cancelled: Team A vs Team B'],
    ['ar', 'postponed', '\u200Fمؤجلة: \u2068Team A\u2069 ضد \u2068Team B\u2069'],
    ['ar', 'cancelled', '\u200Fملغاة: \u2068Team A\u2069 ضد \u2068Team B\u2069'],
  ] as const)('%s %s: %s', (language, status, summary) => {
    const feed = calendarFeed(event(language), played(status), teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches[0]!.summary).toBe(summary);
    expect(feed.matches[0]!.status).toBe(status);
  });
});

// A competition cancelled as a whole: its matches not played will not be, whatever their own status still says.
describe('the matches of a cancelled competition', () => {
  const cancelledCup = { ...event('en'), status: 'cancelled' as const };
  it.each([
    ['scheduled', 'cancelled', 'Cancelled: Team A vs Team B'],
    ['postponed', 'cancelled', 'Cancelled: Team A vs Team B'],
    ['in_progress', 'cancelled', 'Cancelled: Team A vs Team B'],
    ['cancelled', 'cancelled', 'Cancelled: Team A vs Team B'],
    ['completed', 'completed', 'Team A vs Team B'],
  ] as const)('a %s match is %s: %s', (own, status, summary) => {
    const m = at(match({ id: 'qf1', role: 'winners', round: 1, home: 'a', away: 'b', result: { status: own } }), 'Quarter-final');
    const feed = calendarFeed(cancelledCup, [m], teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches[0]!.status).toBe(status);
    expect(feed.matches[0]!.summary).toBe(summary);
    expect(feed.matches[0]!.description.split('\n').at(-1)).toBe(status === 'cancelled' ? 'Cancelled' : 'Quarter-final');
  });
});

describe('the feed\'s name and a match\'s location', () => {
  it.each([
    ['Spring Cup', 'Riverside Sunday League', 'Spring Cup — Riverside Sunday League'],
    ['Premier Division 2026–27', 'Premier Division', 'Premier Division 2026–27'],
    ['premier  division 2026', 'Premier Division', 'premier  division 2026'],
    ['Division', 'Premier Division', 'Division — Premier Division'],
    ['دوري الأشبال 2026', 'دوري الأشبال', 'دوري الأشبال 2026'],
  ])('%s of %s: %s', (eventName, leagueName, name) => {
    expect(calendarName(eventName, leagueName)).toBe(name);
  });

  // A calendar user's review: an Arabic competition whose name starts with Latin letters showed its name left to right;
  // a native Arabic review: a Latin name's final full stop showed first (each name isolated, as in the other lines).
  it.each([
    ['en', 'Cup', 'L', 'Cup — L'],
    ['ar', 'Cup', 'L', '\u200F\u2068Cup\u2069 — \u2068L\u2069'],
    ['ar', 'Cup 2026', 'Amman Youth F.A.', '\u200F\u2068Cup 2026\u2069 — \u2068Amman Youth F.A.\u2069'],
    ['ar', 'دوري الأشبال 2026', 'دوري الأشبال', '\u200F\u2068دوري الأشبال 2026\u2069'],
  ] as const)('an %s feed is named with its lines\' direction: %s of %s', (language, eventName, leagueName, name) => {
    const e = { ...event(language), name: eventName, league_name: leagueName };
    expect(calendarFeed(e, [], teams, { uidDomain: 'x.example', refreshMinutes: 5 }).calendarName).toBe(name);
  });

  it.each([
    ['en', 'Pitch 2, Riverside'],
    ['ar', '\u200F\u2068Pitch 2\u2069، \u2068Riverside\u2069'],
  ] as const)('%s: the venue and the city joined in the language\'s own comma', (language, location) => {
    const feed = calendarFeed({ ...event(language), venue_city: 'Riverside' }, [{ ...cup[0]!, venue: 'Pitch 2' }], teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches[0]!.location).toBe(location);
  });
});

// iCalendar has no direction: an app takes each line's from its first strong letter. A review's Arabic World Cup feed
// had "Brazil ضد وصيف Group H" shown left to right, the teams the wrong way round.
describe('an Arabic feed reads right to left whatever its names', () => {
  it('starts every line with RLM and isolates each name; an English feed is left as it is', () => {
    const m = { ...at(match({ id: 'qf1', role: 'winners', round: 1, home: 'a', away: 'b', result: { status: 'completed', score: [2, 1] } }), 'Quarter-final'), venue: 'Lusail Stadium' };
    const ar = calendarFeed({ ...event('ar'), venue_city: 'Lusail' }, [m], teams, { uidDomain: 'x.example', refreshMinutes: 5 }).matches[0]!;
    expect(ar.summary).toBe('\u200F\u2068Team A\u2069 ضد \u2068Team B\u2069');
    expect(ar.location).toBe('\u200F\u2068Lusail Stadium\u2069، \u2068Lusail\u2069');
    for (const line of ar.description.split('\n')) expect(line.startsWith('\u200F'), line).toBe(true);
    expect(ar.description).toContain('\u2068Quarter-final\u2069');
    expect(ar.description).toContain('النتيجة: \u2068Team A\u2069 2–1 \u2068Team B\u2069');
    const en = calendarFeed({ ...event('en'), venue_city: 'Lusail' }, [m], teams, { uidDomain: 'x.example', refreshMinutes: 5 }).matches[0]!;
    expect(en.summary).toBe('Team A vs Team B');
    expect(`${en.summary}${en.description}${en.location}`).not.toMatch(/[\u200F\u2068\u2069]/);
  });
});

// A native Arabic review read "النتيجة: ⁨Team B⁩ (انسحاب)" as Team B having withdrawn: the walkover's winner is said as
// the winner.
describe('a walkover names its winner as the winner', () => {
  it.each([
    ['en', 'Result: Team B (walkover)'],
    ['ar', '\u200Fالنتيجة: فوز \u2068Team B\u2069 بالانسحاب'],
  ] as const)('%s: %s', (language, result) => {
    const m = at(match({ id: 'qf1', role: 'winners', round: 1, home: 'a', away: 'b', result: { walkover: 'away' } }), 'Quarter-final');
    const feed = calendarFeed(event(language), [m], teams, { uidDomain: 'x.example', refreshMinutes: 5 });
    expect(feed.matches[0]!.description.split('\n')).toContain(result);
    expect(feed.matches[0]!.description).not.toContain('(انسحاب)');
  });
});

// A native Arabic review read "(4–3 ركلات الترجيح)" as a count of kicks: the score is said after how it was made.
describe('penalties say how the tie was decided', () => {
  it.each([
    ['en', 'Result: Team A 1–1 Team B (4–3 pens)'],
    ['ar', '\u200Fالنتيجة: \u2068Team A\u2069 1–1 \u2068Team B\u2069 (بركلات الترجيح 4–3)'],
  ] as const)('%s: %s', (language, result) => {
    const m = at(match({ id: 'qf1', role: 'winners', round: 1, home: 'a', away: 'b', result: { score: [1, 1], pens: [4, 3] } }), 'Quarter-final');
    expect(calendarFeed(event(language), [m], teams, { uidDomain: 'x.example', refreshMinutes: 5 }).matches[0]!.description.split('\n')).toContain(result);
  });
});

// What a match's entry says of its tie, its time and its teams, at the edges a mutation review found untested.
describe('a match in the feed', () => {
  const feedOf = (matches: MatchFacts[], rules?: EventFacts['rules']) =>
    calendarFeed({ ...event('en'), ...(rules ? { rules } : {}) }, matches, teams, { uidDomain: 'x.example', refreshMinutes: 5 }).matches;
  const legs = (first: [number, number], second: [number, number]): MatchFacts[] => [
    { ...at(match({ id: 't1', role: 'winners', round: 1, home: 'b', away: 'a', result: { score: first } }), 'Final'), leg: 1 },
    { ...at(match({ id: 't2', role: 'winners', round: 1, home: 'a', away: 'b', result: { score: second } }), 'Final'), leg: 2, first_leg_match_id: 't1' },
  ];
  const awayGoals = { ...DEFAULT_RULES, away_goals_rule: true };

  it.each<[string, MatchFacts[], string]>([
    // Level on aggregate, a scored more away: said, and whose.
    ['a tie won on away goals', legs([2, 2], [1, 1]), 'Aggregate: Team A 3–3 Team B (Team A through on away goals)'],
    // Not level: away goals decide nothing, however many each scored away.
    ['a tie won on aggregate', legs([2, 1], [3, 0]), 'Aggregate: Team A 4–2 Team B'],
  ])('%s', (_label, matches, line) => {
    expect(feedOf(matches, awayGoals).find((m) => m.id === 't2')!.description.split('\n')).toContain(line);
  });

  it('has no entry for a bye, whichever slot is empty', () => {
    const byes = [at(match({ id: 'b1', role: 'winners', round: 1, home: 'a', away: null }), 'Round 1'), at(match({ id: 'b2', role: 'winners', round: 1, position: 1, home: null, away: 'b' }), 'Round 1')];
    expect(feedOf(byes)).toEqual([]);
  });

  it('ends at its own end where it has one, else after the event\'s match length', () => {
    const ends = feedOf([{ ...at(match({ id: 'e1', role: 'winners', round: 1, home: 'a', away: 'b' }), 'Final'), ends_at: '2026-05-01T21:00:00Z' }, at(match({ id: 'e2', role: 'winners', round: 1, position: 1, home: 'c', away: 'd' }), 'Final')]);
    expect(ends.map((m) => [m.id, m.end])).toEqual([['e1', '2026-05-01T21:00:00Z'], ['e2', '2026-05-01T19:30:00Z']]);
  });

  // One side's count alone is no result (the import refuses it; a row from elsewhere must not print "null").
  it.each<[string, Partial<MatchFacts>, string[]]>([
    ['penalties with one count', { home_score: 1, away_score: 1, home_penalties: 4, away_penalties: null }, ['Result: Team A 1–1 Team B']],
  ])('%s', (_label, facts, lines) => {
    const m = { ...at(match({ id: 'p1', role: 'winners', round: 1, home: 'a', away: 'b', result: { score: [1, 1] } }), 'Final'), ...facts };
    expect(feedOf([m])[0]!.description.split('\n').filter((l) => l.startsWith('Result'))).toEqual(lines);
  });

  it('gives no aggregate when the first leg has one side\'s score only', () => {
    const [first, second] = legs([1, 0], [1, 0]);
    expect(feedOf([{ ...first!, away_score: null }, second!]).find((m) => m.id === 't2')!.description).not.toContain('Aggregate');
  });
});
