// The competition rules at import: what is refused (with its path), what is stored, and that files which use none of
// them still render exactly the artifacts they rendered before the rules existed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyImport, parseImport } from '../src/import/load.js';
import { NOTHING_VISIBLE } from '../src/http/fields.js';
import { regenerate } from '../src/publish/regenerate.js';
import { migratedDb, type TestDb } from './support/db.js';
import { importAndRender } from './support/rendered.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SMALL = path.join(ROOT, 'test/fixtures/import-small.json');
type Json = any; // the test edits raw import files freely
const load = (file: string): Json => JSON.parse(fs.readFileSync(file, 'utf8'));

function problems(json: Json): string[] {
  const parsed = parseImport(JSON.stringify(json));
  return parsed.ok ? [] : parsed.problems.map((p) => `${p.path}: ${p.message}`);
}

/** The small fixture's league (rs-lions, rs-rovers, rs-united) with `fields` added. */
function league(fields: Json): Json {
  const json = load(SMALL);
  Object.assign(json.organizations[0].leagues[0].events[0], fields);
  return json;
}
const EV = 'organizations[0] ("riverside").leagues[0] ("rs-sunday").events[0] ("rs-winter-2026")';

describe('import: competition rules', () => {
  it.each<[string, Json, string[]]>([
    ['a preset', { tiebreakers: 'la_liga' }, []],
    ['a list of criteria', { tiebreakers: ['points', 'head_to_head_points', 'reapply_head_to_head', 'goal_difference', 'name'] }, []],
    ['an unknown preset', { tiebreakers: 'laliga' }, [`${EV}.tiebreakers: must be a preset: default, fifa_world_cup, uefa, premier_league, la_liga, serie_a, bundesliga`]],
    ['an unknown criterion', { tiebreakers: ['points', 'fair_play'] }, [`${EV}.tiebreakers[1]: must be one of points, goal_difference, goals_for, wins, away_goals_for, away_wins, head_to_head_points, head_to_head_goal_difference, head_to_head_goals_for, head_to_head_away_goals_for, reapply_head_to_head, all_meetings_played, decision, name`]],
    ['a criterion twice', { tiebreakers: ['points', 'name', 'points'] }, [`${EV}.tiebreakers[2]: "points" is listed twice`]],
    ['all_meetings_played without head-to-head after it', { tiebreakers: ['points', 'all_meetings_played', 'goal_difference'] }, [`${EV}.tiebreakers[1]: "all_meetings_played" must come right before a head_to_head_* criterion`]],
    ['reapply without head-to-head before it', { tiebreakers: ['points', 'reapply_head_to_head'] }, [`${EV}.tiebreakers[1]: "reapply_head_to_head" must follow a head_to_head_* criterion`]],
    ['an empty list', { tiebreakers: [] }, [`${EV}.tiebreakers: must list at least one criterion`]],
    ['a decision', { tiebreakers: 'premier_league', decisions: [{ teams: ['rs-lions', 'rs-rovers'], order: ['rs-rovers', 'rs-lions'], reason: 'Drawing of lots, 2 June' }] }, []],
    ['a decision in a list with a decision step', { tiebreakers: ['points', 'decision'], decisions: [{ teams: ['rs-lions', 'rs-rovers'], order: ['rs-rovers', 'rs-lions'], reason: 'lots' }] }, []],
    // Like an adjustment outside every table: a decision the tie-breakers never reach would silently count nowhere.
    ['a decision under tie-breakers without a decision step (default)', { decisions: [{ teams: ['rs-lions', 'rs-rovers'], order: ['rs-rovers', 'rs-lions'], reason: 'lots' }] }, [`${EV}.decisions: the tie-breakers list no "decision" criterion, so no decision would ever count: add "decision" to the list, or use a preset that has it (fifa_world_cup, uefa, premier_league, la_liga, serie_a, bundesliga)`]],
    ['a decision under a list without a decision step', { tiebreakers: ['points', 'name'], decisions: [{ teams: ['rs-lions', 'rs-rovers'], order: ['rs-rovers', 'rs-lions'], reason: 'lots' }] }, [`${EV}.decisions: the tie-breakers list no "decision" criterion, so no decision would ever count: add "decision" to the list, or use a preset that has it (fifa_world_cup, uefa, premier_league, la_liga, serie_a, bundesliga)`]],
    ['a decision whose order is not its teams', { tiebreakers: 'uefa', decisions: [{ teams: ['rs-lions', 'rs-rovers'], order: ['rs-rovers', 'rs-united'], reason: 'lots' }] }, [`${EV}.decisions[0].order: must list exactly the teams of "teams", each once, best first`]],
    ['a decision naming a stranger', { tiebreakers: 'uefa', decisions: [{ teams: ['rs-lions', 'ghost'], order: ['ghost', 'rs-lions'], reason: 'lots' }] }, [`${EV}.decisions[0].teams[1]: team "ghost" is not a team of this organization`]],
    ['a decision without a reason', { tiebreakers: 'uefa', decisions: [{ teams: ['rs-lions', 'rs-rovers'], order: ['rs-rovers', 'rs-lions'] }] }, [`${EV}.decisions[0].reason: is required: text`]],
    ['an adjustment', { adjustments: [{ team: 'rs-lions', points: -8, reason: 'Breach of the rules' }] }, []],
    ['an adjustment of 0', { adjustments: [{ team: 'rs-lions', points: 0, reason: 'x' }] }, [`${EV}.adjustments[0].points: must not be 0`]],
    ['an adjustment for a stranger', { adjustments: [{ team: 'ghost', points: -1, reason: 'x' }] }, [`${EV}.adjustments[0].team: team "ghost" is not a team of this organization`]],
  ])('%s', (_name, fields, expected) => {
    expect(problems(league(fields))).toEqual(expected);
  });

  it('refuses an adjustment for a club outside every table of the event', () => {
    const json = load(SMALL);
    json.organizations[0].leagues[0].events[0].matches = json.organizations[0].leagues[0].events[0].matches.slice(0, 1);
    json.organizations[0].leagues[0].events[0].adjustments = [{ team: 'rs-united', points: -1, reason: 'x' }];
    expect(problems(json)).toEqual([`${EV}.adjustments[0].team: team "rs-united" plays no league or group match of this event`]);
  });

  it('refuses a knockout whose winners bracket ends in two matches once completed, and a winners match fed by a loser (a third-place match without its role)', () => {
    const json = load(SMALL);
    const cup = json.organizations[0].leagues[0].events[1];
    cup.matches.push({ id: 'rs-c3', round: 2, home: 'rs-rovers', away: 'rs-lions', status: 'scheduled' });
    const cupPath = 'organizations[0] ("riverside").leagues[0] ("rs-sunday").events[1] ("rs-cup-2026")';
    const message = 'the winners bracket ends in 2 matches ("rs-c2", "rs-c3") in round 2, and the competition is completed: enter its later rounds to its final, give a third-place match "bracket_role": "third_place", or, while its later rounds are still to be drawn, give the competition "status": "in_progress"';
    expect(problems(json)).toEqual([`${cupPath}.matches[1] ("rs-c2").bracket_role: ${message}`, `${cupPath}.matches[2] ("rs-c3").bracket_role: ${message}`]);
    // Fed by a loser: refused whatever the status, and whatever else is in its round (a review's cup, its final not
    // entered yet, named the beaten semi-finalist who won it champion).
    cup.status = 'in_progress';
    cup.matches[2].home = { loser_of: 'rs-c1' };
    expect(problems(json)).toEqual([
      `${cupPath}.matches[2] ("rs-c3").home.loser_of: a loser does not play on in the winners bracket: give a third-place match "bracket_role": "third_place" (a losers bracket's match "losers")`,
    ]);
    cup.matches[2].bracket_role = 'third_place';
    expect(problems(json)).toEqual([]);
  });

  // A season review: a cup drawn round by round could not be entered until its organizer made up the later pairings.
  it('takes a cup under way whose later rounds are not drawn yet, and refuses it once completed', () => {
    const json = load(SMALL);
    const cup = json.organizations[0].leagues[0].events[1];
    cup.status = 'in_progress';
    // The first round drawn (one tie played, United given a bye), nothing after it yet.
    cup.matches[1] = { id: 'rs-c2', round: 1, home: 'rs-united', away: null, status: 'scheduled' };
    expect(problems(json)).toEqual([]);
    cup.status = 'completed';
    expect(problems(json)).toHaveLength(2);
  });
});

