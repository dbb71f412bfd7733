// Cross-file rules of an event's competition rules (tie-breakers, decisions, adjustments) and of its bracket's
// shape (one final). Called by crossCheck() in format.ts with the same paths and report function.
import { isHeadToHead, PRESETS, resolveTiebreakers } from '../competitions/tiebreakers.js';
import { TIEBREAK_PRESETS, type TiebreakCriterion } from '../vocabulary/enums.js';
import type { Report } from './cross-check.js';
import type { ImportBestPlaced, ImportEvent } from './format.js';
import { notATeam } from './issue-words.js';
import { compareGroupNames } from '../competitions/standings.js';
import { foldName } from '../text/fold.js';

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
      const next = ev.tiebreakers[i + 1] as TiebreakCriterion | undefined;
      if (c === 'all_meetings_played' && (next === undefined || !isHeadToHead(next))) {
        report([...eventPath, 'tiebreakers', i], '"all_meetings_played" must come right before a head_to_head_* criterion');
      }
    });
  }

  // Like an adjustment outside every table, a decision the tie-breakers never reach would silently count nowhere (a
  // best-placed rule's ranking can reach it too: its decisions order teams of different groups).
  const rankingDecides = ev.best_placed.some((b) => b.ranking.includes('decision'));
  if (ev.decisions.length > 0 && !resolveTiebreakers(ev.tiebreakers).includes('decision') && !rankingDecides) {
    const withDecision = TIEBREAK_PRESETS.filter((p) => PRESETS[p].includes('decision')).join(', ');
    report(
      [...eventPath, 'decisions'],
      `the tie-breakers list no "decision" criterion, so no decision would ever count: add "decision" to the list, or use a preset that has it (${withDecision})`,
    );
  }

  ev.decisions.forEach((d, i) => {
    const path = [...eventPath, 'decisions', i];
    const teams = new Set(d.teams);
    if (teams.size !== d.teams.length) report([...path, 'teams'], 'names a team twice');
    d.teams.forEach((t, j) => {
      if (!teamIds.has(t)) report([...path, 'teams', j], notATeam(t, teamIds));
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
    if (!teamIds.has(a.team)) report([...eventPath, 'adjustments', i, 'team'], notATeam(a.team, teamIds));
    else if (!tabled.has(a.team)) {
      report([...eventPath, 'adjustments', i, 'team'], `team "${a.team}" plays no league or group match of this event`);
    }
  });

  checkGroups(ev, eventPath, report, at);
  checkBestPlacedRules(ev, eventPath, report);
  checkWinnersNotFedByLosers(ev, eventPath, report, at);
  checkSingleFinal(ev, eventPath, report, at);
  checkTwoLeggedTies(ev, eventPath, report, at);
}

const sameSlot = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** For each key, the value seen with it most often (the first seen of those tied), and how often. */
function mostCounted(pairs: ReadonlyArray<readonly [string, string]>): Map<string, { value: string; count: number }> {
  const counts = new Map<string, Map<string, number>>();
  for (const [key, value] of pairs) {
    const values = counts.get(key) ?? new Map<string, number>();
    counts.set(key, values.set(value, (values.get(value) ?? 0) + 1));
  }
  return new Map([...counts].map(([key, values]) => {
    const [value, count] = [...values].sort((a, b) => b[1] - a[1])[0]!;
    return [key, { value, count }];
  }));
}

/** A group's name as a person reads it: case, width and spacing aside ("Group a", "Group  A" and "Group A" are one). */
const groupKey = foldName;

/**
 * The league or group matches of an event (those with no bracket role) make its tables: a group is written one way,
 * a team plays in one group, and either every such match is in a group or none is. An organizer's review: one World
 * Cup match typed "Group a" made a ninth table, and the wrong team went through to the round of 16; one league match
 * given a group split the league's table in two. Each problem is reported at the matches that differ from the rest.
 */
function checkGroups(ev: ImportEvent, eventPath: PropertyKey[], report: Report, at: (element: object, index: number) => number): void {
  const tabled = ev.matches.map((m, i) => ({ m, path: [...eventPath, 'matches', at(m, i), 'group'] })).filter(({ m }) => effectiveRole(ev, m) === null);
  const grouped = tabled.filter(({ m }) => m.group !== null);
  if (grouped.length === 0) return;
  if (grouped.length < tabled.length) {
    const few = grouped.length * 2 <= tabled.length;
    const names = [...new Set(grouped.map(({ m }) => `"${m.group}"`))].slice(0, 3).join(', ');
    for (const { m, path } of tabled) {
      if (few && m.group !== null) report(path, `the event's other ${tabled.length - grouped.length} league matches are in no group: leave "group" out (a group is a table of its own)`);
      if (!few && m.group === null) report(path, `the event's other league or group matches are in a group (${names}): give this one its group`);
    }
    return;
  }
  // One spelling per group, the most used one; one group per team, the one it plays most of its matches in.
  const spelling = mostCounted(grouped.map(({ m }) => [groupKey(m.group!), m.group!]));
  const groupOf = mostCounted(grouped.flatMap(({ m }) => [m.home, m.away].flatMap((t) => (typeof t === 'string' ? [[t, spelling.get(groupKey(m.group!))!.value] as const] : []))));
  for (const { m, path } of grouped) {
    const usual = spelling.get(groupKey(m.group!))!.value;
    if (usual !== m.group) {
      report(path, `"${m.group}" is written "${usual}" in the event's other matches: one group, one spelling`);
      continue;
    }
    for (const team of [m.home, m.away]) {
      if (typeof team !== 'string') continue;
      const { value: main, count } = groupOf.get(team)!;
      if (main === m.group) continue;
      report(path, `team "${team}" plays its other ${count} group matches in "${main}": a team plays in one group (a second group round is an event of its own)`);
      break;
    }
  }
}

/**
 * A tie is a first leg (`leg: 1`) and the one second leg that names it (`leg: 2, first_leg`), with the same two slots
 * swapped. The second leg decides the tie: feeds name it, never the first leg; a first leg has no penalties, extra
 * time or walkover; a completed second leg level on aggregate (and on away goals, when they count) needs penalties.
 */
function checkTwoLeggedTies(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  const byId = new Map(ev.matches.map((m) => [m.id, m]));
  const secondLegs = new Map<string, string>();
  const secondLegOf = new Map(ev.matches.flatMap((m) => (m.leg === 2 && m.first_leg !== null ? [[m.first_leg, m.id] as const] : [])));
  ev.matches.forEach((m, i) => {
    const path = [...eventPath, 'matches', at(m, i)];
    // A feed naming a first leg: reported at the feed, where the mistake is (an organizer's review found it at the
    // first leg's id).
    for (const side of ['home', 'away'] as const) {
      const s = m[side];
      if (s === null || typeof s !== 'object' || 'group' in s || 'best_placed' in s) continue;
      const [kind, source] = 'winner_of' in s ? (['winner_of', s.winner_of] as const) : (['loser_of', s.loser_of] as const);
      if (byId.get(source)?.leg !== 1) continue;
      const second = secondLegOf.get(source);
      report([...path, side, kind], `"${source}" is a first leg: name ${second ? `its second leg "${second}"` : 'the second leg'}, which decides the tie`);
    }
    if (m.leg !== null && effectiveRole(ev, m) === null) report([...path, 'leg'], 'only a bracket match can be a leg of a tie');
    if (m.first_leg !== null && m.leg !== 2) report([...path, 'first_leg'], 'only a second leg ("leg": 2) names a first leg');
    if (m.leg === 1) {
      if (m.score?.home_penalties != null) report([...path, 'score'], 'a first leg has no penalties: the second leg decides the tie');
      if (m.score?.after_extra_time) report([...path, 'score', 'after_extra_time'], 'a first leg has no extra time: the second leg decides the tie');
      if (m.walkover != null) report([...path, 'walkover'], 'record a walkover on the second leg, which decides the tie');
    }
    if (m.leg !== 2) return;
    if (m.first_leg === null) {
      report([...path, 'first_leg'], 'a second leg names its first leg');
      return;
    }
    const first = byId.get(m.first_leg);
    if (first === undefined || first.leg !== 1) {
      report([...path, 'first_leg'], `match "${m.first_leg}" is not a first leg ("leg": 1) of this event`);
      return;
    }
    const other = secondLegs.get(m.first_leg);
    if (other !== undefined) report([...path, 'first_leg'], `the first leg "${m.first_leg}" already has a second leg, "${other}"`);
    secondLegs.set(m.first_leg, m.id);
    if (!sameSlot(first.home, m.away) || !sameSlot(first.away, m.home)) {
      report([...path, 'home'], `a second leg has its first leg's teams the other way round (first leg "${first.id}")`);
    }
    const a = first.score;
    const b = m.score;
    if (m.status !== 'completed' || m.walkover != null || !a || !b || first.status !== 'completed') return;
    const level = b.home + a.away === b.away + a.home && (!ev.away_goals_rule || a.away === b.away);
    const pens = b.home_penalties != null && b.away_penalties != null;
    if (level && !pens) report([...path, 'score'], 'the tie is level (aggregate' + (ev.away_goals_rule ? ' and away goals' : '') + '): record the penalties');
    if (!level && pens) report([...path, 'score'], 'penalties only follow a level tie');
  });
  ev.matches.forEach((m, i) => {
    if (m.leg === 1 && !secondLegs.has(m.id)) report([...eventPath, 'matches', at(m, i), 'leg'], `no second leg names the first leg "${m.id}"`);
  });
}

/**
 * The winners bracket's last round as the file has it, when it has several matches and no grand final: a cup whose
 * later rounds are not drawn yet (drawn round by round, as most national cups are). Null when the bracket ends in one
 * match, or a grand final decides it. A first leg is not a match of its own here: its tie ends in the second leg.
 */
function openLastRound(ev: ImportEvent): { round: number; matches: Array<{ m: ImportEvent['matches'][number]; i: number }> } | null {
  if (ev.matches.some((m) => m.bracket_role === 'grand_final' || m.bracket_role === 'grand_final_reset')) return null;
  const winners = ev.matches
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => effectiveRole(ev, m) === 'winners' && !isFirstLeg(m));
  if (winners.length === 0) return null;
  const round = Math.max(...winners.map(({ m }) => m.round));
  const matches = winners.filter(({ m }) => m.round === round);
  return matches.length < 2 ? null : { round, matches };
}

