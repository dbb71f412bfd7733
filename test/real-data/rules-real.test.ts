// Real seasons imported through the documented format, with the rules their organizers apply: every place of the
// published table comes out of the import, the database and the regeneration job (the artifacts the public reads).
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../support/db.js';
import { importAndRender } from '../support/rendered.js';
import { readRealData, realDataAvailable } from './data-dir.js';
import { convertOpenFootball, feedFromGroups, flattenEuro, toImportFile, type EuroFile } from './openfootball.js';

const FILES = ['spain-laliga-2018-19.json', 'england-premier-league-2023-24.json', 'euro-2020.json', 'world-cup-2022.json'];
const available = realDataAvailable('test/real-data/rules-real.test.ts', FILES);

interface Row { rank: number; club_name: string; points: number; group_name: string | null; adjustment_points?: number }
interface Slot { match_id: string; side: string; team_id: string | null; source_group?: string; source_position?: number; source_best_placed?: string; source_slot?: number; source_groups?: string[]; winner_team_id: string | null }
interface Published { standings: Row[]; bracket: Slot[]; events: { event_id: string; champion_name: string | null }[]; calendar: string }

const opened: TestDb[] = [];
afterAll(async () => {
  for (const t of opened) await t.close();
});

/** Imports the file into a fresh migrated database, regenerates, and reads back what the public would read. */
async function publish(file: unknown, eventId: string): Promise<Published> {
  const t = await migratedDb();
  opened.push(t);
  const read = await importAndRender(t, file, 'real.example');
  return {
    standings: JSON.parse(read(`api/v0/events/${eventId}/standings.json`)) as Row[],
    bracket: JSON.parse(read(`api/v0/events/${eventId}/bracket.json`)) as Slot[],
    events: JSON.parse(read('api/v0/events.json')) as Published['events'],
    calendar: read(`api/v0/calendar/${eventId}.ics`),
  };
}

const line = (r: Row) => `${r.rank} ${r.club_name} ${r.points}`;

describe.skipIf(!available)('LaLiga 2018-19 under the la_liga preset', () => {
  it('gives every place of the published table', async () => {
    const season = convertOpenFootball(readRealData('spain-laliga-2018-19.json'));
    const out = await publish(toImportFile(season, { id: 'laliga-2018-19', type: 'league', tiebreakers: 'la_liga' }), 'laliga-2018-19');
    expect(out.standings.map(line)).toEqual([
      '1 FC Barcelona 87',
      '2 Atlético Madrid 76',
      '3 Real Madrid 68',
      '4 Valencia CF 61',
      '5 Getafe CF 59', // above Sevilla on head-to-head (won both), with the worse goal difference
      '6 Sevilla FC 59',
      '7 Espanyol Barcelona 53',
      '8 Athletic Club 53',
      '9 Real Sociedad 50', // three clubs on 50: the mini-league of their six matches
      '10 Real Betis 50',
      '11 CD Alavés 50',
      '12 SD Eibar 47',
      '13 CD Leganés 45',
      '14 Villarreal CF 44',
      '15 Levante UD 44',
      '16 Real Valladolid 41', // above Celta on head-to-head
      '17 RC Celta 41',
      '18 Girona FC 37',
      '19 SD Huesca 33',
      '20 Rayo Vallecano 32',
    ]);
    expect(out.standings.every((r) => r.adjustment_points === null)).toBe(true);
    expect(out.events.find((e) => e.event_id === 'laliga-2018-19')?.champion_name).toBe('FC Barcelona');
  });

  it('the default order would have put Sevilla above Getafe (goal difference first)', async () => {
    const season = convertOpenFootball(readRealData('spain-laliga-2018-19.json'));
    const out = await publish(toImportFile(season, { id: 'laliga-default', type: 'league' }), 'laliga-default');
    expect(out.standings.slice(4, 6).map(line)).toEqual(['5 Sevilla FC 59', '6 Getafe CF 59']);
  });
});

