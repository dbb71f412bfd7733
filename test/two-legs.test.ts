// Two-legged ties through the import, the database and the regeneration job: one final decided on away goals, one on
// penalties in the second leg; semi-finals on aggregate feed the final through their second legs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseImport } from '../src/import/load.js';
import { migratedDb, type TestDb } from './support/db.js';
import { importAndRender } from './support/rendered.js';
import { withoutDirectionMarks } from './support/visible-text.js';

type Json = any; // import files built by hand
const W = (id: string) => ({ winner_of: id });

/** Semi-finals and a final, each two legs, a week apart; `results` gives each match's score by id. */
function knockout(id: string, awayGoalsRule: boolean, results: Record<string, Json>): Json {
  const legs: [string, number, unknown, unknown, string | null][] = [
    ['sf1-1', 1, 'a', 'b', null], ['sf1-2', 1, 'b', 'a', 'sf1-1'],
    ['sf2-1', 1, 'c', 'd', null], ['sf2-2', 1, 'd', 'c', 'sf2-1'],
    ['f-1', 2, W(`${id}-sf2-2`), W(`${id}-sf1-2`), null], ['f-2', 2, W(`${id}-sf1-2`), W(`${id}-sf2-2`), 'f-1'],
  ];
  return {
    id, name: id, type: 'knockout', status: 'completed', away_goals_rule: awayGoalsRule,
    matches: legs.map(([m, round, home, away, first], i) => ({
      id: `${id}-${m}`, round, position: Math.floor(i / 2) % 2, home, away,
      leg: first === null ? 1 : 2, ...(first === null ? {} : { first_leg: `${id}-${first}` }),
      kickoff: new Date(Date.UTC(2026, 2, 1 + 7 * i, 19)).toISOString(),
      status: 'completed', score: results[m],
    })),
  };
}

const s = (home: number, away: number, extra: Json = {}) => ({ home, away, ...extra });
const FILE = {
  organizations: [{
    id: 'two-legs', name: 'Two Legs FA',
    teams: ['a', 'b', 'c', 'd'].map((t) => ({ id: t, name: `Team ${t.toUpperCase()}` })),
    leagues: [{ id: 'cup', name: 'Cup', events: [
      // Final 2-2 on aggregate; Team A scored 2 away, Team C 1: A on away goals.
      knockout('away', true, { 'sf1-1': s(2, 0), 'sf1-2': s(1, 1), 'sf2-1': s(0, 1), 'sf2-2': s(0, 2), 'f-1': s(1, 2), 'f-2': s(0, 1) }),
      // The same final without away goals: level, extra time in the second leg, C on penalties.
      knockout('pens', false, { 'sf1-1': s(1, 0), 'sf1-2': s(0, 2), 'sf2-1': s(1, 1), 'sf2-2': s(0, 1), 'f-1': s(1, 2), 'f-2': s(0, 1, { after_extra_time: true, home_penalties: 3, away_penalties: 5 }) }),
    ] }],
  }],
};

let t: TestDb;
let read: (relPath: string) => string;
beforeEach(async () => {
  t = await migratedDb();
  read = await importAndRender(t, FILE);
});
afterEach(async () => t.close());

const bracket = (id: string) => JSON.parse(read(`api/v0/events/${id}/bracket.json`)) as Json[];
const calendar = (id: string) => read(`api/v0/calendar/${id}.ics`).replace(/\r\n[ \t]/g, '');

describe('two-legged ties', () => {
  it.each([
    ['away', 'Team A'],
    ['pens', 'Team C'],
  ])('%s: champion_name is the final tie\'s winner (%s)', (id, champion) => {
    const events = JSON.parse(read('api/v0/events.json')) as Json[];
    expect(events.find((e) => e.event_id === id).champion_name).toBe(champion);
    expect(JSON.parse(read(`api/v0/events/${id}/standings.json`))).toEqual([]);
  });

  it('the bracket: both legs, the tie\'s winner on every slot, feeds from the second legs', () => {
    const line = (x: Json) => `${x.match_id} ${x.side} ${x.team_id} leg ${x.leg} first ${x.first_leg_match_id} src ${x.source_match_id} won ${x.winner_team_id}`;
    expect(bracket('away').map(line)).toEqual([
      'away-sf1-1 home a leg 1 first null src null won a',
      'away-sf1-1 away b leg 1 first null src null won a',
      'away-sf1-2 home b leg 2 first away-sf1-1 src null won a',
      'away-sf1-2 away a leg 2 first away-sf1-1 src null won a',
      'away-sf2-1 home c leg 1 first null src null won c',
      'away-sf2-1 away d leg 1 first null src null won c',
      'away-sf2-2 home d leg 2 first away-sf2-1 src null won c',
      'away-sf2-2 away c leg 2 first away-sf2-1 src null won c',
      'away-f-1 home c leg 1 first null src away-sf2-2 won a',
      'away-f-1 away a leg 1 first null src away-sf1-2 won a',
      'away-f-2 home a leg 2 first away-f-1 src away-sf1-2 won a',
      'away-f-2 away c leg 2 first away-f-1 src away-sf2-2 won a',
    ]);
    expect(bracket('pens').filter((x) => x.match_id === 'pens-f-2').map((x) => x.winner_team_id)).toEqual(['c', 'c']);
  });

  it('the calendar has both legs of every tie, with the teams the feeds resolve to', () => {
    for (const id of ['away', 'pens']) {
      const ics = calendar(id);
      expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(6);
      expect(ics).toMatch(/SUMMARY[^:]*:Team C vs Team A\r\n/);
      expect(ics).toMatch(/SUMMARY[^:]*:Team A vs Team C\r\n/);
    }
    expect(calendar('pens')).toContain('Round 2 · Second leg\\nResult: Team A 0–1 Team C (after extra time) (3–5 pens)\\nAggregate: Team A 2–2 Team C');
    expect(calendar('away')).toContain('Round 2 · Second leg\\nResult: Team A 0–1 Team C\\nAggregate: Team A 2–2 Team C (Team A through on away goals)');
    expect(calendar('away')).toContain('Round 2 · First leg\\nResult: Team C 1–2 Team A');
  });
});

