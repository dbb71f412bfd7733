// Knockout slots fed by the best-placed teams of several groups (README "Group stage to knockout"), through the real
// import (what it refuses, and why), a real SQLite file with the real migrations, the regeneration job, and the
// published bracket, event list and calendars read back (the calendars with ical.js). Generated groups, so that it
// runs without ../shared (test/real-data/rules-real.test.ts runs EURO 2020 itself).
import ICAL from 'ical.js';
import { afterAll, describe, expect, it } from 'vitest';
import { applyImport, parseImport } from '../src/import/load.js';
import { migratedDb, type TestDb } from './support/db.js';
import { importAndRender } from './support/rendered.js';
import { withoutDirectionMarks } from './support/visible-text.js';

type Json = any; // import files built and edited by hand

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'];
const G = (x: string) => `Group ${x}`;
/** UEFA EURO 2020 Regulations: for the groups of the four qualifying thirds, the thirds that 1B, 1C, 1E, 1F meet. */
export const EURO_2020_ALLOCATION = [
  ['ABCD', 'ADBC'], ['ABCE', 'AEBC'], ['ABCF', 'AFBC'], ['ABDE', 'DEAB'], ['ABDF', 'DFAB'], ['ABEF', 'EFBA'], ['ACDE', 'EDCA'], ['ACDF', 'FDCA'],
  ['ACEF', 'EFCA'], ['ADEF', 'EFDA'], ['BCDE', 'EDBC'], ['BCDF', 'FDCB'], ['BCEF', 'FECB'], ['BDEF', 'FEDB'], ['CDEF', 'FEDC'],
].map(([g, s]) => ({ groups: [...(g as string)].map(G), slots: [...(s as string)].map(G) }));

/**
 * Six generated groups of four: in each, team 1 beats everyone 1-0, team 2 beats 3 and 4 1-0, team 3 beats team 4
 * k-0 (k from `margins`). Each third has 3 points, one win, goal difference k - 2 and k goals: `margins` orders them.
 * The round of 16's four matches of group winners against the best thirds (1B, 1C, 1E, 1F against slots 1-4), then
 * semi-finals and a final, each won by its home side once played.
 */
function tournament(options: { margins?: Record<string, number>; language?: 'en' | 'ar'; allocation?: boolean; played?: boolean; decisions?: Json[]; edit?: (matches: Json[]) => void } = {}): Json {
  const margins = { A: 3, B: 1, C: 4, D: 2, E: 1, F: 5, ...options.margins };
  const played = options.played ?? true;
  const matches: Json[] = [];
  for (const x of LETTERS) {
    const t = (n: number) => `${x.toLowerCase()}${n}`;
    const k = margins[x as keyof typeof margins];
    const fixtures: [number, number, [number, number]][] = [[1, 2, [1, 0]], [3, 4, [k, 0]], [1, 3, [1, 0]], [2, 4, [1, 0]], [1, 4, [1, 0]], [2, 3, [1, 0]]];
    fixtures.forEach(([h, a, score], i) =>
      matches.push({
        id: `g${x.toLowerCase()}-${i + 1}`, round: Math.floor(i / 2) + 1, group: G(x), home: t(h), away: t(a),
        kickoff: `2026-06-${String(10 + Math.floor(i / 2)).padStart(2, '0')}T18:00:00Z`, status: 'completed', score: { home: score[0], away: score[1] },
      }),
    );
  }
  const ko = (id: string, round: number, position: number, home: Json, away: Json, day: number) => ({
    id, round, position, bracket_role: 'winners', round_name: round === 4 ? 'Round of 16' : round === 5 ? 'Semi-final' : 'Final',
    home, away, kickoff: `2026-06-${day}T19:00:00Z`, ...(played ? { status: 'completed', score: { home: 1, away: 0 } } : { status: 'scheduled' }),
  });
  ['B', 'C', 'E', 'F'].forEach((x, i) => matches.push(ko(`r16-${i + 1}`, 4, i, { group: G(x), position: 1 }, { best_placed: 'thirds', slot: i + 1 }, 20 + i)));
  matches.push(ko('sf-1', 5, 0, { winner_of: 'r16-1' }, { winner_of: 'r16-2' }, 25), ko('sf-2', 5, 1, { winner_of: 'r16-3' }, { winner_of: 'r16-4' }, 26));
  matches.push(ko('final', 6, 0, { winner_of: 'sf-1' }, { winner_of: 'sf-2' }, 28));
  options.edit?.(matches);
  return {
    organizations: [{
      id: 'syn', name: 'Synthetic FA', language: options.language ?? 'en',
      teams: LETTERS.flatMap((x) => [1, 2, 3, 4].map((n) => ({ id: `${x.toLowerCase()}${n}`, name: `Team ${x}${n}` }))),
      leagues: [{ id: 'syn-league', name: 'Synthetic', events: [{
        id: 'syn-cup', name: 'Synthetic Cup', type: 'hybrid', status: 'in_progress', tiebreakers: 'uefa',
        decisions: options.decisions ?? [],
        best_placed: [{ id: 'thirds', position: 3, qualify: 4, ...(options.allocation === false ? {} : { allocation: structuredClone(EURO_2020_ALLOCATION) }) }],
        matches,
      }] }],
    }],
  };
}

