// The import format's rules across the whole file (unique ids, references, feeds, results that make sense for the
// competition), each problem with its JSON path. The shape of each element is format.ts's zod schema.
import { isReservedId } from '../vocabulary/ids.js';
import type { ImportEvent, ImportFile, ImportMatch } from './format.js';
import { notATeam } from './issue-words.js';
import { checkBestPlacedFeed, checkCompetitionRules, checkGroupFeed, effectiveRole } from './rules-check.js';

export interface ImportProblem {
  /**
   * JSON path of the offending value, each element of a list with ids named by its id, e.g.
   * `organizations[0] ("rsl").leagues[1] ("rsl-cup").events[0] ("rsl-cup-2026").matches[3] ("rsl-cup-r1-2").home`.
   */
  path: string;
  message: string;
}

/** The file's lists whose elements have an id. */
const LISTS_WITH_IDS: ReadonlySet<PropertyKey> = new Set(['organizations', 'leagues', 'events', 'matches', 'teams', 'members', 'divisions']);
/** Ids are at most 64 characters: a longer one (refused) is cut, so that a pasted text does not flood each path. */
const ID_SHOWN = 64;

/**
 * `path` as the organizer reads it: `a.b[2].c`. With the file as parsed (`root`), an element of a list with ids gets
 * its id after its index, `matches[250] ("fed-m251").kickoff`: an organizer's review had to count to the 251st match
 * of a 380-match file. An element without a string id (a broken one) keeps its index alone.
 */
export function formatPath(path: readonly PropertyKey[], root?: unknown): string {
  let out = '';
  let node: unknown = root;
  let list: PropertyKey | undefined;
  for (const part of path) {
    const child = node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[part] : undefined;
    if (typeof part === 'number') {
      out += `[${part}]`;
      const id = Array.isArray(node) && list !== undefined && LISTS_WITH_IDS.has(list) && child !== null && typeof child === 'object' ? (child as { id?: unknown }).id : undefined;
      if (typeof id === 'string') out += ` (${JSON.stringify(id.length > ID_SHOWN ? `${id.slice(0, ID_SHOWN)}…` : id)})`;
    } else out += out === '' ? String(part) : `.${String(part)}`;
    node = child;
    list = part;
  }
  return out === '' ? '(root)' : out;
}

/**
 * Rules across the whole file. Returns every problem, each with its JSON path. `broken` holds
 * `kind:id` keys of elements that failed their own validation (already reported): references to
 * them are not reported a second time.
 */
/**
 * In `broken`: an event one of whose matches failed its own rules. Its bracket's shape, its two-legged ties, its
 * groups and its rules' teams are checked once that match is right: without it, they reported problems that were not
 * there (an organizer's review: a final's kickoff without an offset gave two false "the winners bracket ends in 2
 * matches" beside the right one).
 */
export const incompleteEventKey = (eventId: string) => `incomplete-event:${eventId}`;