describe('import: group feeds', () => {
  /** A hybrid event: Group A (lions, rovers), a final fed by its winner against united. */
  function hybrid(slot: Json, type = 'hybrid'): Json {
    const json = load(SMALL);
    json.organizations[0].leagues[0].events = [{
      id: 'rs-hybrid', name: 'Hybrid', type,
      matches: [
        { id: 'rs-h1', group: 'Group A', home: 'rs-lions', away: 'rs-rovers' },
        { id: 'rs-h2', bracket_role: 'winners', home: slot, away: 'rs-united' },
      ],
    }];
    return json;
  }
  const H = 'organizations[0] ("riverside").leagues[0] ("rs-sunday").events[0] ("rs-hybrid").matches[1] ("rs-h2").home';

  it("refuses a hybrid's match that is both a group match and a bracket match (found by a review: it left its group's table)", () => {
    const json = hybrid({ group: 'Group A', position: 1 });
    json.organizations[0].leagues[0].events[0].matches[0].bracket_role = 'winners';
    expect(problems(json)).toContain(
      'organizations[0] ("riverside").leagues[0] ("rs-sunday").events[0] ("rs-hybrid").matches[0] ("rs-h1").group: a bracket match is in no group: leave out "group", or "bracket_role" for a group match',
    );
  });

  it.each<[string, Json, string, string[]]>([
    ['a group winner', { group: 'Group A', position: 1 }, 'hybrid', []],
    ['a place the group does not have', { group: 'Group A', position: 3 }, 'hybrid', [`${H}.position: "Group A" has 2 teams`]],
    ['a group the event does not have', { group: 'Group B', position: 1 }, 'hybrid', [`${H}.group: "Group B" is not a group of this event`]],
    ['a knockout event', { group: 'Group A', position: 1 }, 'knockout', [`${H}: only a bracket match of a hybrid event can be fed by a group's table`]],
    ['position 0', { group: 'Group A', position: 0 }, 'hybrid', [`${H}.position: Too small: expected number to be >=1`]],
    // A review fed a final from a group match: drawn, the slot could never be filled.
    ['the winner of a group match', { winner_of: 'rs-h1' }, 'hybrid',
      [`${H}: match "rs-h1" is a group match: a group sends teams on by its table ({"group": …, "position": …}), not by one result`]],
  ])('%s', (_name, slot, type, expected) => {
    const found = problems(hybrid(slot, type));
    // A knockout event has no group stage: its group match is refused too, which this test does not look at.
    expect(found.filter((p) => p.startsWith(H))).toEqual(expected);
  });
});