describe.skipIf(!available)('Premier League 2023-24 with its deductions', () => {
  it('Everton 15th on 40 (8 points deducted), Nottingham Forest 17th on 32 (4)', async () => {
    const season = convertOpenFootball(readRealData('england-premier-league-2023-24.json'));
    const adjustments = [
      { team: 'everton-fc', points: -6, reason: 'Profitability and Sustainability Rules 2021-22 (reduced from 10 on appeal)' },
      { team: 'everton-fc', points: -2, reason: 'Profitability and Sustainability Rules 2022-23' },
      { team: 'nottingham-forest-fc', points: -4, reason: 'Profitability and Sustainability Rules 2022-23' },
    ];
    const out = await publish(
      toImportFile(season, { id: 'pl-2023-24', type: 'league', tiebreakers: 'premier_league', adjustments }),
      'pl-2023-24',
    );
    expect(out.standings.map(line)).toEqual([
      '1 Manchester City FC 91',
      '2 Arsenal FC 89',
      '3 Liverpool FC 82',
      '4 Aston Villa FC 68',
      '5 Tottenham Hotspur FC 66',
      '6 Chelsea FC 63',
      '7 Newcastle United FC 60',
      '8 Manchester United FC 60',
      '9 West Ham United FC 52',
      '10 Crystal Palace FC 49',
      '11 Brighton & Hove Albion FC 48',
      '12 AFC Bournemouth 48',
      '13 Fulham FC 47',
      '14 Wolverhampton Wanderers FC 46',
      '15 Everton FC 40',
      '16 Brentford FC 39',
      '17 Nottingham Forest FC 32',
      '18 Luton Town FC 26',
      '19 Burnley FC 24',
      '20 Sheffield United FC 16',
    ]);
    const adj = new Map(out.standings.map((r) => [r.club_name, r.adjustment_points]));
    expect([adj.get('Everton FC'), adj.get('Nottingham Forest FC'), adj.get('Arsenal FC')]).toEqual([-8, -4, 0]);
  });
});

const EURO_TABLES: Record<string, string[]> = {
  'Group A': ['Italy', 'Wales', 'Switzerland', 'Turkey'],
  'Group B': ['Belgium', 'Denmark', 'Finland', 'Russia'],
  'Group C': ['Netherlands', 'Austria', 'Ukraine', 'North Macedonia'],
  'Group D': ['England', 'Croatia', 'Czech Republic', 'Scotland'],
  'Group E': ['Sweden', 'Spain', 'Slovakia', 'Poland'],
  'Group F': ['France', 'Germany', 'Portugal', 'Hungary'],
};
const EURO_PLACES = new Map(Object.entries(EURO_TABLES).flatMap(([g, names]) => names.map((n, i) => [n, [g, i + 1] as [string, number]])));

/** EURO 2020 as an import file whose round of 16 is fed by the group tables (winners and runners-up). */
function euroWithGroupFeeds(edit: (matches: any[]) => void = () => {}): { file: any; real: Map<string, { home: string; away: string }> } {
  const euro = convertOpenFootball(flattenEuro(readRealData<EuroFile>('euro-2020.json')));
  feedFromGroups(euro, 'Round of 16', EURO_PLACES);
  const file = toImportFile(euro, { id: 'euro-2020-ko', type: 'hybrid', tiebreakers: 'uefa' }) as any;
  edit(file.organizations[0].leagues[0].events[0].matches);
  return { file, real: euro.real };
}

describe.skipIf(!available)('EURO 2020 knockout fed by the group tables', () => {
  it('every knockout slot is the real team, Italy champion on penalties', async () => {
    const { file, real } = euroWithGroupFeeds();
    const out = await publish(file, 'euro-2020-ko');
    const fedByGroups = out.bracket.filter((x) => x.source_group !== null);
    expect(fedByGroups).toHaveLength(12); // 6 winners and 6 runners-up; the 4 best third-placed teams are seeded
    expect(fedByGroups.find((x) => x.source_group === 'Group F' && x.source_position === 2)?.team_id).toBe('germany');
    for (const x of out.bracket) {
      const r = real.get(x.match_id);
      expect(x.team_id, `${x.match_id} ${x.side}`).toBe(x.side === 'home' ? r?.home : r?.away);
    }
    expect(out.events.find((e) => e.event_id === 'euro-2020-ko')?.champion_name).toBe('Italy');
  });

  it('until a group is finished its places are unknown, and the calendar says "Winner Group A"', async () => {
    const { file } = euroWithGroupFeeds((matches) => {
      const last = matches.find((m) => m.group === 'Group A' && m.round === 3);
      Object.assign(last, { status: 'scheduled', score: null });
      // Italy v Austria, the round of 16 match of Group A's winner.
      Object.assign(matches.find((m) => m.id === 'r16-2'), { kickoff: '2021-06-26T19:00:00Z' });
    });
    const out = await publish(file, 'euro-2020-ko');
    const italyAustria = out.bracket.filter((x) => x.match_id === 'r16-2');
    expect(italyAustria.map((x) => [x.source_group, x.source_position, x.team_id])).toEqual([
      ['Group A', 1, null],
      ['Group C', 2, 'austria'],
    ]);
    expect(out.calendar).toMatch(/SUMMARY[^:]*:Winner Group A vs Austria\r\n/);
    expect(out.events.find((e) => e.event_id === 'euro-2020-ko')?.champion_name).toBeNull();
  });
});