export function crossCheck(
  file: ImportFile,
  broken: ReadonlySet<string> = new Set(),
  positions: WeakMap<object, number> = new WeakMap(),
  root: unknown = file,
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  // Index of an element in the file as written (the validator may have dropped broken siblings).
  const at = (element: object, index: number) => positions.get(element) ?? index;
  // The ids in paths are read in the file as written (`root`), where those indexes point.
  const report = (path: PropertyKey[], message: string) => problems.push({ path: formatPath(path, root), message });

  const seen = new Map<string, Map<string, string>>();
  const unique = (kind: string, value: string, path: PropertyKey[]) => {
    const kindSeen = seen.get(kind) ?? new Map<string, string>();
    seen.set(kind, kindSeen);
    const first = kindSeen.get(value);
    if (first) report(path, `duplicate ${kind} id "${value}" (first used at ${first})`);
    else kindSeen.set(value, formatPath(path, root));
  };

  file.organizations.forEach((org, o) => {
    const orgPath = ['organizations', at(org, o)];
    unique('organization', org.id, [...orgPath, 'id']);
    const teamIds = new Set(org.teams.map((t) => t.id));
    const leagueIds = new Set(org.leagues.map((l) => l.id));
    for (const key of broken) {
      if (key.startsWith('team:')) teamIds.add(key.slice(5));
      if (key.startsWith('league:')) leagueIds.add(key.slice(7));
    }
    org.teams.forEach((team, t) => {
      const teamPath = [...orgPath, 'teams', at(team, t)];
      unique('team', team.id, [...teamPath, 'id']);
      team.members.forEach((m, i) => unique('member', m.id, [...teamPath, 'members', at(m, i), 'id']));
    });
    org.divisions.forEach((d, i) => {
      const divisionPath = [...orgPath, 'divisions', at(d, i)];
      unique('division', d.id, [...divisionPath, 'id']);
      if (d.league !== null && !leagueIds.has(d.league)) {
        report([...divisionPath, 'league'], `league "${d.league}" is not a league of this organization`);
      }
      if (d.opens_at && d.closes_at && d.closes_at <= d.opens_at) report([...divisionPath, 'closes_at'], 'must be after opens_at');
      if (d.born_from && d.born_until && d.born_until < d.born_from) report([...divisionPath, 'born_until'], 'must be on or after born_from');
    });
    org.leagues.forEach((league, l) => {
      const leaguePath = [...orgPath, 'leagues', at(league, l)];
      unique('league', league.id, [...leaguePath, 'id']);
      league.events.forEach((ev, e) => {
        const eventPath = [...leaguePath, 'events', at(ev, e)];
        unique('event', ev.id, [...eventPath, 'id']);
        if (ev.starts_at && ev.ends_at && ev.ends_at < ev.starts_at) {
          report([...eventPath, 'ends_at'], 'must not be before starts_at');
        }
        const matchIds = new Set(ev.matches.map((m) => m.id));
        for (const key of broken) if (key.startsWith(`match:${ev.id}:`)) matchIds.add(key.slice(`match:${ev.id}:`.length));
        // A hybrid's group matches: they send teams on by their group's table, never by one result.
        const groupMatches = new Set(ev.type === 'hybrid' ? ev.matches.filter((m) => effectiveRole(ev, m) === null).map((m) => m.id) : []);
        const feeds = new Map<string, string>();
        ev.matches.forEach((m, i) => {
          const matchPath = [...eventPath, 'matches', at(m, i)];
          unique('match', m.id, [...matchPath, 'id']);
          if (isReservedId('match', m.id)) report([...matchPath, 'id'], `"${m.id}" cannot be a match id: /api/v0/rsvp/${m.id.toLowerCase()} is another endpoint`);
          checkMatch(ev, m, matchPath, teamIds, matchIds, groupMatches, report, feeds);
        });
        checkDuplicates(ev, eventPath, report, at);
        checkFeedCycles(ev, eventPath, report, at);
        checkOneTiePerRound(ev, eventPath, report, at);
        checkPlayOrder(ev, eventPath, report, at);
        if (!broken.has(incompleteEventKey(ev.id))) checkCompetitionRules(ev, eventPath, teamIds, report, at);
      });
    });
  });
  return problems;
}

export type Report = (path: PropertyKey[], message: string) => void;