/**
 * A team that lost is out of the winners bracket: a match of it fed by a loser is a third-place match (or a losers
 * bracket's) left without its role. Left there, it could be read as the final: a review's cup, its final not entered
 * yet, named a beaten semi-finalist champion.
 */
function checkWinnersNotFedByLosers(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  ev.matches.forEach((m, i) => {
    if (effectiveRole(ev, m) !== 'winners') return;
    for (const side of ['home', 'away'] as const) {
      const s = m[side];
      if (s === null || typeof s !== 'object' || !('loser_of' in s)) continue;
      report(
        [...eventPath, 'matches', at(m, i), side, 'loser_of'],
        'a loser does not play on in the winners bracket: give a third-place match "bracket_role": "third_place" (a losers bracket\'s match "losers")',
      );
    }
  });
}

/**
 * The champion is the winner of the winners bracket's last match (or of a grand final). A last round of several
 * matches is a cup still being drawn while the competition is under way: its champion is unknown until the later
 * rounds are entered (the import's summary says so). It is refused once the competition is completed. A season
 * review's organizer, whose cup was drawn round by round, had to make up the later pairings to enter the first round.
 */
function checkSingleFinal(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  const open = openLastRound(ev);
  if (open === null || ev.status !== 'completed') return;
  const ids = open.matches.map(({ m }) => `"${m.id}"`).join(', ');
  for (const { m, i } of open.matches) {
    report(
      [...eventPath, 'matches', at(m, i), 'bracket_role'],
      `the winners bracket ends in ${open.matches.length} matches (${ids}) in round ${open.round}, and the competition is completed: ` +
        'enter its later rounds to its final, give a third-place match "bracket_role": "third_place", or, while its later rounds are still to be drawn, ' +
        'give the competition "status": "in_progress"',
    );
  }
}

