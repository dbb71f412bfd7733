// The benchmark dataset: a fresh SQLite file, migrated with the real migrations, filled with
// organizations, leagues, teams, public events and their matches. Rows go in through better-sqlite3
// prepared statements inside one transaction (one event's rows at a time): the JSON import is not what
// the benchmark measures, and it would take minutes at this size.
//
// Default size: 2,000 public events and 200,000 matches. Every fifth event is a knockout cup with a
// 64-team bracket (63 matches + a third-place play-off, winner_of/loser_of feeds, penalties, a few
// walkovers and byes); the others are double round-robin leagues of 11 teams whose fixtures share the
// remaining matches (109 each), about half of them played. One organization in four speaks Arabic
// (names, rounds, venues and cities in Arabic). The data is deterministic for a given seed.
//
// Standalone: `npx tsx test/support/dataset.ts /tmp/bench.db` (BENCH_EVENTS, BENCH_MATCHES_PER_EVENT, BENCH_SEED).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDb } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export interface DatasetSize {
  events: number;
  matchesPerEvent: number;
  seed: number;
}

export interface DatasetSummary {
  file: string;
  organizations: number;
  leagues: number;
  teams: number;
  events: number;
  leagueEvents: number;
  knockoutEvents: number;
  matches: number;
  playedMatches: number;
  arabicOrganizations: number;
  ms: number;
  bytes: number;
}

const EVENTS_PER_ORG = 10;
/** Positions (within an organization's ten events) that are knockout cups: one event in five. */
const CUP_POSITIONS = new Set([4, 9]);

function positiveInt(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1_000_000) {
    throw new Error(`${name} must be a whole number between 1 and 1000000 (got "${raw}")`);
  }
  return value;
}

/** BENCH_EVENTS (default 2000), BENCH_MATCHES_PER_EVENT (default 100), BENCH_SEED (default 1). */
export function datasetSizeFromEnv(env: NodeJS.ProcessEnv = process.env): DatasetSize {
  return {
    events: positiveInt('BENCH_EVENTS', 2000, env),
    matchesPerEvent: positiveInt('BENCH_MATCHES_PER_EVENT', 100, env),
    seed: positiveInt('BENCH_SEED', 1, env),
  };
}

