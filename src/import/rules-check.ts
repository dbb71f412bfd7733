// Cross-file rules of an event's competition rules (tie-breakers, decisions, adjustments) and of its bracket's
// shape (one final). Called by crossCheck() in format.ts with the same paths and report function.
import { isHeadToHead } from '../competitions/tiebreakers.js';
import type { TiebreakCriterion } from '../vocabulary/enums.js';
import type { ImportEvent, Report } from './format.js';

/** The bracket role a match has once defaults apply (a knockout's matches are in the winners bracket). */
export function effectiveRole(ev: Pick<ImportEvent, 'type'>, m: ImportEvent['matches'][number]): string | null {
  return m.bracket_role ?? (ev.type === 'knockout' ? 'winners' : null);
}

export function checkCompetitionRules(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  teamIds: ReadonlySet<string>,
  report: Report,
  at: (element: object, index: number) => number,
): void {
  if (Array.isArray(ev.tiebreakers)) {
    const seen = new Set<string>();
    ev.tiebreakers.forEach((c, i) => {
      if (seen.has(c)) report([...eventPath, 'tiebreakers', i], `"${c}" is listed twice`);
      seen.add(c);
      const previous = ev.tiebreakers[i - 1] as TiebreakCriterion | undefined;
      if (c === 'reapply_head_to_head' && (previous === undefined || !isHeadToHead(previous))) {
        report([...eventPath, 'tiebreakers', i], '"reapply_head_to_head" must follow a head_to_head_* criterion');
      }
    });
  }

  ev.decisions.forEach((d, i) => {
    const path = [...eventPath, 'decisions', i];
    const teams = new Set(d.teams);
    if (teams.size !== d.teams.length) report([...path, 'teams'], 'names a team twice');
    d.teams.forEach((t, j) => {
      if (!teamIds.has(t)) report([...path, 'teams', j], `team "${t}" is not a team of this organization`);
    });
    const order = new Set(d.order);
    if (order.size !== d.order.length || order.size !== teams.size || d.order.some((t) => !teams.has(t))) {
      report([...path, 'order'], 'must list exactly the teams of "teams", each once, best first');
    }
  });

  // An adjustment for a club outside every table would silently count nowhere.
  const tabled = new Set<string>();
  for (const m of ev.matches) {
    if (effectiveRole(ev, m) !== null) continue;
    if (typeof m.home === 'string') tabled.add(m.home);
    if (typeof m.away === 'string') tabled.add(m.away);
  }
  ev.adjustments.forEach((a, i) => {
    if (!teamIds.has(a.team)) report([...eventPath, 'adjustments', i, 'team'], `team "${a.team}" is not a team of this organization`);
    else if (!tabled.has(a.team)) {
      report([...eventPath, 'adjustments', i, 'team'], `team "${a.team}" plays no league or group match of this event`);
    }
  });

  checkSingleFinal(ev, eventPath, report, at);
}

/**
 * The champion is the winner of the winners bracket's last match (or of a grand final). A last round of several
 * matches leaves the champion unknowable: typically a third-place match left without "bracket_role": "third_place",
 * which would make champion_name silently null. A first leg is not a match of its own here: its tie ends in the
 * second leg.
 */
function checkSingleFinal(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  if (ev.matches.some((m) => m.bracket_role === 'grand_final' || m.bracket_role === 'grand_final_reset')) return;
  const winners = ev.matches
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => effectiveRole(ev, m) === 'winners' && !isFirstLeg(m));
  if (winners.length === 0) return;
  const last = Math.max(...winners.map(({ m }) => m.round));
  const finals = winners.filter(({ m }) => m.round === last);
  if (finals.length < 2) return;
  const ids = finals.map(({ m }) => `"${m.id}"`).join(', ');
  for (const { m, i } of finals) {
    report(
      [...eventPath, 'matches', at(m, i), 'bracket_role'],
      `the winners bracket ends in ${finals.length} matches (${ids}) in round ${last}: the final must be one match; ` +
        'give a third-place match "bracket_role": "third_place", or enter the later rounds',
    );
  }
}

function isFirstLeg(m: ImportEvent['matches'][number]): boolean {
  return (m as { leg?: number | null }).leg === 1;
}