function isFirstLeg(m: ImportEvent['matches'][number]): boolean {
  return m.leg === 1;
}

/**
 * A bracket slot of a hybrid event fed by a group's final table: the group is a group of the event's group stage and
 * the position is one of its table's places.
 */
export function checkGroupFeed(
  ev: ImportEvent,
  role: string | null,
  slot: { group: string; position: number },
  path: PropertyKey[],
  report: Report,
): boolean {
  if (ev.type !== 'hybrid' || role === null) {
    report(path, "only a bracket match of a hybrid event can be fed by a group's table");
    return false;
  }
  const teams = new Set<string>();
  for (const m of ev.matches) {
    if (m.group !== slot.group || effectiveRole(ev, m) !== null) continue;
    if (typeof m.home === 'string') teams.add(m.home);
    if (typeof m.away === 'string') teams.add(m.away);
  }
  if (teams.size === 0) report([...path, 'group'], `"${slot.group}" is not a group of this event`);
  else if (slot.position > teams.size) report([...path, 'position'], `"${slot.group}" has ${teams.size} teams`);
  else return true;
  return false;
}

/** The teams of each group of the event's group stage, by group. */
function groupTeams(ev: ImportEvent): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of ev.matches) {
    if (m.group === null || effectiveRole(ev, m) !== null) continue;
    const teams = out.get(m.group) ?? new Set<string>();
    out.set(m.group, teams);
    if (typeof m.home === 'string') teams.add(m.home);
    if (typeof m.away === 'string') teams.add(m.away);
  }
  return out;
}