describe('two-legged ties in Arabic', () => {
  it('the calendar names the legs and the aggregate', async () => {
    const ar = await migratedDb();
    try {
      const f = structuredClone(FILE) as Json;
      f.organizations[0].language = 'ar';
      const ics = withoutDirectionMarks((await importAndRender(ar, f))('api/v0/calendar/away.ics').replace(/\r\n[ \t]/g, ''));
      expect(ics).toContain('الجولة 2 · مباراة الإياب');
      expect(ics).toContain('مجموع المباراتين: Team A 2–2 Team C (المتأهل بالأهداف خارج الأرض: Team A)');
    } finally {
      await ar.close();
    }
  });

  // An organizer's review: an Arabic organization's calendar read "U14 League 2026/27" at the top of every VEVENT.
  it('the calendar names the competition and its league by their Arabic names; the JSON reads keep the names as written', async () => {
    const ar = await migratedDb();
    try {
      const f = structuredClone(FILE) as Json;
      f.organizations[0].language = 'ar';
      f.organizations[0].leagues[0].name_ar = 'الكأس';
      f.organizations[0].leagues[0].events[0].name_ar = 'كأس الذهاب والإياب';
      const read = await importAndRender(ar, f);
      const ics = withoutDirectionMarks(read('api/v0/calendar/away.ics').replace(/\r\n[ \t]/g, ''));
      expect(ics).toContain('X-WR-CALNAME:كأس الذهاب والإياب — الكأس\r\n');
      expect(ics).toContain('DESCRIPTION;LANGUAGE=ar:كأس الذهاب والإياب\\nالجولة 2 · مباراة الإياب');
      expect(ics).not.toContain(':away\\n');
      const events = JSON.parse(read('api/v0/events.json')) as Array<{ event_id: string; event_name: string; league_name: string }>;
      expect(events.find((e) => e.event_id === 'away')).toMatchObject({ event_name: 'away', league_name: 'Cup' });
    } finally {
      await ar.close();
    }
  });
});

describe('two-legged ties at import', () => {
  const problems = (edit: (f: Json) => void): string[] => {
    const f = structuredClone(FILE) as Json;
    edit(f);
    const parsed = parseImport(JSON.stringify(f));
    return parsed.ok ? [] : parsed.problems.map((p) => `${p.path}: ${p.message}`);
  };
  const ev = (f: Json) => f.organizations[0].leagues[0].events[0];
  /** The path of the first event's match `i`, named by its id. */
  const M = (i: number) => `organizations[0] ("two-legs").leagues[0] ("cup").events[0] ("away").matches[${i}] ("${ev(FILE).matches[i].id}")`;

  it.each<[string, (f: Json) => void, string[]]>([
    ['without the away goals rule, a level final needs penalties', (f) => { ev(f).away_goals_rule = false; }, [`${M(5)}.score: the tie is level (aggregate): record the penalties`]],
    ['penalties after a tie that aggregate decides', (f) => { Object.assign(ev(f).matches[3].score, { home_penalties: 4, away_penalties: 2 }); }, [`${M(3)}.score: penalties only follow a level tie`]],
    ['a second leg without its first leg', (f) => { delete ev(f).matches[1].first_leg; }, [`${M(1)}.first_leg: a second leg names its first leg`, `${M(0)}.leg: no second leg names the first leg "away-sf1-1"`]],
    ['a second leg naming a match that is not a first leg', (f) => { ev(f).matches[3].first_leg = 'away-sf1-2'; }, [`${M(3)}.first_leg: match "away-sf1-2" is not a first leg ("leg": 1) of this event`, `${M(2)}.leg: no second leg names the first leg "away-sf2-1"`]],
    ['legs whose teams are not swapped', (f) => { ev(f).matches[1].home = 'a'; ev(f).matches[1].away = 'b'; }, [`${M(1)}.home: a second leg has its first leg's teams the other way round (first leg "away-sf1-1")`]],
    ['a feed naming a first leg', (f) => { ev(f).matches[4].home = W('away-sf2-1'); }, [`${M(4)}.home.winner_of: "away-sf2-1" is a first leg: name its second leg "away-sf2-2", which decides the tie`, `${M(5)}.home: a second leg has its first leg's teams the other way round (first leg "away-f-1")`]],
    ['penalties in a first leg', (f) => { Object.assign(ev(f).matches[4].score, { home: 1, away: 1, home_penalties: 4, away_penalties: 2 }); }, [`${M(4)}.score: a first leg has no penalties: the second leg decides the tie`]],
    ['a leg in a league', (f) => { ev(f).type = 'league'; }, expect.arrayContaining([`${M(0)}.leg: only a bracket match can be a leg of a tie`]) as unknown as string[]],
  ])('%s', (_name, edit, expected) => {
    expect(problems(edit)).toEqual(expected);
  });
});
