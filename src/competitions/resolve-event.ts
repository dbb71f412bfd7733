// Who plays each match of an event, read synchronously inside a write transaction (an RSVP invitation, an import),
// with the context the published bracket has (src/publish/render-organization.ts): its away goals rule and, where a
// slot is fed by a group's place or the best-placed teams of several, its group tables. One place, so that an
// invitation, an import's check and the bracket cannot disagree on who plays.
import type { SyncDb } from '../db/sync.js';
import { resolveTeams, type ResolvedMatch } from './bracket.js';
import { bracketContext } from './group-feeds.js';
import { parseRules } from './queries.js';
import type { EventFacts, MatchFacts, TeamFacts } from './types.js';

export interface ResolvedEvent {
  matches: MatchFacts[];
  /** By match id: its teams once its feeds are followed, and its winner and loser once decided (null: not known). */
  resolved: Map<string, ResolvedMatch>;
  /** What resolved it beyond its matches (null: the event is gone): with `teams`, what matchNames needs to name a slot. */
  terms: Pick<EventFacts, 'points' | 'rules' | 'status'> | null;
  /** The teams a group's table needed (none when no slot is fed by a group). */
  teams: Map<string, TeamFacts>;
}

export function resolveEvent(store: SyncDb, eventId: string): ResolvedEvent {
  const matches: MatchFacts[] = store.all(store.q.selectFrom('matches').selectAll().where('event_id', '=', eventId));
  const event = store.first(
    store.q.selectFrom('events')
      .select(['status', 'points_win', 'points_draw', 'points_loss', 'tiebreakers', 'decisions', 'adjustments', 'away_goals_rule', 'best_placed'])
      .where('id', '=', eventId),
  );
  if (!event) return { matches, resolved: resolveTeams(matches), terms: null, teams: new Map() };
  // Names only matter to a group's table (its last tie-break): read them only when a slot is fed by one (or by the
  // best-placed teams of several).
  const fedByGroup = matches.some(
    (m) => m.home_source_group != null || m.away_source_group != null || m.home_source_best != null || m.away_source_best != null,
  );
  const ids = fedByGroup ? [...new Set(matches.flatMap((m) => [m.home_team_id, m.away_team_id]).filter((t): t is string => t !== null))] : [];
  const teams = new Map<string, TeamFacts>(
    ids.length === 0 ? [] : store.all(store.q.selectFrom('teams').select(['id', 'name', 'name_ar']).where('id', 'in', ids)).map((t) => [t.id, t]),
  );
  const points = { win: event.points_win, draw: event.points_draw, loss: event.points_loss };
  const terms = { points, rules: parseRules(event), status: event.status };
  return { matches, resolved: resolveTeams(matches, bracketContext(terms, matches, teams)), terms, teams };
}