/**
 * UEFA EURO 2020 Regulations, round of 16 (the table of the 15 combinations of four qualifying third-placed teams
 * out of six): for each set of groups, the groups whose thirds meet the winners of Groups B, C, E and F, in that
 * order (slots 1-4). UEFA's schedule names the same possibilities: 1B v 3A/D/E/F, 1C v 3D/E/F, 1E v 3A/B/C/D,
 * 1F v 3A/B/C.
 */
const EURO_2020_THIRDS = [
  ['ABCD', 'ADBC'], ['ABCE', 'AEBC'], ['ABCF', 'AFBC'], ['ABDE', 'DEAB'], ['ABDF', 'DFAB'], ['ABEF', 'EFBA'], ['ACDE', 'EDCA'], ['ACDF', 'FDCA'],
  ['ACEF', 'EFCA'], ['ADEF', 'EFDA'], ['BCDE', 'EDBC'], ['BCDF', 'FDCB'], ['BCEF', 'FECB'], ['BDEF', 'FEDB'], ['CDEF', 'FEDC'],
].map(([g, s]) => ({ groups: [...(g as string)].map((x) => `Group ${x}`), slots: [...(s as string)].map((x) => `Group ${x}`) }));
const THIRDS_MEET = ['Group B', 'Group C', 'Group E', 'Group F'];

/** EURO 2020 with its whole round of 16 fed: group winners and runners-up by group feeds, the best thirds by UEFA's table. */
function euroWithBestThirds(edit: (event: any) => void = () => {}): { file: any; real: Map<string, { home: string; away: string }> } {
  const euro = convertOpenFootball(flattenEuro(readRealData<EuroFile>('euro-2020.json')));
  feedFromGroups(euro, 'Round of 16', EURO_PLACES, { rule: 'thirds', slotOf: (g) => THIRDS_MEET.indexOf(g) + 1 });
  const file = toImportFile(euro, {
    id: 'euro-2020-thirds', type: 'hybrid', tiebreakers: 'uefa',
    // UEFA EURO 2020 Regulations: points, goal difference, goals scored, wins, then disciplinary points and the
    // European Qualifiers ranking (a decision); the service's default ranking, written out.
    best_placed: [{ id: 'thirds', position: 3, qualify: 4, ranking: ['points', 'goal_difference', 'goals_for', 'wins', 'decision'], allocation: EURO_2020_THIRDS }],
  }) as any;
  edit(file.organizations[0].leagues[0].events[0]);
  return { file, real: euro.real };
}

describe.skipIf(!available)('EURO 2020 knockout with the best third-placed teams fed by UEFA\'s table', () => {
  it('Switzerland, Ukraine, Czech Republic and Portugal go through, each to its tie; Italy champion on penalties', async () => {
    const { file, real } = euroWithBestThirds();
    const out = await publish(file, 'euro-2020-thirds');
    const thirds = out.bracket.filter((x) => x.source_best_placed === 'thirds');
    expect(thirds.map((x) => [x.source_slot, x.team_id, x.source_groups?.map((g) => g.slice(-1)).join('')])).toEqual(
      expect.arrayContaining([[1, 'portugal', 'ADEF'], [2, 'czech-republic', 'DEF'], [3, 'ukraine', 'ABCD'], [4, 'switzerland', 'ABC']]),
    );
    expect(thirds).toHaveLength(4);
    // Finland (B) and Slovakia (E) went out: no slot of theirs.
    expect(out.bracket.some((x) => x.team_id === 'finland' || x.team_id === 'slovakia')).toBe(false);
    const name = new Map(file.organizations[0].teams.map((t: { id: string; name: string }) => [t.id, t.name]));
    const pairs = new Map<string, string[]>();
    for (const x of out.bracket) if (x.match_id.startsWith('r16')) pairs.set(x.match_id, [...(pairs.get(x.match_id) ?? []), name.get(x.team_id ?? '') as string]);
    expect([...pairs.values()].map((p) => p.join(' v ')).filter((p) => /Portugal|Czech|Ukraine|Switzerland/.test(p)).sort()).toEqual([
      'Belgium v Portugal',
      'France v Switzerland',
      'Netherlands v Czech Republic',
      'Sweden v Ukraine',
    ]);
    // Every slot of the whole knockout is the real team, and the real final's winner is champion.
    for (const x of out.bracket) {
      const r = real.get(x.match_id);
      expect(x.team_id, `${x.match_id} ${x.side}`).toBe(x.side === 'home' ? r?.home : r?.away);
    }
    expect(out.events.find((e) => e.event_id === 'euro-2020-thirds')?.champion_name).toBe('Italy');
  });

  it('until the last group is finished no third is placed, and the calendar names the groups each can come from', async () => {
    const { file } = euroWithBestThirds((event) => {
      for (const m of event.matches.filter((x: any) => x.group === 'Group F' && x.round === 3)) Object.assign(m, { status: 'scheduled', score: null });
      Object.assign(event.matches.find((x: any) => x.id === 'r16-4'), { kickoff: '2021-06-27T19:00:00Z' });
    });
    const out = await publish(file, 'euro-2020-thirds');
    expect(out.bracket.filter((x) => x.source_best_placed === 'thirds').map((x) => x.team_id)).toEqual([null, null, null, null]);
    const unfolded = out.calendar.replace(/\r\n[ \t]/g, '');
    // Belgium won Group B; its opponent is one of the thirds of A, D, E or F (commas escaped in iCalendar text).
    expect(unfolded).toMatch(/SUMMARY[^:]*:Belgium vs Place 3 in Group A\\, D\\, E or F\r\n/);
    expect(out.events.find((e) => e.event_id === 'euro-2020-thirds')?.champion_name).toBeNull();
  });
});

