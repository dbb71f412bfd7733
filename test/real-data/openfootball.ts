// Converts openfootball's football.json / worldcup.json files into the facts the pure rules read,
// so real seasons can check the rules. Lives with the tests: the real-data files stay unchanged.
import type { MatchFacts, TeamFacts } from '../../src/competitions/types.js';
import type { ImportMatch } from '../../src/import/format.js';
import type { BracketRole } from '../../src/vocabulary/enums.js';

export interface OpenFootballScore {
  ft?: [number, number];
  ht?: [number, number];
  et?: [number, number];
  p?: [number, number];
}

export interface OpenFootballMatch {
  round: string;
  date: string;
  time?: string;
  team1: string;
  team2: string;
  score?: OpenFootballScore;
  group?: string;
  ground?: string;
}

export interface OpenFootballFile {
  name: string;
  matches: OpenFootballMatch[];
}

export interface Converted {
  matches: MatchFacts[];
  teams: Map<string, TeamFacts>;
}

/** Knockout rounds in playing order, as openfootball names them. Anything else is a league or group round. */
const KNOCKOUT_ROUNDS: readonly string[] = [
  'Round of 32',
  'Round of 16',
  'Quarter-finals',
  'Semi-finals',
  'Final',
];
const THIRD_PLACE_ROUND = 'Match for third place';

/** Short, URL-safe match ids per knockout round, readable in a failing assertion. */
const ROUND_PREFIX: Record<string, string> = {
  'Round of 32': 'r32',
  'Round of 16': 'r16',
  'Quarter-finals': 'qf',
  'Semi-finals': 'sf',
  Final: 'final',
  [THIRD_PLACE_ROUND]: 'third',
};

/** An id matching ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$: "Brighton & Hove Albion" -> "brighton-hove-albion". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  if (slug === '') throw new Error(`cannot make an id from team name ${JSON.stringify(name)}`);
  return slug;
}

function isKnockout(m: OpenFootballMatch): boolean {
  return m.group === undefined && (KNOCKOUT_ROUNDS.includes(m.round) || m.round === THIRD_PLACE_ROUND);
}

/** "Matchday 12" -> 12; openfootball numbers league and group rounds this way. */
function matchdayOrdinal(round: string): number {
  const n = /(\d+)\s*$/.exec(round);
  if (n === null) throw new Error(`round without a number: ${JSON.stringify(round)}`);
  return Number(n[1]);
}

function baseFacts(id: string, m: OpenFootballMatch): MatchFacts {
  // Extra time is part of the match result; penalties only break a tie after it.
  const score = m.score?.et ?? m.score?.ft ?? null;
  const pens = m.score?.p ?? null;
  return {
    id,
    round_ordinal: 0,
    round_name: m.round,
    group_name: m.group ?? null,
    bracket_role: null,
    bracket_position: 0,
    home_team_id: slugify(m.team1),
    away_team_id: slugify(m.team2),
    home_source_match_id: null,
    home_source_outcome: null,
    away_source_match_id: null,
    away_source_outcome: null,
    // openfootball gives local wall-clock times without an offset: no honest UTC instant to put here.
    kickoff_at: null,
    ends_at: null,
    venue: m.ground ?? null,
    status: score === null ? 'scheduled' : 'completed',
    home_score: score?.[0] ?? null,
    away_score: score?.[1] ?? null,
    home_penalties: pens?.[0] ?? null,
    away_penalties: pens?.[1] ?? null,
    walkover_winner: null,
    after_extra_time: m.score?.et ? 1 : 0,
    sequence: 0,
    updated_at: '2000-01-01T00:00:00Z',
  };
}

/**
 * League, group and knockout matches alike. Knockout matches after the first knockout round are
 * turned into feeds: each team is fed from the previous-round match it played in (winner_of), or for
 * the third-place match from the semi-final it played in (loser_of). The converter does not decide
 * who won anything; the bracket rules must reproduce the teams openfootball names, which is the
 * point of the real-data test. The real names stay on `real` for that comparison.
 */
