// A hybrid event's group stage feeding its knockout: which team a group's final table puts at a position, once the
// group is finished. Pure: the same matches give the same places.
import { bestPlacedSlots } from './best-placed.js';
import { computeStandings, teamName, type StandingsRow } from './standings.js';
import type { BracketContext, EventFacts, MatchFacts, TeamFacts } from './types.js';

/**
 * A group is finished when every one of its matches is completed or cancelled (a cancelled match is never played,
 * so it cannot hold the table back) and at least one was completed. Until then its places are unknown (null), never
 * a provisional leader: the bracket and the calendar say "Winner Group A" instead. So is a place the rules leave to a
 * decision (lots, fair play) that is not recorded yet: the name that orders the table meanwhile seeds nobody.
 */
export function bracketContext(
  event: Pick<EventFacts, 'points' | 'rules'> & Partial<Pick<EventFacts, 'status'>>,
  matches: MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
): BracketContext {
  const awayGoalsRule = event.rules?.away_goals_rule ?? false;
  const fedByGroup = matches.some((m) => m.home_source_group != null || m.away_source_group != null);
  const rules = event.rules?.best_placed ?? [];
  const fedByBest = rules.length > 0 && matches.some((m) => m.home_source_best != null || m.away_source_best != null);
  if (!fedByGroup && !fedByBest) return { awayGoalsRule, groupPlace: () => null };
  const finished = new Map<string, boolean>();
  for (const m of matches) {
    if (m.bracket_role !== null || m.group_name === null) continue;
    const done = m.status === 'completed' || m.status === 'cancelled';
    finished.set(m.group_name, (finished.get(m.group_name) ?? true) && done);
  }
  const playedIn = new Set(matches.filter((m) => m.bracket_role === null && m.status === 'completed').map((m) => m.group_name));
  const isFinished = (group: string): boolean => finished.get(group) === true && playedIn.has(group);
  // Tables are computed once, on the first question.
  let rows: StandingsRow[] | null = null;
  const tables = (): StandingsRow[] => (rows ??= computeStandings(matches, teams, event.points, event.rules, event.status));
  let places: Map<string, string> | null = null;
  const best = new Map<string, (string | null)[]>();
  return {
    awayGoalsRule,
    groupPlace(group, position) {
      if (!isFinished(group)) return null;
      // A place only the name gives, where the rules want a decision (lots, fair play) not yet recorded, is not known.
      places ??= new Map(tables().filter((r) => !r.awaiting_decision).map((r) => [`${r.group_name}\u0000${r.rank}`, r.team_id]));
      return places.get(`${group}\u0000${position}`) ?? null;
    },
    bestPlaced(id, slot) {
      const rule = rules.find((r) => r.id === id);
      if (rule === undefined) return null;
      let slots = best.get(id);
      if (slots === undefined) {
        // Only once every group of the rule is finished are its tables worth computing.
        slots = rule.groups.every(isFinished)
          ? bestPlacedSlots(rule, tables(), isFinished, event.rules?.decisions ?? [], (t) => teamName(teams, t))
          : Array.from({ length: rule.qualify }, () => null);
        best.set(id, slots);
      }
      return slots[slot - 1] ?? null;
    },
  };
}