/** A best-placed rule's groups: as listed, or every group of the event (in group order). */
export function bestPlacedGroups(ev: ImportEvent, rule: ImportBestPlaced): string[] {
  return rule.groups ?? [...groupTeams(ev).keys()].sort(compareGroupNames);
}

/** n choose k, or Infinity past `cap` (an allocation table that large is refused anyway). */
function choose(n: number, k: number, cap: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) {
    c = (c * (n - k + i)) / i;
    if (c > cap) return Infinity;
  }
  return Math.round(c);
}

const MAX_ALLOCATION_ROWS = 5000;

/**
 * An event's best-placed rules (README "Group stage to knockout"): a hybrid event's; each id once; groups of the
 * event, each once, at least two, all of the same size and with a team at the position; at most as many qualify as
 * there are groups; a ranking without a criterion twice; and an allocation table, when given, with exactly one row
 * per combination of `qualify` groups, each row's slots a permutation of its groups.
 */
function checkBestPlacedRules(ev: ImportEvent, eventPath: PropertyKey[], report: Report): void {
  const tables = groupTeams(ev);
  const ids = new Map<string, number>();
  ev.best_placed.forEach((rule, i) => {
    const path = [...eventPath, 'best_placed', i];
    if (ev.type !== 'hybrid') {
      report(path, 'only a hybrid event ranks the teams of several groups');
      return;
    }
    const first = ids.get(rule.id);
    if (first !== undefined) report([...path, 'id'], `"${rule.id}" is the id of best_placed[${first}] already`);
    else ids.set(rule.id, i);
    const groups = bestPlacedGroups(ev, rule);
    let groupsOk = true;
    const seen = new Set<string>();
    groups.forEach((g, j) => {
      const where = rule.groups === null ? path : [...path, 'groups', j];
      if (seen.has(g)) {
        report(where, `"${g}" is listed twice`);
        groupsOk = false;
      }
      seen.add(g);
      if (!tables.has(g)) {
        report(where, `"${g}" is not a group of this event`);
        groupsOk = false;
      }
    });
    if (rule.groups === null && groups.length < 2) {
      report(path, `the event has ${groups.length} group${groups.length === 1 ? '' : 's'}: the best-placed teams of one group are its table's places`);
      return;
    }
    if (!groupsOk) return;
    const sizes = groups.map((g) => tables.get(g)?.size ?? 0);
    const smallest = Math.min(...sizes);
    if (sizes.some((n) => n !== smallest)) {
      report(
        [...path, rule.groups === null ? 'position' : 'groups'],
        `the groups have different numbers of teams (${groups.map((g, j) => `${g}: ${sizes[j]}`).join(', ')}): records over different numbers of matches do not compare`,
      );
    } else if (rule.position > smallest) {
      report([...path, 'position'], `the groups have ${smallest} teams`);
    }
    if (rule.qualify > groups.length) report([...path, 'qualify'], `must be at most the number of groups (${groups.length})`);
    const criteria = new Set<string>();
    rule.ranking.forEach((c, j) => {
      if (criteria.has(c)) report([...path, 'ranking', j], `"${c}" is listed twice`);
      criteria.add(c);
    });
    if (rule.allocation !== null && rule.qualify <= groups.length) checkAllocation(rule, groups, path, report);
  });
}