function problems(json: Json): string[] {
  const parsed = parseImport(JSON.stringify(json));
  return parsed.ok ? [] : parsed.problems.map((p) => `${p.path}: ${p.message}`);
}
const EV = 'organizations[0] ("syn").leagues[0] ("syn-league").events[0] ("syn-cup")';
const rule = (json: Json): Json => json.organizations[0].leagues[0].events[0].best_placed[0];
const matchesOf = (json: Json): Json[] => json.organizations[0].leagues[0].events[0].matches;
const edited = (edit: (json: Json) => void): Json => {
  const json = tournament();
  edit(json);
  return json;
};
const R16 = (i: number) => `${EV}.matches[${36 + i}] ("${matchesOf(tournament())[36 + i].id}")`;

describe('import: best-placed rules and the slots they feed', () => {
  it.each<[string, Json, string[]]>([
    ['EURO 2020\'s rule and table', tournament(), []],
    ['a rule without a table', tournament({ allocation: false }), []],
    ['groups listed', edited((j) => (rule(j).groups = LETTERS.map(G))), []],
    ['a group the event does not have', edited((j) => (rule(j).groups = ['Group A', 'Group G'])), [`${EV}.best_placed[0].groups[1]: "Group G" is not a group of this event`]],
    ['a group twice', edited((j) => (rule(j).groups = ['Group A', 'Group A'])), [`${EV}.best_placed[0].groups[1]: "Group A" is listed twice`]],
    ['one group', edited((j) => (rule(j).groups = ['Group A'])), [`${EV}.best_placed[0].groups: must name at least two groups`]],
    ['a position the groups do not have', edited((j) => (rule(j).position = 5)), [`${EV}.best_placed[0].position: the groups have 4 teams`]],
    ['more qualifying than groups', edited((j) => { rule(j).qualify = 7; delete rule(j).allocation; }), [`${EV}.best_placed[0].qualify: must be at most the number of groups (6)`]],
    ['a head-to-head criterion', edited((j) => (rule(j).ranking = ['points', 'head_to_head_points'])), [`${EV}.best_placed[0].ranking[1]: must be one of points, goal_difference, goals_for, wins, away_goals_for, decision, name`]],
    ['a criterion twice', edited((j) => (rule(j).ranking = ['points', 'wins', 'points'])), [`${EV}.best_placed[0].ranking[2]: "points" is listed twice`]],
    ['a table row missing', edited((j) => rule(j).allocation.pop()), [`${EV}.best_placed[0].allocation: must have 15 rows, one per combination of 4 groups out of 6 (has 14)`]],
    ['a combination twice', edited((j) => (rule(j).allocation[14] = EURO_2020_ALLOCATION[0])), [`${EV}.best_placed[0].allocation[14].groups: the same groups as allocation[0]: one row per combination`]],
    ['a row\'s slots not a permutation of its groups', edited((j) => (rule(j).allocation[7].slots = ['Group F', 'Group D', 'Group C', 'Group C'])), [`${EV}.best_placed[0].allocation[7].slots: must list the groups of "groups", each once, in slot order`]],
    ['a row of three groups', edited((j) => (rule(j).allocation[0] = { groups: ['Group A', 'Group B', 'Group C'], slots: ['Group A', 'Group B', 'Group C'] })), [
      `${EV}.best_placed[0].allocation[0].groups: must name 4 groups (the number that qualify), not 3`,
    ]],
    ['a group outside the rule in a row', edited((j) => { rule(j).groups = ['Group A', 'Group B', 'Group C', 'Group D', 'Group E']; rule(j).allocation = [{ groups: ['Group A', 'Group B', 'Group C', 'Group F'], slots: ['Group A', 'Group B', 'Group C', 'Group F'] }]; }), [
      `${EV}.best_placed[0].allocation[0].groups[3]: "Group F" is not one of the rule's groups`,
      `${EV}.best_placed[0].allocation: must have 5 rows, one per combination of 4 groups out of 5 (has 1)`,
    ]],
    ['groups of different sizes', edited((j) => {
      j.organizations[0].teams.push({ id: 'a5', name: 'Team A5' });
      matchesOf(j).push({ id: 'ga-extra', group: 'Group A', home: 'a1', away: 'a5' });
    }), [
      `${EV}.best_placed[0].position: the groups have different numbers of teams (Group A: 5, Group B: 4, Group C: 4, Group D: 4, Group E: 4, Group F: 4): records over different numbers of matches do not compare`,
    ]],
    ['two rules with one id', edited((j) => j.organizations[0].leagues[0].events[0].best_placed.push({ id: 'thirds', position: 2, qualify: 2 })), [`${EV}.best_placed[1].id: "thirds" is the id of best_placed[0] already`]],
    ['a rule in a knockout event', edited((j) => { const ev = j.organizations[0].leagues[0].events[0]; ev.type = 'knockout'; ev.matches = [{ id: 'k1', home: 'a1', away: 'a2' }]; }), [`${EV}.best_placed[0]: only a hybrid event ranks the teams of several groups`]],
    ['a slot of a rule the event does not have', edited((j) => (matchesOf(j)[36].away = { best_placed: 'seconds', slot: 1 })), [`${R16(0)}.away.best_placed: "seconds" is not a best_placed rule of this event`]],
    ['a slot the rule does not have', edited((j) => (matchesOf(j)[36].away = { best_placed: 'thirds', slot: 5 })), [`${R16(0)}.away.slot: "thirds" has 4 slots`]],
    ['a slot used twice', edited((j) => (matchesOf(j)[37].away = { best_placed: 'thirds', slot: 1 })), [`${R16(1)}.away: slot 1 of "thirds" already feeds match "r16-1"`]],
    ['slot 0', edited((j) => (matchesOf(j)[36].away = { best_placed: 'thirds', slot: 0 })), [`${R16(0)}.away.slot: Too small: expected number to be >=1`]],
    ['a group match fed by it', edited((j) => (matchesOf(j)[0].away = { best_placed: 'thirds', slot: 1 })), [
      `${EV}.matches[0] ("ga-1").away: only a bracket match of a hybrid event can be fed by the best-placed teams of several groups`,
    ]],
    // A decision recorded for the ranking across groups counts even when the group tie-breakers have no decision step.
    ['a decision with no decision step but the rule\'s', edited((j) => {
      const ev = j.organizations[0].leagues[0].events[0];
      ev.tiebreakers = 'default';
      ev.decisions = [{ teams: ['b3', 'e3'], order: ['e3', 'b3'], reason: 'disciplinary points' }];
    }), []],
    ['…and refused when the rule has none either', edited((j) => {
      const ev = j.organizations[0].leagues[0].events[0];
      ev.tiebreakers = 'default';
      ev.decisions = [{ teams: ['b3', 'e3'], order: ['e3', 'b3'], reason: 'disciplinary points' }];
      rule(j).ranking = ['points', 'goal_difference'];
    }), [`${EV}.decisions: the tie-breakers list no "decision" criterion, so no decision would ever count: add "decision" to the list, or use a preset that has it (fifa_world_cup, uefa, premier_league, la_liga, serie_a, bundesliga)`]],
  ])('%s', (_name, json, expected) => {
    expect(problems(json)).toEqual(expected);
  });

  it('a two-legged tie names its slot in both legs: one use', () => {
    const json = edited((j) => {
      const ms = matchesOf(j);
      const r16 = ms.find((m: Json) => m.id === 'r16-1');
      ms.push({ ...r16, id: 'r16-1a', leg: 1, home: r16.away, away: r16.home, status: 'completed', score: { home: 0, away: 0 } });
      Object.assign(r16, { leg: 2, first_leg: 'r16-1a' });
    });
    expect(problems(json)).toEqual([]);
  });
});