describe('import: one broken element does not hide the problems under it', () => {
  // An organization's bad registration email hid every problem of its teams and matches: fixed, the next run showed
  // four more. Now each element's own problems and its children's come in one run (the cross-checks, which need the
  // element, wait for it).
  it('reports the problems under a broken organization, league, event and team', () => {
    const json = load(SMALL);
    const org = json.organizations[0];
    org.registration_emails = ['not-an-address'];
    org.teams[0].name = 'Riverside \u202ELions';
    org.teams[0].members[0].name = '';
    org.leagues[0].name = '';
    org.leagues[0].events[0].type = 'tournament';
    org.leagues[0].events[0].matches[1].kickoff = '2026-09-31T10:00:00Z';
    org.leagues[0].events[0].matches[2].round = 0;
    const found = problems(json);
    expect(found.some((p) => p.startsWith('organizations[0] ("riverside").registration_emails[0]: '))).toBe(true);
    expect(found.some((p) => p.startsWith('organizations[0] ("riverside").teams[0] ("rs-lions").name: '))).toBe(true);
    expect(found.some((p) => p.startsWith('organizations[0] ("riverside").teams[0] ("rs-lions").members[0] ("rs-lions-1").name: '))).toBe(true);
    expect(found.some((p) => p.startsWith('organizations[0] ("riverside").leagues[0] ("rs-sunday").name: '))).toBe(true);
    expect(found.some((p) => p.startsWith(`${EV}.type: `))).toBe(true);
    expect(found.some((p) => p.startsWith(`${EV}.matches[1] ("rs-m2").kickoff: `))).toBe(true);
    expect(found.some((p) => p.startsWith(`${EV}.matches[2] ("rs-m3").round: `))).toBe(true);
  });
});

