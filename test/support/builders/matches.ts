// Test builder shared by the rule tables: one MatchFacts from a compact description.
import type { BracketRole, Side } from '../../../src/vocabulary/enums.js';
import type { MatchFacts } from '../../../src/competitions/types.js';

/** A slot as written in a test: a seeded team id, a feed, or null for an empty slot. */
export type SlotSpec = string | { winner_of: string } | { loser_of: string } | null;

export interface Result {
  score?: [number, number];
  pens?: [number, number];
  walkover?: Side;
  status?: MatchFacts['status'];
}

export const W = (id: string) => ({ winner_of: id });
export const L = (id: string) => ({ loser_of: id });

export function match(spec: {
  id: string;
  role: BracketRole | null;
  round: number;
  position?: number;
  home: SlotSpec;
  away: SlotSpec;
  result?: Result;
  group?: string | null;
}): MatchFacts {
  const slot = (s: SlotSpec) =>
    s === null || typeof s === 'string'
      ? { team: s, source: null, outcome: null }
      : 'winner_of' in s
        ? { team: null, source: s.winner_of, outcome: 'winner' as const }
        : { team: null, source: s.loser_of, outcome: 'loser' as const };
  const h = slot(spec.home);
  const a = slot(spec.away);
  const result = spec.result ?? {};
  const decided = result.score !== undefined || result.walkover !== undefined;
  return {
    id: spec.id,
    round_ordinal: spec.round,
    round_name: null,
    group_name: spec.group ?? null,
    bracket_role: spec.role,
    bracket_position: spec.position ?? 0,
    home_team_id: h.team,
    away_team_id: a.team,
    home_source_match_id: h.source,
    home_source_outcome: h.outcome,
    away_source_match_id: a.source,
    away_source_outcome: a.outcome,
    kickoff_at: null,
    ends_at: null,
    venue: null,
    status: result.status ?? (decided ? 'completed' : 'scheduled'),
    home_score: result.score?.[0] ?? null,
    away_score: result.score?.[1] ?? null,
    home_penalties: result.pens?.[0] ?? null,
    away_penalties: result.pens?.[1] ?? null,
    walkover_winner: result.walkover ?? null,
    sequence: 0,
    updated_at: '2026-01-01T00:00:00Z',
  };
}