describe.skipIf(!available)('EURO 2020 groups under the uefa preset', () => {
  it('ranks every group as UEFA published it', async () => {
    const euro = convertOpenFootball(flattenEuro(readRealData<EuroFile>('euro-2020.json')));
    const file = toImportFile(euro, { id: 'euro-2020', type: 'hybrid', tiebreakers: 'uefa' }) as any;
    // openfootball gives local times without an offset; the final kicked off at 20:00 in London.
    file.organizations[0].leagues[0].events[0].matches.find((m: { id: string }) => m.id === 'final').kickoff = '2021-07-11T19:00:00Z';
    const out = await publish(file, 'euro-2020');
    const groups = new Map<string, string[]>();
    for (const r of out.standings) groups.set(r.group_name as string, [...(groups.get(r.group_name as string) ?? []), `${r.club_name} ${r.points}`]);
    expect(Object.fromEntries(groups)).toEqual({
      'Group A': ['Italy 9', 'Wales 4', 'Switzerland 4', 'Turkey 0'],
      'Group B': ['Belgium 9', 'Denmark 3', 'Finland 3', 'Russia 3'], // three on 3: head-to-head goal difference
      'Group C': ['Netherlands 9', 'Austria 6', 'Ukraine 3', 'North Macedonia 0'],
      'Group D': ['England 7', 'Croatia 4', 'Czech Republic 4', 'Scotland 1'],
      'Group E': ['Sweden 7', 'Spain 5', 'Slovakia 3', 'Poland 1'],
      'Group F': ['France 5', 'Germany 4', 'Portugal 4', 'Hungary 2'], // Germany won the meeting 4-2
    });
    expect(out.events.find((e) => e.event_id === 'euro-2020')?.champion_name).toBe('Italy');
    // The final's calendar entry says how it was decided.
    const unfolded = out.calendar.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain('Result: Italy 1–1 England (after extra time) (3–2 pens)');
  });
});

describe.skipIf(!available)('World Cup 2022 under the fifa_world_cup preset', () => {
  it('gives the published group tables and Argentina as champion on penalties', async () => {
    const wc = convertOpenFootball(readRealData('world-cup-2022.json'));
    const out = await publish(toImportFile(wc, { id: 'wc-2022', type: 'hybrid', tiebreakers: 'fifa_world_cup' }), 'wc-2022');
    const firstTwo = new Map<string, string[]>();
    for (const r of out.standings) if (r.rank <= 2) firstTwo.set(r.group_name as string, [...(firstTwo.get(r.group_name as string) ?? []), r.club_name]);
    expect(Object.fromEntries(firstTwo)).toEqual({
      'Group A': ['Netherlands', 'Senegal'],
      'Group B': ['England', 'USA'],
      'Group C': ['Argentina', 'Poland'],
      'Group D': ['France', 'Australia'],
      'Group E': ['Japan', 'Spain'],
      'Group F': ['Morocco', 'Croatia'],
      'Group G': ['Brazil', 'Switzerland'],
      'Group H': ['Portugal', 'South Korea'],
    });
    expect(out.events.find((e) => e.event_id === 'wc-2022')?.champion_name).toBe('Argentina');
  });
});