const opened: TestDb[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

interface Slot { match_id: string; side: string; team_id: string | null; source_best_placed?: string; source_slot?: number; source_position?: number; source_groups?: string[]; source_group?: string }
/** Imports into a fresh migrated database, regenerates, and reads back what the public reads. */
async function publish(file: Json): Promise<{ bracket: Slot[]; champion: string | null; summaries: Map<string, string>; teamCalendar: (id: string) => string[]; bytes: (p: string) => string }> {
  const t = await migratedDb();
  opened.push(t);
  const read = await importAndRender(t, file, 'syn.example');
  const events = JSON.parse(read('api/v0/events.json')) as { event_id: string; champion_name: string | null }[];
  const vevents = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
  const summaries = new Map(vevents(read('api/v0/calendar/syn-cup.ics')).map((v) => [String(v.getFirstPropertyValue('uid')).split('.')[0] as string, withoutDirectionMarks(String(v.getFirstPropertyValue('summary')))]));
  return {
    bracket: JSON.parse(read('api/v0/events/syn-cup/bracket.json')) as Slot[],
    champion: events.find((e) => e.event_id === 'syn-cup')?.champion_name ?? null,
    summaries,
    teamCalendar: (id) => vevents(read(`api/v0/teams/${id}.calendar.ics`)).map((v) => String(v.getFirstPropertyValue('uid')).split('.')[0] as string).filter((u) => u.startsWith('r16')),
    bytes: read,
  };
}
const r16 = (bracket: Slot[]) => [1, 2, 3, 4].map((i) => bracket.filter((s) => s.match_id === `r16-${i}`).map((s) => s.team_id).join(' v '));

describe('generated groups: the best thirds fill the round of 16 by the allocation table', () => {
  it('thirds of A, C, D, F through (B and E level below the line): 1B v 3F, 1C v 3D, 1E v 3C, 1F v 3A; a champion', async () => {
    const out = await publish(tournament());
    expect(r16(out.bracket)).toEqual(['b1 v f3', 'c1 v d3', 'e1 v c3', 'f1 v a3']);
    const slot = out.bracket.find((s) => s.match_id === 'r16-1' && s.side === 'away');
    expect(slot).toEqual({
      match_id: 'r16-1', round_ordinal: 4, side: 'away', team_id: 'f3', bracket_role: 'winners', source_match_id: null, source_outcome: null,
      status: 'completed', winner_team_id: 'b1', team_name: 'Team F3', kickoff_at: '2026-06-20T19:00:00Z', score: 0, penalties: null, leg: null, first_leg_match_id: null, source_group: null,
      source_position: 3, source_best_placed: 'thirds', source_slot: 1, source_groups: ['Group A', 'Group D', 'Group E', 'Group F'], team_name_ar: null,
      round_name: expect.any(String), walkover: false, after_extra_time: false,
    });
    // The group-fed slot beside it has its group and no rule of the best-placed.
    expect(out.bracket.find((s) => s.match_id === 'r16-1' && s.side === 'home')).toMatchObject({
      source_group: 'Group B', source_position: 1, source_best_placed: null, source_slot: null, source_groups: null,
    });
    expect(out.champion).toBe('Team B1');
    expect(out.summaries.get('r16-1')).toBe('Team B1 vs Team F3');
    // The team calendar of a qualifying third has its round of 16 match; that of a third that went out has none.
    expect(out.teamCalendar('f3')).toEqual(['r16-1']);
    expect(out.teamCalendar('b3')).toEqual([]);
  });

  it('another set of thirds takes another row: B and E through instead of A and D', async () => {
    const out = await publish(tournament({ margins: { A: 1, D: 1, B: 3, E: 4 } }));
    // Thirds: F (5), E (4), C (4, level with E on everything: below the line nothing matters), B (3); row BCEF: F, E, C, B.
    expect(r16(out.bracket)).toEqual(['b1 v f3', 'c1 v e3', 'e1 v c3', 'f1 v b3']);
  });

  it('a decision awaited at the cut line: no third is placed, the calendar names the groups a slot can draw from', async () => {
    // D, B and E level on everything in 4th to 6th place: the rule's decision (disciplinary points) is not recorded yet.
    const out = await publish(tournament({ margins: { D: 1 }, played: false }));
    expect(r16(out.bracket)).toEqual(['b1 v ', 'c1 v ', 'e1 v ', 'f1 v ']);
    expect([1, 2, 3, 4].map((i) => out.summaries.get(`r16-${i}`))).toEqual([
      'Team B1 vs Place 3 in Group A, D, E or F',
      'Team C1 vs Place 3 in Group D, E or F',
      'Team E1 vs Place 3 in Group A, B, C or D',
      'Team F1 vs Place 3 in Group A, B or C',
    ]);
    expect(out.champion).toBeNull();
    // Recorded: D first of the three, so A, C, D, F go through as in the first case.
    const decided = await publish(tournament({ margins: { D: 1 }, played: false, decisions: [{ teams: ['b3', 'd3', 'e3'], order: ['d3', 'e3', 'b3'], reason: 'disciplinary points' }] }));
    expect(r16(decided.bracket)).toEqual(['b1 v f3', 'c1 v d3', 'e1 v c3', 'f1 v a3']);
  });

  it('a group unfinished: no slot is known; in Arabic the calendar says so in Arabic', async () => {
    const out = await publish(tournament({ language: 'ar', played: false, edit: (ms) => Object.assign(ms.find((m) => m.id === 'ge-6'), { status: 'scheduled', score: null }) }));
    // Group E's winner is not known either.
    expect(r16(out.bracket)).toEqual(['b1 v ', 'c1 v ', ' v ', 'f1 v ']);
    expect([1, 4].map((i) => out.summaries.get(`r16-${i}`))).toEqual([
      'Team B1 ضد المركز 3 في Group A، D، E أو F',
      'Team F1 ضد المركز 3 في Group A، B أو C',
    ]);
  });

  it('without an allocation table slot k is the k-th best, named by its rank until known (English and Arabic)', async () => {
    const known = await publish(tournament({ allocation: false }));
    // Thirds: F (5), C (4), A (3), D (2).
    expect(r16(known.bracket)).toEqual(['b1 v f3', 'c1 v c3', 'e1 v a3', 'f1 v d3']);
    const en = await publish(tournament({ allocation: false, played: false, edit: (ms) => Object.assign(ms.find((m) => m.id === 'ga-6'), { status: 'postponed', score: null }) }));
    expect(en.summaries.get('r16-1')).toBe('Team B1 vs Best place 3, no. 1');
    expect(en.bracket.find((s) => s.match_id === 'r16-1' && s.side === 'away')?.source_groups).toEqual(LETTERS.map(G));
    const ar = await publish(tournament({ allocation: false, played: false, language: 'ar', edit: (ms) => Object.assign(ms.find((m) => m.id === 'ga-6'), { status: 'postponed', score: null }) }));
    expect(ar.summaries.get('r16-4')).toBe('Team F1 ضد أفضل أصحاب المركز 3 رقم 4');
  });
});

describe('import order', () => {
  it('a new competition that lists its knockout before its groups still starts every VEVENT at SEQUENCE 0', async () => {
    // The import writes a match after those it shows (8b6e60b): a best-placed slot shows every group of its rule. Its
    // knockout numbers its rounds from 1 as the group stage does, so bracket order alone would write the round of 16
    // (round 1) before the groups' later rounds, and each of those would raise it.
    const json = tournament({ edit: (ms) => ms.reverse().forEach((m) => m.bracket_role && (m.round -= 3)) });
    const parsed = parseImport(JSON.stringify(json));
    if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
    const t = await migratedDb();
    opened.push(t);
    applyImport(t.sqlite, parsed.file);
    expect(t.sqlite.prepare(`SELECT id, sequence FROM matches WHERE sequence > 0 ORDER BY id`).all()).toEqual([]);
  });
});