function checkAllocation(rule: ImportBestPlaced, groups: readonly string[], path: PropertyKey[], report: Report): void {
  const allocation = rule.allocation ?? [];
  const expected = choose(groups.length, rule.qualify, MAX_ALLOCATION_ROWS);
  if (expected === Infinity) {
    report([...path, 'allocation'], `${groups.length} groups of which ${rule.qualify} qualify make more than ${MAX_ALLOCATION_ROWS} combinations`);
    return;
  }
  const inRule = new Set(groups);
  const rows = new Map<string, number>();
  allocation.forEach((row, i) => {
    const rowPath = [...path, 'allocation', i];
    const own = new Set<string>();
    let ok = true;
    row.groups.forEach((g, j) => {
      if (own.has(g)) {
        report([...rowPath, 'groups', j], `"${g}" is listed twice`);
        ok = false;
      } else if (!inRule.has(g)) {
        report([...rowPath, 'groups', j], `"${g}" is not one of the rule's groups`);
        ok = false;
      }
      own.add(g);
    });
    if (ok && row.groups.length !== rule.qualify) {
      report([...rowPath, 'groups'], `must name ${rule.qualify} groups (the number that qualify), not ${row.groups.length}`);
      ok = false;
    }
    const slots = new Set(row.slots);
    if (slots.size !== row.slots.length || slots.size !== own.size || row.slots.some((g) => !own.has(g))) {
      report([...rowPath, 'slots'], 'must list the groups of "groups", each once, in slot order');
    }
    if (!ok) return;
    const key = [...row.groups].sort().join('\u0000');
    const earlier = rows.get(key);
    if (earlier !== undefined) report([...rowPath, 'groups'], `the same groups as allocation[${earlier}]: one row per combination`);
    else rows.set(key, i);
  });
  if (allocation.length !== expected) {
    report(
      [...path, 'allocation'],
      `must have ${expected} rows, one per combination of ${rule.qualify} groups out of ${groups.length} (has ${allocation.length})`,
    );
  }
}

/** A slot fed by a best-placed rule: a bracket match of a hybrid event, a rule of the event, one of its slots. */
export function checkBestPlacedFeed(
  ev: ImportEvent,
  role: string | null,
  slot: { best_placed: string; slot: number },
  path: PropertyKey[],
  report: Report,
): boolean {
  if (ev.type !== 'hybrid' || role === null) {
    report(path, 'only a bracket match of a hybrid event can be fed by the best-placed teams of several groups');
    return false;
  }
  const rule = ev.best_placed.find((r) => r.id === slot.best_placed);
  if (rule === undefined) {
    report([...path, 'best_placed'], `"${slot.best_placed}" is not a best_placed rule of this event`);
    return false;
  }
  if (slot.slot > rule.qualify) {
    report([...path, 'slot'], `"${rule.id}" has ${rule.qualify} slot${rule.qualify === 1 ? '' : 's'}`);
    return false;
  }
  return true;
}