function checkMatch(
  ev: ImportEvent,
  m: ImportMatch,
  path: PropertyKey[],
  teamIds: Set<string>,
  matchIds: Set<string>,
  groupMatches: Set<string>,
  report: Report,
  feeds: Map<string, string>,
): void {
  const role = effectiveRole(ev, m);
  if (ev.type === 'league' && role !== null) report([...path, 'bracket_role'], 'a league event has no bracket');
  for (const side of ['home', 'away'] as const) {
    const s = m[side];
    if (s === null) continue;
    if (typeof s === 'string') {
      if (!teamIds.has(s)) report([...path, side], notATeam(s, teamIds));
      continue;
    }
    let fed: boolean;
    if ('group' in s) fed = checkGroupFeed(ev, role, s, [...path, side], report);
    else if ('best_placed' in s) fed = checkBestPlacedFeed(ev, role, s, [...path, side], report);
    else {
      const source = 'winner_of' in s ? s.winner_of : s.loser_of;
      fed = false;
      if (role === null) report([...path, side], 'only a bracket match can be fed by another match');
      else if (source === m.id) report([...path, side], 'a match cannot feed itself');
      else if (!matchIds.has(source)) report([...path, side], `match "${source}" is not a match of this event`);
      else if (groupMatches.has(source)) {
        report([...path, side], `match "${source}" is a group match: a group sends teams on by its table ({"group": …, "position": …}), not by one result`);
      } else if ('loser_of' in s && isByeSpec(ev.matches.find((x) => x.id === source))) {
        // A review's losers' bracket took the loser of a bye: the slot, and every match after it, stayed empty for good.
        report([...path, side], `match "${source}" is a bye: nobody loses it, so it has no loser to send on`);
      } else fed = true;
    }
    // One team fills one slot: a source named by two slots would put it in two ties at once. A first leg names
    // the same slots as its second leg (checked there): the tie uses them once.
    if (!fed || m.leg === 1) continue;
    const key = feedKey(s);
    const other = feeds.get(key);
    if (other !== undefined) report([...path, side], `${describeFeed(s)} already feeds match "${other}"`);
    else feeds.set(key, m.id);
  }
  if (role === null && (m.home === null || m.away === null)) {
    report([...path, m.home === null ? 'home' : 'away'], 'a league or group match needs both teams');
  }
  if (typeof m.home === 'string' && m.home === m.away) report([...path, 'away'], 'a team cannot play itself');
  // A review tagged a hybrid's group match as a bracket match: it left its group's table and ended a bracket of its own.
  if (ev.type === 'hybrid' && role !== null && m.group != null) {
    report([...path, 'group'], 'a bracket match is in no group: leave out "group", or "bracket_role" for a group match');
  }
  if (m.kickoff && m.ends_at && m.ends_at <= m.kickoff) report([...path, 'ends_at'], 'must be after kickoff');
  // A calendar user's review: an organizer cleared a postponed match's kickoff ("date to be confirmed"), and every
  // subscribed calendar deleted the match instead of showing it postponed (a feed has no event without a kickoff).
  if (m.status === 'postponed' && !m.kickoff) {
    report([...path, 'kickoff'], 'a postponed match keeps its last kickoff: calendars show the match there, marked postponed, until its new kickoff is set (without one they drop it)');
  }

  const bye = role !== null && (m.home === null) !== (m.away === null);
  const hasResult = m.score != null || m.walkover != null;
  if (m.status === 'completed' && !hasResult && !bye) {
    report([...path, 'score'], 'a completed match needs a score (or a walkover in a bracket)');
  }
  if (hasResult && !['completed', 'in_progress'].includes(m.status)) {
    // A match without "status" is scheduled: an organizer who left it out read "cannot be scheduled" as nonsense.
    report([...path, 'status'], `a match with a result cannot be ${m.status}${m.status === 'scheduled' ? ' (a match without "status" is scheduled): give "status": "completed"' : ''}`);
  }
  if (m.walkover != null && role === null) {
    report([...path, 'walkover'], 'a walkover decides a bracket match; record a league walkover as its awarded score');
  }
  if (m.walkover != null && m.status !== 'completed') report([...path, 'status'], 'a walkover is a completed match');
  const s = m.score;
  if (s) {
    const hasPens = s.home_penalties != null || s.away_penalties != null;
    if (hasPens) {
      if (s.home_penalties == null || s.away_penalties == null) {
        report([...path, 'score'], 'penalties need both home_penalties and away_penalties');
      } else if (s.home_penalties === s.away_penalties) {
        report([...path, 'score', 'home_penalties'], 'a shoot-out cannot end level');
      }
      // A second leg's penalties follow a level tie (rules-check.ts), whatever the leg's own score.
      if (s.home !== s.away && m.leg === null) report([...path, 'score'], 'penalties only follow a level score');
      if (role === null) report([...path, 'score'], 'penalties only decide a bracket match');
    }
    if (s.after_extra_time && role === null) report([...path, 'score', 'after_extra_time'], 'extra time only follows a level bracket match');
    if (role !== null && m.leg === null && m.status === 'completed' && m.walkover == null && s.home === s.away && !hasPens) {
      report([...path, 'score'], 'a completed bracket match cannot end level without penalties');
    }
  }
}

export type Feed = Exclude<ImportMatch['home'], string | null>;

/** A bracket match with one empty slot (the caller knows it is in the bracket): its team goes through unplayed. */
function isByeSpec(m: ImportMatch | undefined): boolean {
  return m !== undefined && (m.home === null) !== (m.away === null);
}

function feedKey(s: Feed): string {
  if ('group' in s) return `group\u0000${s.group}\u0000${s.position}`;
  if ('best_placed' in s) return `best_placed\u0000${s.best_placed}\u0000${s.slot}`;
  return 'winner_of' in s ? `winner_of\u0000${s.winner_of}` : `loser_of\u0000${s.loser_of}`;
}

/** A feed as the file writes it, in the words of the import's messages: `the winner of "qf1"`. */
export function describeFeed(s: Feed): string {
  if ('group' in s) return `place ${s.position} of group "${s.group}"`;
  if ('best_placed' in s) return `slot ${s.slot} of "${s.best_placed}"`;
  return 'winner_of' in s ? `the winner of "${s.winner_of}"` : `the loser of "${s.loser_of}"`;
}

/**
 * A team named in a bracket plays one tie per round (its two legs are one tie): named in two ties of a round, it
 * would meet itself in the next (a review's cup imported with one team home in both semi-finals, and its final read
 * "Alpha vs Alpha"). Teams a feed will name are checked where they are decided.
 */