describe('import: names are readable text, as in the API', () => {
  const CONTROL = 'must not contain control characters';
  const DIRECTION = 'must not contain text direction controls (U+202A to U+202E, U+2066 to U+2069)';
  const INVISIBLE = 'must not contain invisible characters: U+200B after "Riverside"';
  const TEAM = 'organizations[0] ("riverside").teams[0] ("rs-lions").name';
  it.each<[string, string, string[]]>([
    ['a vertical tab pasted from a spreadsheet', 'Riverside\u000BLions', [`${TEAM}: ${CONTROL}`]],
    ['a line break', 'Riverside\nLions', [`${TEAM}: ${CONTROL}`]],
    ['a right-to-left override, which reverses the rest of a calendar line', 'Riverside \u202ELions', [`${TEAM}: ${DIRECTION}`]],
    ['a zero width space', 'Riverside\u200BLions', [`${TEAM}: ${INVISIBLE}`]],
    ['Arabic with a right-to-left mark', 'أسود \u200FRiverside', []],
    ['the flag of Wales', 'Riverside Lions 🏴󠁧󠁢󠁷󠁬󠁳󠁿', []],
    ['a left-to-right mark alone, which shows as a blank club name', '\u200E', [`${TEAM}: ${NOTHING_VISIBLE}`]],
  ])('%s', (_label, name, expected) => {
    const json = load(SMALL);
    json.organizations[0].teams[0].name = name;
    expect(problems(json)).toEqual(expected);
  });

  it('checks every name of the file the same way: a member, an event, a group', () => {
    const json = load(SMALL);
    json.organizations[0].teams[0].members[0].name = 'Sam\u202ECarter';
    json.organizations[0].leagues[0].events[0].name = 'League\u0000';
    expect(problems(json)).toEqual([`organizations[0] ("riverside").teams[0] ("rs-lions").members[0] ("rs-lions-1").name: ${DIRECTION}`, `${EV}.name: ${CONTROL}`]);
  });
});

describe('import: one source fills one slot', () => {
  it('refuses a group place named by two slots', () => {
    const json = load(SMALL);
    json.organizations[0].leagues[0].events = [{
      id: 'rs-hybrid', name: 'Hybrid', type: 'hybrid',
      matches: [
        { id: 'rs-h1', group: 'Group A', home: 'rs-lions', away: 'rs-rovers' },
        { id: 'rs-h2', bracket_role: 'winners', round: 1, home: { group: 'Group A', position: 1 }, away: 'rs-united' },
        { id: 'rs-h3', bracket_role: 'winners', round: 1, home: { group: 'Group A', position: 2 }, away: { group: 'Group A', position: 1 } },
        { id: 'rs-h4', bracket_role: 'winners', round: 2, home: { winner_of: 'rs-h2' }, away: { winner_of: 'rs-h3' } },
      ],
    }];
    expect(problems(json)).toEqual([`organizations[0] ("riverside").leagues[0] ("rs-sunday").events[0] ("rs-hybrid").matches[2] ("rs-h3").away: place 1 of group "Group A" already feeds match "rs-h2"`]);
  });

  it("refuses a match's winner named by two slots, and takes its winner and its loser once each", () => {
    const json = load(SMALL);
    const cup = json.organizations[0].leagues[0].events[1];
    const cupPath = 'organizations[0] ("riverside").leagues[0] ("rs-sunday").events[1] ("rs-cup-2026")';
    expect(cup.matches.map((m: Json) => [m.id, m.home, m.away])).toEqual([
      ['rs-c1', 'rs-lions', 'rs-rovers'], ['rs-c2', { winner_of: 'rs-c1' }, 'rs-united'],
    ]);
    cup.matches.push({ id: 'rs-c3', round: 2, bracket_role: 'third_place', home: { winner_of: 'rs-c1' }, away: 'rs-lions', status: 'scheduled' });
    expect(problems(json)).toEqual([`${cupPath}.matches[2] ("rs-c3").home: the winner of "rs-c1" already feeds match "rs-c2"`]);
    cup.matches[2].home = { loser_of: 'rs-c1' };
    expect(problems(json)).toEqual([]);
  });
});

