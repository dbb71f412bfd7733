// Kysely reads of the competition data, shaped into the facts the pure rules take.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/connect.js';
import type { MatchesTable } from '../db/schema.js';
import { resolveTiebreakers } from './tiebreakers.js';
import type { Adjustment, BestPlacedRule, CompetitionRules, Decision, EventFacts, MatchFacts, TeamFacts } from './types.js';
import type { TiebreakCriterion, TiebreakPreset } from '../vocabulary/enums.js';

/** The rules columns as the import wrote them (validated JSON). */
export function parseRules(row: { tiebreakers: string; decisions: string; adjustments: string; away_goals_rule: number; best_placed?: string }): CompetitionRules {
  const bestPlaced = row.best_placed === undefined ? [] : (JSON.parse(row.best_placed) as BestPlacedRule[]);
  return {
    tiebreakers: resolveTiebreakers(JSON.parse(row.tiebreakers) as TiebreakPreset | TiebreakCriterion[]),
    decisions: JSON.parse(row.decisions) as Decision[],
    adjustments: JSON.parse(row.adjustments) as Adjustment[],
    away_goals_rule: row.away_goals_rule === 1,
    // Only when the event has some: the rules of every other event keep their shape.
    ...(bestPlaced.length === 0 ? {} : { best_placed: bestPlaced }),
  };
}

export interface EventHead {
  id: string;
  revision: number;
  is_public: boolean;
}

/** Every event's id, revision and visibility: the regeneration's cheap "what changed" question. */
export async function listEventHeads(db: Db): Promise<EventHead[]> {
  const rows = await db.selectFrom('events').select(['id', 'revision', 'is_public']).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, revision: r.revision, is_public: r.is_public === 1 }));
}

export async function loadEvents(db: Db, ids: readonly string[]): Promise<EventFacts[]> {
  if (ids.length === 0) return [];
  const out: EventFacts[] = [];
  // Chunked: SQLite caps the number of bound parameters.
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('events as e')
      .innerJoin('leagues as l', 'l.id', 'e.league_id')
      .innerJoin('organizations as o', 'o.id', 'l.org_id')
      .select([
        'e.id', 'e.league_id', 'l.name as league_name', 'l.name_ar as league_name_ar', 'o.id as org_id', 'o.name as org_name',
        'o.language', 'o.timezone', 'e.name', 'e.name_ar', 'e.competition_type', 'e.status', 'e.starts_at', 'e.ends_at', 'e.venue_city',
        'e.points_win', 'e.points_draw', 'e.points_loss', 'e.match_duration_min',
        'e.tiebreakers', 'e.decisions', 'e.adjustments', 'e.away_goals_rule', 'e.best_placed',
      ])
      .where('e.id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      out.push({
        id: r.id,
        league_id: r.league_id,
        league_name: r.league_name,
        league_name_ar: r.league_name_ar,
        org_id: r.org_id,
        org_name: r.org_name,
        language: r.language,
        timezone: r.timezone,
        name: r.name,
        name_ar: r.name_ar,
        competition_type: r.competition_type,
        status: r.status,
        starts_at: r.starts_at,
        ends_at: r.ends_at,
        venue_city: r.venue_city,
        points: { win: r.points_win, draw: r.points_draw, loss: r.points_loss },
        match_duration_min: r.match_duration_min,
        rules: parseRules(r),
      });
    }
  }
  return out;
}

/** The columns a match is read with (the facts the rules take, and its event). */
export const MATCH_COLUMNS = [
  'id', 'event_id', 'round_ordinal', 'round_name', 'group_name', 'bracket_role', 'bracket_position',
  'home_team_id', 'away_team_id', 'home_source_match_id', 'home_source_outcome', 'away_source_match_id',
  'away_source_outcome', 'kickoff_at', 'ends_at', 'venue', 'status', 'home_score', 'away_score',
  'home_penalties', 'away_penalties', 'walkover_winner', 'sequence', 'updated_at',
  'leg', 'first_leg_match_id', 'after_extra_time',
  'home_source_group', 'home_source_position', 'away_source_group', 'away_source_position',
  'home_source_best', 'home_source_slot', 'away_source_best', 'away_source_slot',
] as const;