// ---------------------------------------------------------------- deterministic randomness

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Random {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Goals in 90 minutes: mostly 0-3, occasionally more. */
  goals(homeAdvantage: boolean): number {
    const weights = homeAdvantage ? [22, 32, 24, 13, 6, 3] : [28, 34, 22, 10, 4, 2];
    let roll = this.next() * 100;
    for (let g = 0; g < weights.length; g++) {
      roll -= weights[g]!;
      if (roll < 0) return g;
    }
    return weights.length;
  }
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

// ---------------------------------------------------------------- names

const EN_PLACES = [
  'Riverside', 'Harbour Lane', 'Old Mill', 'Northgate', 'Ashford Park', 'Westgate', 'Millbrook', 'Chorlton',
  'Bridge Street', 'Kingsbury', 'Hillcrest', 'Oakfield', 'Crown & Anchor', 'Levenshulme', 'Fallowfield', 'Didsbury',
  'Stretford', 'Moss Side', 'Eccles', 'Salford Quays', 'Whalley Range', 'Burnage', 'Gorton', 'Ancoats',
  'St Mary’s', 'Bishop Wand', 'Elmwood', 'Greenbank', 'Foxhollow', 'Marston Vale', 'Beacon Hill', 'Carlton',
  'Thornbury', 'Highfield', 'Lowmoor', 'Redbrook', 'Sandford', 'Wrenfield', 'Yarrow Bank', 'Zetland',
];
const EN_SUFFIXES = ['Rovers', 'United', 'Athletic', 'FC', 'Town', 'Wanderers', 'Albion', 'Villa', 'Rangers', 'Juniors'];
const EN_GROUNDS = ['Park', 'Recreation Ground', 'Playing Fields', 'Community Stadium', 'Lane', 'Memorial Ground'];
const EN_CITIES = ['Manchester', 'Leeds', 'Leicester', 'Bristol', 'Sheffield', 'Nottingham', 'Cardiff', 'Glasgow', 'Liverpool', 'Birmingham'];
const EN_ORG_KINDS = ['Sunday Football League', 'Schools Sports Association', 'County FA', 'Youth Football League', 'Futsal League'];
const EN_DIVISIONS = ['Premier Division', 'Division One', 'Women’s League', 'Under-16 League'];
const EN_CUP = 'Challenge Cup';

const AR_PLACES = [
  'النور', 'الفجر', 'الشروق', 'الصقور', 'النجوم', 'الاتحاد', 'الوحدة', 'الشباب', 'الأمل', 'الرمثا',
  'الحسين', 'الجزيرة', 'الفيصلي', 'البقعة', 'السلط', 'الكرمل', 'اليرموك', 'الأهلي', 'الرابية', 'خلدا',
  'صويلح', 'مرج الحمام', 'عبدون', 'جبل الحسين', 'الزرقاء', 'ماركا', 'الهاشمية', 'الوادي', 'الجليل', 'البتراء',
];
const AR_SUFFIXES = ['', ' الرياضي', ' للناشئين', ' الثقافي'];
const AR_CITIES = ['عمّان', 'الزرقاء', 'إربد', 'القاهرة', 'الإسكندرية', 'الرياض', 'جدة', 'الدار البيضاء', 'تونس', 'بيروت'];
const AR_ORG_KINDS = ['رابطة %s لكرة القدم للناشئين', 'اتحاد %s الرياضي المدرسي', 'دوري %s للهواة'];
const AR_DIVISIONS = ['الدوري الممتاز', 'الدرجة الأولى', 'دوري السيدات', 'دوري تحت 16 سنة'];
const AR_CUP = 'كأس التحدي';

function knockoutRoundName(teamsLeft: number, ar: boolean): string {
  if (teamsLeft === 2) return ar ? 'النهائي' : 'Final';
  if (teamsLeft === 4) return ar ? 'نصف النهائي' : 'Semi-final';
  if (teamsLeft === 8) return ar ? 'ربع النهائي' : 'Quarter-final';
  return ar ? `دور الـ${teamsLeft}` : `Round of ${teamsLeft}`;
}

// ---------------------------------------------------------------- shapes

interface Team {
  id: string;
  name: string;
  name_ar: string | null;
  ground: string;
}

interface MatchRow {
  id: string;
  event_id: string;
  round_ordinal: number;
  round_name: string | null;
  group_name: string | null;
  bracket_role: string | null;
  bracket_position: number;
  home_team_id: string | null;
  away_team_id: string | null;
  home_source_match_id: string | null;
  home_source_outcome: string | null;
  away_source_match_id: string | null;
  away_source_outcome: string | null;
  kickoff_at: string | null;
  ends_at: string | null;
  venue: string | null;
  status: string;
  home_score: number | null;
  away_score: number | null;
  home_penalties: number | null;
  away_penalties: number | null;
  walkover_winner: string | null;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function emptyMatch(id: string, eventId: string): MatchRow {
  return {
    id, event_id: eventId, round_ordinal: 1, round_name: null, group_name: null, bracket_role: null, bracket_position: 0,
    home_team_id: null, away_team_id: null, home_source_match_id: null, home_source_outcome: null,
    away_source_match_id: null, away_source_outcome: null, kickoff_at: null, ends_at: null, venue: null,
    status: 'scheduled', home_score: null, away_score: null, home_penalties: null, away_penalties: null, walkover_winner: null,
  };
}

/** Double round robin by the circle method; a dummy side gives the bye when the count is odd. */
function roundRobin(teamCount: number): Array<Array<[number, number]>> {
  const n = teamCount % 2 === 0 ? teamCount : teamCount + 1;
  const ring = Array.from({ length: n }, (_, i) => i);
  const first: Array<Array<[number, number]>> = [];
  for (let r = 0; r < n - 1; r++) {
    const round: Array<[number, number]> = [];
    for (let i = 0; i < n / 2; i++) {
      const a = ring[i]!;
      const b = ring[n - 1 - i]!;
      if (a >= teamCount || b >= teamCount) continue;
      round.push(r % 2 === 0 ? [a, b] : [b, a]);
    }
    first.push(round);
    ring.splice(1, 0, ring.pop()!);
  }
  return [...first, ...first.map((round) => round.map(([h, a]) => [a, h] as [number, number]))];
}

/** Smallest club count whose double round robin has at least `matches` fixtures. */
function leagueTeamCount(matches: number): number {
  let n = 2;
  while (n * (n - 1) < matches) n++;
  return n;
}

/** Largest power-of-two bracket (n-1 matches + third place = n) that fits the per-event budget, or 0. */
function bracketSize(matchesPerEvent: number): number {
  let size = 0;
  for (let n = 4; n <= matchesPerEvent && n <= 1024; n *= 2) size = n;
  return size;
}

// ---------------------------------------------------------------- generator

export async function createDataset(file: string, size: DatasetSize): Promise<DatasetSummary> {
  const started = performance.now();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  const { db, sqlite } = openDb(file);
  try {
    await migrateToLatest(db);
    // For this scratch load only: no fsync (a crash just means generating again), the indexes of 200,000
    // matches kept in a large page cache, statement journals (the insert trigger needs them) in memory.
    // Together about 40% faster; the processes measured later open the file with the real pragmas.
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('temp_store = MEMORY');
    sqlite.pragma('cache_size = -524288');
    const summary = fill(sqlite, size);
    // Leave a plain database file behind (no large WAL to replay on the first read).
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    return { ...summary, file, ms: Math.round(performance.now() - started), bytes: fs.statSync(file).size };
  } finally {
    await db.destroy();
  }
}

type Sqlite = ReturnType<typeof openDb>['sqlite'];

function fill(sqlite: Sqlite, size: DatasetSize): Omit<DatasetSummary, 'file' | 'ms' | 'bytes'> {
  const rnd = new Random(size.seed);
  const cup = bracketSize(size.matchesPerEvent);
  const isCup = (index: number) => cup > 0 && CUP_POSITIONS.has(index % EVENTS_PER_ORG);
  let knockoutEvents = 0;
  for (let j = 0; j < size.events; j++) if (isCup(j)) knockoutEvents++;
  const leagueEvents = size.events - knockoutEvents;
  // The league events share what the cups leave of events × matchesPerEvent, spread as evenly as possible.
  const leagueMatchesTotal = size.events * size.matchesPerEvent - knockoutEvents * cup;
  const leagueBase = leagueEvents > 0 ? Math.floor(leagueMatchesTotal / leagueEvents) : 0;
  const leagueExtra = leagueEvents > 0 ? leagueMatchesTotal - leagueBase * leagueEvents : 0;
  const clubsPerLeague = leagueTeamCount(Math.max(1, leagueBase + (leagueExtra > 0 ? 1 : 0)));
  const teamsPerOrg = Math.max(cup, clubsPerLeague * EN_DIVISIONS.length) + 16;
  const orgCount = Math.ceil(size.events / EVENTS_PER_ORG);

  const insert = {
    org: sqlite.prepare('INSERT INTO organizations (id, name, name_ar, language) VALUES (?, ?, ?, ?)'),
    league: sqlite.prepare('INSERT INTO leagues (id, org_id, name, name_ar) VALUES (?, ?, ?, ?)'),
    division: sqlite.prepare('INSERT INTO divisions (id, org_id, league_id, name, name_ar) VALUES (?, ?, ?, ?, ?)'),
    team: sqlite.prepare('INSERT INTO teams (id, org_id, name, name_ar) VALUES (?, ?, ?, ?)'),
    event: sqlite.prepare(
      `INSERT INTO events (id, league_id, name, competition_type, status, starts_at, ends_at, venue_city, is_public,
         points_win, points_draw, points_loss, match_duration_min)
       VALUES (@id, @league_id, @name, @competition_type, @status, @starts_at, @ends_at, @venue_city, 1, 3, 1, 0, @duration)`,
    ),
    match: sqlite.prepare(
      `INSERT INTO matches (id, event_id, round_ordinal, round_name, group_name, bracket_role, bracket_position,
         home_team_id, away_team_id, home_source_match_id, home_source_outcome, away_source_match_id, away_source_outcome,
         kickoff_at, ends_at, venue, status, home_score, away_score, home_penalties, away_penalties, walkover_winner)
       VALUES (@id, @event_id, @round_ordinal, @round_name, @group_name, @bracket_role, @bracket_position,
         @home_team_id, @away_team_id, @home_source_match_id, @home_source_outcome, @away_source_match_id, @away_source_outcome,
         @kickoff_at, @ends_at, @venue, @status, @home_score, @away_score, @home_penalties, @away_penalties, @walkover_winner)`,
    ),
    eventStatus: sqlite.prepare('UPDATE events SET status = ? WHERE id = ?'),
  };

  let leagues = 0;
  let teamsTotal = 0;
  let matches = 0;
  let played = 0;
  let arabicOrganizations = 0;
  let leagueIndex = 0;

  const insertMatches = (rows: MatchRow[]) => {
    for (const row of rows) insert.match.run(row);
    matches += rows.length;
    played += rows.filter((r) => r.status === 'completed').length;
  };

  const load = sqlite.transaction(() => {
    for (let o = 0; o < orgCount; o++) {
      const orgId = `o${String(o + 1).padStart(4, '0')}`;
      const ar = o % 4 === 3;
      if (ar) arabicOrganizations++;
      const city = ar ? AR_CITIES[o % AR_CITIES.length]! : EN_CITIES[o % EN_CITIES.length]!;
      const orgName = ar
        ? AR_ORG_KINDS[o % AR_ORG_KINDS.length]!.replace('%s', city)
        : `${EN_PLACES[o % EN_PLACES.length]} ${EN_ORG_KINDS[o % EN_ORG_KINDS.length]}`;
      insert.org.run(orgId, orgName, ar ? orgName : null, ar ? 'ar' : 'en');

      // Clubs: unique names within the organization; every club has a home ground.
      const teams: Team[] = [];
      for (let t = 0; t < teamsPerOrg; t++) {
        const places = ar ? AR_PLACES : EN_PLACES;
        const suffixes = ar ? AR_SUFFIXES : EN_SUFFIXES;
        const place = places[(t + o * 3) % places.length]!;
        const round = Math.floor(t / places.length);
        const suffix = suffixes[round % suffixes.length]!;
        const again = round >= suffixes.length ? ` ${Math.floor(round / suffixes.length) + 1}` : '';
        const name = ar ? `نادي ${place}${suffix}${again}` : `${place} ${suffix}${again}`;
        const ground = ar ? `ملعب ${place}${t % 3 === 0 ? '، الملعب الفرعي 2' : ''}` : `${place} ${EN_GROUNDS[t % EN_GROUNDS.length]}`;
        const team: Team = { id: `${orgId}-t${String(t + 1).padStart(3, '0')}`, name, name_ar: ar ? name : null, ground };
        insert.team.run(team.id, orgId, team.name, team.name_ar);
        teams.push(team);
      }
      teamsTotal += teams.length;

      // Four divisions (leagues) and one cup per organization; two seasons of each.
      const leagueIds: string[] = [];
      const leagueNames = [...(ar ? AR_DIVISIONS : EN_DIVISIONS), ar ? AR_CUP : EN_CUP];
      leagueNames.forEach((name, l) => {
        const id = `${orgId}-l${l + 1}`;
        insert.league.run(id, orgId, name, ar ? name : null);
        insert.division.run(`${orgId}-d${l + 1}`, orgId, id, name, ar ? name : null);
        leagueIds.push(id);
        leagues++;
      });

      for (let p = 0; p < EVENTS_PER_ORG; p++) {
        const j = o * EVENTS_PER_ORG + p;
        if (j >= size.events) break;
        const season = p < 5 ? 2025 : 2026;
        const seasonLabel = ar ? `${season}/${season + 1 - 2000}` : `${season}/${String(season + 1).slice(2)}`;
        const slot = p % 5;
        const eventId = `${leagueIds[slot]}-${season}-${String(season + 1).slice(2)}`;
        const startMs = Date.UTC(season, 7, 2 + ((o * 3 + p) % 28), 0, 0, 0);
        if (isCup(j)) {
          const rows = cupMatches(rnd, eventId, teams, cup, startMs, ar);
          finishEvent(eventId, leagueIds[slot]!, `${leagueNames[slot]} ${seasonLabel}`, 'knockout', rows, city);
        } else {
          const count = leagueBase + (leagueIndex < leagueExtra ? 1 : 0);
          leagueIndex++;
          const clubs = teams.slice(slot * clubsPerLeague, slot * clubsPerLeague + clubsPerLeague);
          const rows = leagueMatches(rnd, eventId, clubs, count, startMs, ar);
          finishEvent(eventId, leagueIds[slot]!, `${leagueNames[slot]} ${seasonLabel}`, 'league', rows, city);
        }
      }
    }
  });

  function finishEvent(id: string, leagueId: string, name: string, type: string, rows: MatchRow[], city: string) {
    const kickoffs = rows.map((r) => r.kickoff_at).filter((k): k is string => k !== null).sort();
    const startsAt = kickoffs[0] ?? null;
    const last = kickoffs[kickoffs.length - 1];
    const endsAt = last ? iso(Date.parse(last) + 2 * 3_600_000) : null;
    insert.event.run({ id, league_id: leagueId, name, competition_type: type, status: 'scheduled', starts_at: startsAt, ends_at: endsAt, venue_city: city, duration: 90 });
    insertMatches(rows);
    const done = rows.filter((r) => r.status === 'completed').length;
    const status = done === 0 ? 'scheduled' : done === rows.length ? 'completed' : 'in_progress';
    if (status !== 'scheduled') insert.eventStatus.run(status, id);
  }

  function result(row: MatchRow, knockout: boolean) {
    row.status = 'completed';
    if (knockout && rnd.chance(0.01)) {
      row.walkover_winner = rnd.chance(0.5) ? 'home' : 'away';
      return;
    }
    row.home_score = rnd.goals(true);
    row.away_score = rnd.goals(false);
    if (knockout && row.home_score === row.away_score) {
      const [winner, loser] = rnd.pick([[5, 4], [4, 3], [3, 2], [4, 2], [6, 5], [5, 3]] as const);
      const homeWins = rnd.chance(0.5);
      row.home_penalties = homeWins ? winner : loser;
      row.away_penalties = homeWins ? loser : winner;
    }
  }

  /** How much of a competition has been played: a tenth not started, some finished, most half-way. */
  function progress(): number {
    const roll = rnd.float();
    if (roll < 0.1) return 0;
    if (roll < 0.25) return 1;
    return 0.3 + rnd.float() * 0.4;
  }

  function leagueMatches(r: Random, eventId: string, clubs: Team[], count: number, startMs: number, ar: boolean): MatchRow[] {
    const rounds = roundRobin(clubs.length);
    const rows: MatchRow[] = [];
    rounds.forEach((round, ri) => {
      round.forEach(([h, a], pos) => {
        if (rows.length >= count) return;
        const home = clubs[h]!;
        const away = clubs[a]!;
        const row = emptyMatch(`${eventId}-r${String(ri + 1).padStart(2, '0')}-${pos + 1}`, eventId);
        row.round_ordinal = ri + 1;
        row.round_name = ar ? `الجولة ${ri + 1}` : `Round ${ri + 1}`;
        row.bracket_position = pos;
        row.home_team_id = home.id;
        row.away_team_id = away.id;
        // Weekly rounds on a weekend day, staggered kick-offs (09:00-15:00 UTC).
        row.kickoff_at = iso(startMs + ri * 7 * DAY_MS + (9 + (pos % 4) * 2) * 3_600_000 + (pos % 2) * 30 * 60_000);
        row.venue = home.ground;
        rows.push(row);
      });
    });
    const roundsPlayed = Math.round(progress() * rounds.length);
    for (const row of rows) {
      if (row.round_ordinal <= roundsPlayed) result(row, false);
      else if (r.chance(0.01)) row.status = 'postponed';
    }
    return rows;
  }

  function cupMatches(r: Random, eventId: string, pool: Team[], bracket: number, startMs: number, ar: boolean): MatchRow[] {
    const entrants = r.shuffle([...pool]).slice(0, bracket);
    const byes = r.chance(0.1) ? 4 : 0; // a cup with 60 entrants: the top 4 seeds go through without playing
    const roundCount = Math.log2(bracket);
    const rows: MatchRow[] = [];
    const byRound: MatchRow[][] = [];
    const finalVenue = ar ? `ستاد ${pool[0]!.ground.replace(/^ملعب /, '')}` : `${pool[0]!.ground.split(' ')[0]} Community Stadium`;
    for (let round = 1; round <= roundCount; round++) {
      const size = bracket / 2 ** round;
      const name = knockoutRoundName(bracket / 2 ** (round - 1), ar);
      const current: MatchRow[] = [];
      for (let pos = 0; pos < size; pos++) {
        const row = emptyMatch(`${eventId}-r${round}-${pos + 1}`, eventId);
        row.round_ordinal = round;
        row.round_name = name;
        row.bracket_role = 'winners';
        row.bracket_position = pos;
        if (round === 1) {
          row.home_team_id = entrants[pos * 2]!.id;
          row.away_team_id = pos < byes ? null : entrants[pos * 2 + 1]!.id;
          if (row.away_team_id !== null) row.venue = entrants[pos * 2]!.ground;
        } else {
          const prev = byRound[round - 2]!;
          row.home_source_match_id = prev[pos * 2]!.id;
          row.home_source_outcome = 'winner';
          row.away_source_match_id = prev[pos * 2 + 1]!.id;
          row.away_source_outcome = 'winner';
          row.venue = round === roundCount ? finalVenue : pool[(pos * 7 + round) % pool.length]!.ground;
        }
        // Bye: no kick-off, decided at once; other rounds a fortnight apart.
        if (row.away_team_id !== null || round > 1) {
          row.kickoff_at = iso(startMs + (round - 1) * 14 * DAY_MS + (10 + (pos % 6)) * 3_600_000);
        } else {
          row.status = 'completed';
        }
        current.push(row);
      }
      byRound.push(current);
      rows.push(...current);
    }
    const semis = byRound[roundCount - 2]!;
    const third = emptyMatch(`${eventId}-third`, eventId);
    Object.assign(third, {
      round_ordinal: roundCount,
      round_name: ar ? 'مباراة المركز الثالث' : 'Third-place play-off',
      bracket_role: 'third_place',
      home_source_match_id: semis[0]!.id,
      home_source_outcome: 'loser',
      away_source_match_id: semis[1]!.id,
      away_source_outcome: 'loser',
      venue: finalVenue,
      kickoff_at: iso(startMs + (roundCount - 1) * 14 * DAY_MS + 9 * 3_600_000),
    });
    rows.push(third);

    // Rounds are played in order: the first k rounds complete, then half of the next one.
    const share = progress();
    const roundsDone = Math.floor(share * roundCount);
    for (const row of rows) {
      if (row.status === 'completed') continue; // byes
      const complete = share === 1 || row.round_ordinal <= roundsDone ||
        (share > 0 && row.round_ordinal === roundsDone + 1 && row.bracket_role === 'winners' &&
          row.bracket_position < byRound[row.round_ordinal - 1]!.length / 2 && row.round_ordinal < roundCount);
      if (complete) result(row, true);
    }
    return rows;
  }

  load();
  return {
    organizations: orgCount,
    leagues,
    teams: teamsTotal,
    events: size.events,
    leagueEvents,
    knockoutEvents,
    matches,
    playedMatches: played,
    arabicOrganizations,
  };
}

export function describeDataset(s: DatasetSummary): string {
  return (
    `${s.events} public events (${s.leagueEvents} league, ${s.knockoutEvents} knockout), ${s.matches} matches ` +
    `(${s.playedMatches} played), ${s.teams} teams, ${s.organizations} organizations (${s.arabicOrganizations} Arabic), ` +
    `${(s.bytes / 1e6).toFixed(1)} MB`
  );
}

// Standalone use: build a dataset at the given path.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: tsx test/support/dataset.ts OUT.db   (BENCH_EVENTS, BENCH_MATCHES_PER_EVENT, BENCH_SEED)');
    process.exit(2);
  }
  const summary = await createDataset(path.resolve(file), datasetSizeFromEnv());
  console.log(`dataset: ${describeDataset(summary)} in ${(summary.ms / 1000).toFixed(1)} s → ${summary.file}`);
}