describe('import: extra time', () => {
  let t: TestDb;
  beforeEach(async () => {
    t = await migratedDb();
  });
  afterEach(async () => t.close());

  /** The small fixture's cup, public, its first match won after extra time; the calendar as the public reads it. */
  async function cupCalendar(language: 'en' | 'ar', score: Json): Promise<string> {
    const json = load(SMALL);
    json.organizations[0].language = language;
    const cup = json.organizations[0].leagues[0].events[1];
    cup.public = true;
    cup.matches[0].score = score;
    const read = await importAndRender(t, json);
    return read('api/v0/calendar/rs-cup-2026.ics').replace(/\r\n[ \t]/g, '');
  }

  it('the calendar says a result came after extra time, in English and in Arabic', async () => {
    const aet = { home: 2, away: 1, after_extra_time: true };
    expect(await cupCalendar('en', aet)).toContain('Result: Riverside Lions 2–1 Harbour Rovers (after extra time)');
    expect(await cupCalendar('ar', { ...aet, home: 1, away: 1, home_penalties: 5, away_penalties: 4 })).toContain('(بعد الوقت الإضافي) (بركلات الترجيح 5–4)');
  });

  it('says nothing of extra time when the score came in normal time', async () => {
    const calendar = await cupCalendar('en', { home: 2, away: 1 });
    expect(calendar).toContain('Result: Riverside Lions 2–1 Harbour Rovers');
    expect(calendar).not.toContain('extra time');
  });

  it('refuses extra time in a league match', () => {
    const json = load(SMALL);
    json.organizations[0].leagues[0].events[0].matches[0].score.after_extra_time = true;
    expect(problems(json)).toEqual([`${EV}.matches[0] ("rs-m1").score.after_extra_time: extra time only follows a level bracket match`]);
  });
});

describe('import: files without rules', () => {
  // SHA-256 of every artifact (without the API document, which documents the new fields) rendered from these files
  // by the code before competition rules existed: no `tiebreakers` means `default`, the same bytes. A later change
  // that is meant to change these artifacts refreshes the hashes with `npx vitest run test/import-rules.test.ts -u`.
  it('the demo data and the test fixture render the same artifacts, byte for byte', async () => {
    const all: Record<string, Record<string, string>> = {};
    for (const file of ['data/demo.json', 'test/fixtures/import-small.json']) {
      const one = await migratedDb();
      try {
        const parsed = parseImport(fs.readFileSync(path.join(ROOT, file), 'utf8'));
        if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
        applyImport(one.sqlite, parsed.file);
        // DTSTAMP is each match's last change, the moment of this import: pinned, as when the hashes were taken.
        one.sqlite.prepare(`UPDATE matches SET updated_at = '2026-01-01T00:00:00.000Z'`).run();
        const dir = path.join(one.dir, 'artifacts');
        await regenerate(one.db, { artifactsDir: dir, publicBaseUrl: 'https://fixtures.example', uidDomain: 'fixtures.example', refreshMinutes: 5 });
        const hashes: Record<string, string> = {};
        const walk = (d: string) => {
          for (const e of fs.readdirSync(d, { withFileTypes: true })) {
            const full = path.join(d, e.name);
            if (e.isDirectory()) walk(full);
            else if (!e.name.startsWith('.') && !/\.(gz|br)$/.test(e.name) && !e.name.startsWith('openapi')) {
              hashes[path.relative(dir, full)] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
            }
          }
        };
        walk(dir);
        all[file] = Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : 1)));
      } finally {
        await one.close();
      }
    }
    await expect(`${JSON.stringify(all, null, 1)}\n`).toMatchFileSnapshot('fixtures/artifacts-before-rules.json');
  });
});