export function convertOpenFootball(file: OpenFootballFile): Converted & { real: Map<string, { home: string; away: string }> } {
  const teams = new Map<string, TeamFacts>();
  const addTeam = (name: string): void => {
    const id = slugify(name);
    const known = teams.get(id);
    if (known !== undefined && known.name !== name) {
      throw new Error(`team names ${JSON.stringify(known.name)} and ${JSON.stringify(name)} share the id ${id}`);
    }
    teams.set(id, { id, name, name_ar: null });
  };

  const matches: MatchFacts[] = [];
  const real = new Map<string, { home: string; away: string }>();
  const knockoutByRound = new Map<string, MatchFacts[]>();

  file.matches.forEach((m, i) => {
    addTeam(m.team1);
    addTeam(m.team2);
    if (!isKnockout(m)) {
      const f = baseFacts(`m${String(i + 1).padStart(3, '0')}`, m);
      f.round_ordinal = matchdayOrdinal(m.round);
      matches.push(f);
      return;
    }
    const inRound = knockoutByRound.get(m.round) ?? [];
    knockoutByRound.set(m.round, inRound);
    const position = inRound.length + 1;
    const prefix = ROUND_PREFIX[m.round] as string;
    const single = m.round === 'Final' || m.round === THIRD_PLACE_ROUND;
    const f = baseFacts(single ? prefix : `${prefix}-${position}`, m);
    f.bracket_position = position;
    f.bracket_role = (m.round === THIRD_PLACE_ROUND ? 'third_place' : 'winners') satisfies BracketRole;
    inRound.push(f);
    matches.push(f);
    real.set(f.id, { home: f.home_team_id as string, away: f.away_team_id as string });
  });

  const rounds = KNOCKOUT_ROUNDS.filter((r) => knockoutByRound.has(r));
  rounds.forEach((round, r) => {
    for (const f of knockoutByRound.get(round) ?? []) f.round_ordinal = r + 1;
  });
  // The consolation match is played alongside the final: same round, listed after it by role.
  for (const f of knockoutByRound.get(THIRD_PLACE_ROUND) ?? []) f.round_ordinal = rounds.length;

  const realOf = (id: string): { home: string; away: string } =>
    real.get(id) as { home: string; away: string };
  const feedFrom = (f: MatchFacts, previous: MatchFacts[], outcome: 'winner' | 'loser'): void => {
    const source = (team: string): string => {
      const found = previous.filter((p) => realOf(p.id).home === team || realOf(p.id).away === team);
      if (found.length !== 1) throw new Error(`${f.id}: ${team} played ${found.length} matches in the previous round`);
      return (found[0] as MatchFacts).id;
    };
    f.home_source_match_id = source(realOf(f.id).home);
    f.home_source_outcome = outcome;
    f.away_source_match_id = source(realOf(f.id).away);
    f.away_source_outcome = outcome;
    // A fed slot holds no team of its own: the bracket has to work it out.
    f.home_team_id = null;
    f.away_team_id = null;
  };

  for (let r = 1; r < rounds.length; r++) {
    const previous = knockoutByRound.get(rounds[r - 1] as string) ?? [];
    for (const f of knockoutByRound.get(rounds[r] as string) ?? []) feedFrom(f, previous, 'winner');
  }
  const semis = knockoutByRound.get('Semi-finals') ?? [];
  for (const f of knockoutByRound.get(THIRD_PLACE_ROUND) ?? []) feedFrom(f, semis, 'loser');

  return { matches, teams, real };
}

/** euro.json (rounds[].matches[], teams as {name, code}) as the football.json shape the converter reads. */
export interface EuroFile {
  name: string;
  rounds: { name: string; matches: (Omit<OpenFootballMatch, 'team1' | 'team2' | 'round'> & { team1: { name: string }; team2: { name: string } })[] }[];
}
export function flattenEuro(file: EuroFile): OpenFootballFile {
  return {
    name: file.name,
    matches: file.rounds.flatMap((r) => r.matches.map((m) => ({ ...m, round: r.name, team1: m.team1.name, team2: m.team2.name }))),
  };
}