type MatchRow = Pick<Selectable<MatchesTable>, (typeof MATCH_COLUMNS)[number]>;
type ValuesOf<T extends readonly (keyof MatchRow)[]> = { -readonly [K in keyof T]: MatchRow[T[K]] };
/** A match as SQLite's json_array writes it: its values in MATCH_COLUMNS order. */
type MatchValues = ValuesOf<typeof MATCH_COLUMNS>;

/**
 * The match of a MatchValues: one object literal `{ id: values[0], event_id: values[1], … }` written from MATCH_COLUMNS
 * (compiled once), so the names and their order have one source, and every match gets the same shape.
 */
const matchFromValues = new Function(
  'values',
  `return { ${MATCH_COLUMNS.map((column, i) => `${column}: values[${i}]`).join(', ')} };`,
) as (values: MatchValues) => MatchRow;

/**
 * The matches of some events, a few events per query, so memory holds a few events' matches, not all: with 200
 * events a query, the rows of each query outlived V8's young generation and peak memory doubled.
 * Each event's matches come as one JSON array of arrays (SQLite's json_group_array), parsed and made into objects
 * here: better-sqlite3 builds a row object property by property through its native API, which took 1.65-1.8 s of
 * the 200,000 matches of a full regeneration; JSON.parse and one literal per match take 0.48-0.5 s.
 */
export async function* streamMatchesByEvent(
  db: Db,
  eventIds: readonly string[],
): AsyncGenerator<{ eventId: string; matches: MatchFacts[] }> {
  const values = sql<string>`json_group_array(json_array(${sql.join(MATCH_COLUMNS.map((c) => sql.ref(c)))}) ORDER BY id)`;
  for (let i = 0; i < eventIds.length; i += 10) {
    const chunk = eventIds.slice(i, i + 10);
    const rows = await db
      .selectFrom('matches')
      .select(['event_id', values.as('matches')])
      .where('event_id', 'in', chunk)
      .groupBy('event_id')
      .execute();
    const byEvent = new Map<string, MatchFacts[]>(chunk.map((id) => [id, []]));
    // One row an event (grouped by it); each match keeps its event_id, which the rules ignore.
    for (const row of rows) byEvent.set(row.event_id, (JSON.parse(row.matches) as MatchValues[]).map(matchFromValues));
    for (const [eventId, matches] of byEvent) yield { eventId, matches };
  }
}

async function loadTeams(db: Db, ids: Iterable<string>): Promise<Map<string, TeamFacts>> {
  const all = [...new Set(ids)];
  const teams = new Map<string, TeamFacts>();
  for (let i = 0; i < all.length; i += 500) {
    const rows = await db.selectFrom('teams').select(['id', 'name', 'name_ar']).where('id', 'in', all.slice(i, i + 500)).execute();
    for (const r of rows) teams.set(r.id, r);
  }
  return teams;
}

/**
 * Teams read by id, each once however many events name it: an organization's events share their teams (the 2,000
 * team queries of a full regeneration became about 200). It only grows: the rules only look teams up by id.
 */
export class TeamLookup {
  private readonly teams = new Map<string, TeamFacts>();

  /** The teams of these matches (and every team read before). */
  async of(db: Db, matches: readonly MatchFacts[]): Promise<ReadonlyMap<string, TeamFacts>> {
    const unread = new Set<string>();
    for (const m of matches) {
      if (m.home_team_id !== null && !this.teams.has(m.home_team_id)) unread.add(m.home_team_id);
      if (m.away_team_id !== null && !this.teams.has(m.away_team_id)) unread.add(m.away_team_id);
    }
    if (unread.size > 0) for (const [id, team] of await loadTeams(db, unread)) this.teams.set(id, team);
    return this.teams;
  }
}