function checkOneTiePerRound(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  const ties = new Map<string, string>();
  const firstLegs = new Set(ev.matches.filter((m) => m.leg === 1).map((m) => m.id));
  ev.matches.forEach((m, i) => {
    const role = effectiveRole(ev, m);
    if (role === null) return;
    // A second leg without a first leg of this event is reported as such (rules-check.ts): not a tie of its own too.
    if (m.leg === 2 && (m.first_leg === null || !firstLegs.has(m.first_leg))) return;
    const tie = tieOf(m);
    for (const side of ['home', 'away'] as const) {
      const team = m[side];
      if (typeof team !== 'string') continue;
      const key = `${role}\u0000${m.round}\u0000${team}`;
      const other = ties.get(key);
      if (other === undefined) ties.set(key, tie);
      else if (other !== tie) {
        const bracket = role === 'winners' ? '' : ` of the ${role.replace('_', ' ')} bracket`;
        report([...eventPath, 'matches', at(m, i), side], `team "${team}" already plays in round ${m.round}${bracket} (match "${other}"): a team plays one tie per round`);
      }
    }
  });
}

/** The matches whose result names a team of `m` (its winner_of and loser_of slots), home first. */
function fedBy(m: ImportMatch): string[] {
  const sources: string[] = [];
  for (const s of [m.home, m.away]) {
    if (s !== null && typeof s === 'object' && !('group' in s) && !('best_placed' in s)) sources.push('winner_of' in s ? s.winner_of : s.loser_of);
  }
  return sources;
}

/**
 * Matches do not kick off before what decides them: a bracket match before the matches that feed it, a second leg
 * before its first (a review's final kicked off before its semi-finals, and its second leg before its first, both
 * taken). Only between matches that both have a kickoff; the same kickoff is taken (a placeholder date for a whole
 * bracket whose days are not set yet).
 */
function checkPlayOrder(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  const kickoff = new Map(ev.matches.filter((m) => m.kickoff).map((m) => [m.id, Date.parse(m.kickoff!)]));
  ev.matches.forEach((m, i) => {
    const own = kickoff.get(m.id);
    if (own === undefined) return;
    const path = [...eventPath, 'matches', at(m, i), 'kickoff'];
    for (const source of new Set(fedBy(m))) {
      const before = kickoff.get(source);
      if (before !== undefined && own < before) report(path, `must not be before the kickoff of match "${source}", which decides a team of it`);
    }
    const first = m.leg === 2 && m.first_leg !== null ? kickoff.get(m.first_leg) : undefined;
    if (first !== undefined && own < first) report(path, `must not be before the kickoff of its first leg "${m.first_leg}"`);
  });
}

/** A bracket whose feeds loop can never be decided. */
function checkFeedCycles(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  const feeds = new Map(ev.matches.map((m) => [m.id, fedBy(m)]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (matchId: string): boolean => {
    const st = state.get(matchId);
    if (st === 'done') return false;
    if (st === 'visiting') return true;
    state.set(matchId, 'visiting');
    const cyclic = (feeds.get(matchId) ?? []).some(visit);
    state.set(matchId, 'done');
    return cyclic;
  };
  ev.matches.forEach((m, i) => {
    if (!state.has(m.id) && visit(m.id)) {
      report([...eventPath, 'matches', at(m, i)], `the feeds through match "${m.id}" form a cycle`);
    }
  });
}

/** The tie a match is of: a second leg's is its first leg's id, any other match's its own. */
export const tieOf = (m: ImportMatch): string => (m.leg === 2 && m.first_leg !== null ? m.first_leg : m.id);

/** A match that will be played or was: not cancelled or postponed, and not a bye (its team goes through unplayed). */
export const isPlayed = (m: ImportMatch) => m.status !== 'cancelled' && m.status !== 'postponed' && m.home !== null && m.away !== null;

/**
 * A pasted duplicate: the same home, away, round and kickoff (or none) twice, both counted in the table. Refused at the
 * later one, naming the earlier. A cancelled or postponed match is no duplicate of its replay; two meetings of one
 * pair at two kickoffs (a double header, a rematch in a round the file left out) are not refused, nor a team in two
 * matches at one kickoff (a day's placeholder time): src/import/notes.ts points those out, as a review found real
 * competitions that have them.
 */
function checkDuplicates(
  ev: ImportEvent,
  eventPath: PropertyKey[],
  report: Report,
  at: (element: object, index: number) => number,
): void {
  const fixtures = new Map<string, string>();
  ev.matches.forEach((m, i) => {
    if (!isPlayed(m)) return;
    const fixture = JSON.stringify([m.home, m.away, m.round, m.kickoff]);
    const same = fixtures.get(fixture);
    if (same === undefined) fixtures.set(fixture, m.id);
    else {
      const when = m.kickoff === null ? 'no kickoff' : 'kickoff';
      report([...eventPath, 'matches', at(m, i), 'id'], `the same match as "${same}" (the same home, away, round and ${when}): a pasted duplicate? give each match once`);
    }
  });
}