/**
 * The converted season as an import file (the documented format), one organization, one league, one event, so
 * that real seasons go through validation, the database and the regeneration job like an organization's data.
 * `event` adds the event's fields (type, tiebreakers, adjustments, ...).
 */
export function toImportFile(c: Converted, event: Record<string, unknown> & { id: string; type: string }): unknown {
  const slot = (
    team: string | null,
    source: string | null | undefined,
    outcome: string | null | undefined,
    group: string | null | undefined,
    position: number | null | undefined,
    best?: string | null,
    bestSlot?: number | null,
  ) => {
    if (best != null && bestSlot != null) return { best_placed: best, slot: bestSlot };
    if (group != null && position != null) return { group, position };
    return source ? (outcome === 'loser' ? { loser_of: source } : { winner_of: source }) : team;
  };
  const matches = c.matches.map((m) => {
    const out: Record<string, unknown> = {
      id: m.id,
      round: m.round_ordinal,
      round_name: m.round_name,
      group: m.group_name,
      bracket_role: m.bracket_role,
      position: m.bracket_position,
      home: slot(m.home_team_id, m.home_source_match_id, m.home_source_outcome, m.home_source_group, m.home_source_position, m.home_source_best, m.home_source_slot),
      away: slot(m.away_team_id, m.away_source_match_id, m.away_source_outcome, m.away_source_group, m.away_source_position, m.away_source_best, m.away_source_slot),
      status: m.status,
      score:
        m.home_score === null || m.away_score === null
          ? null
          : {
              home: m.home_score,
              away: m.away_score,
              home_penalties: m.home_penalties,
              away_penalties: m.away_penalties,
              ...(m.after_extra_time ? { after_extra_time: true } : {}),
            },
    } satisfies Partial<Record<keyof ImportMatch, unknown>>;
    return out;
  });
  return {
    organizations: [
      {
        id: 'real',
        name: 'Real data',
        teams: [...c.teams.values()].map((t) => ({ id: t.id, name: t.name })),
        leagues: [{ id: 'real-league', name: 'Real league', events: [{ name: event.id, status: 'completed', ...event, matches }] }],
      },
    ],
  };
}

/**
 * Feeds the first knockout round from the groups: a team that finished `position` (1 or 2) in its group, by
 * `places` (the published tables, team name to [group, position]), is replaced by that group feed; the others (the
 * best third-placed teams, which no group feed names) stay seeded, unless `thirds` is given: then a third-placed team
 * is replaced by that best-placed rule's slot, the slot of the group winner it meets (`thirds.slotOf`, by group).
 */
export function feedFromGroups(
  c: Converted,
  firstRound: string,
  places: ReadonlyMap<string, [string, number]>,
  thirds?: { rule: string; slotOf: (winnersGroup: string) => number },
): void {
  for (const m of c.matches) {
    if (m.round_name !== firstRound) continue;
    const placeOf = (id: string | null) => places.get(c.teams.get(id ?? '')?.name ?? '');
    // Both read before either side is replaced.
    const sides = { home: placeOf(m.home_team_id), away: placeOf(m.away_team_id) };
    for (const side of ['home', 'away'] as const) {
      const place = sides[side];
      if (place !== undefined && place[1] === 3 && thirds !== undefined) {
        const opponent = sides[side === 'home' ? 'away' : 'home'];
        if (opponent === undefined || opponent[1] !== 1) throw new Error(`${m.id}: a third-placed team meets a group winner`);
        if (side === 'home') Object.assign(m, { home_team_id: null, home_source_best: thirds.rule, home_source_slot: thirds.slotOf(opponent[0]) });
        else Object.assign(m, { away_team_id: null, away_source_best: thirds.rule, away_source_slot: thirds.slotOf(opponent[0]) });
        continue;
      }
      if (place === undefined || place[1] > 2) continue;
      if (side === 'home') {
        m.home_team_id = null;
        m.home_source_group = place[0];
        m.home_source_position = place[1];
      } else {
        m.away_team_id = null;
        m.away_source_group = place[0];
        m.away_source_position = place[1];
      }
    }
  }
}
