// Loads an import file into the database: all or nothing, idempotent, rows updated by id.
// The file is the whole truth about the organizations it lists: their rows that the file no longer
// holds are removed. This bulk path uses better-sqlite3 statements directly (prepared once, run in one
// synchronous transaction) because it writes up to hundreds of thousands of rows.
import type Database from 'better-sqlite3';
import { duplicateJsonKeyAt } from '../json-keys.js';
import { csvProblem, printable } from './file-kind.js';
import { describeJsonSyntaxError, lineAndColumn } from './json-syntax.js';
import { validateImport } from './validate.js';
import { describeFeed, formatPath, type Feed, type ImportProblem } from './cross-check.js';
import type { ImportFile, ImportMatch, ImportSlot } from './format.js';
import { sideFeed } from '../competitions/bracket.js';
import { beatenPlayingOn, tiesLeadingNowhere } from '../competitions/champion.js';
import { bestPlacedGroups } from './rules-check.js';
import { resolveEvent, type ResolvedEvent } from '../competitions/resolve-event.js';
import type { MatchFacts } from '../competitions/types.js';
import { SyncDb } from '../db/sync.js';
import { changeArrow } from '../text/arrow.js';
import { formatDateTime } from '../time/local-time.js';
import { matchSides, type MatchSides } from '../rsvp/match-sides.js';
import { withdrawInvitation } from '../rsvp/service.js';
import { tellNewTeams, tellWithdrawn } from '../rsvp/tell-invitees.js';
import { invitationOutOfMatch, invitedAddressCurrent, rsvpState, stillToCome, type MatchForState } from '../rsvp/state.js';
import { foldName } from '../text/fold.js';
import { byEvent, eventChanges, teamLabel, visibilityChanges, type CityChange, type EventSeen } from './diff.js';

export type ParseResult = { ok: true; file: ImportFile } | { ok: false; problems: ImportProblem[] };

/**
 * Parses and validates the text of an import file, reporting every problem with its JSON path. The problems quote the
 * file (an excerpt, a key), so they leave printable: a control character in them is written as its escape.
 */
export function parseImport(text: string): ParseResult {
  const parsed = parseText(text);
  if (parsed.ok) return parsed;
  return { ok: false, problems: parsed.problems.map((p) => ({ path: printable(p.path), message: printable(p.message) })) };
}

function parseText(text: string): ParseResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const csv = csvProblem(text);
    if (csv !== null) return { ok: false, problems: [{ path: '(file)', message: csv }] };
    return { ok: false, problems: [{ path: '(root)', message: `not valid JSON: ${describeJsonSyntaxError(text)}` }] };
  }
  // JSON.parse keeps the last of a key given twice: a "kickoff" or "status" pasted twice would change data unseen.
  // Refused, as the API refuses such a body (RFC 7493).
  const twice = duplicateJsonKeyAt(text);
  if (twice) {
    const { line, column } = lineAndColumn(text, twice.offset);
    const message = `the key ${JSON.stringify(twice.key)} is given twice in one object (line ${line}, column ${column}): give each field once`;
    return { ok: false, problems: [{ path: '(root)', message }] };
  }
  return validateImport(json);
}

export interface ImportCounts {
  organizations: number;
  leagues: number;
  divisions: number;
  teams: number;
  members: number;
  events: number;
  matches: number;
  /** Rows inserted or changed, and rows removed because the file no longer holds them. */
  changed: number;
  removed: number;
  /**
   * Leagues the file no longer holds that people followed: their follows (pending or confirmed) end with them, and
   * their followers are told nothing more. Said by the command, so that it is never silent.
   */
  endedFollows: Array<{ league: string; name: string; follows: number }>;
  /**
   * Matches the file no longer holds that had a result or RSVP invitations: removed with them (the invitations by ON
   * DELETE CASCADE), and the invited members are told nothing. Said by the command, as the follows are.
   */
  removedMatches: RemovedMatch[];
  /**
   * Competitions whose visibility the import changes: made private or public, or removed while public. An organizer's
   * review: nothing said a competition was leaving the public (its readers and its calendars' subscribers).
   */
  visibility: Array<{ event: string; name: string; now: 'private' | 'public' | 'removed' }>;
  /**
   * Members the file no longer holds who were invited to matches it keeps: their invitations and answers go with them
   * (ON DELETE CASCADE), and the match's counts drop. A member's id corrected in a spreadsheet does that silently.
   */
  removedMembers: Array<{ member: string; name: string; invitations: number; answers: number }>;
  /**
   * Members kept whose team now plays neither side of a match still to come they were invited to (moved to another
   * team, or the slot has another team): those invitations are withdrawn (src/rsvp/state.ts invitationOutOfMatch).
   * `team` is the one they are in now, `moved` whether they moved to it (else their team lost its place in the match);
   * `told`: of `matches`, those whose withdrawal the member is told by email (those an invitation email told them of:
   * src/rsvp/tell-invitees.ts tellWithdrawn).
   */
  outOfMatchMembers: Array<{ member: string; name: string; team: string; moved: boolean; matches: string[]; answers: number; told: number }>;
  /**
   * Matches still to come, with invitations, whose teams the import changes (a corrected result gives a slot another
   * team, or a result decides one): `told`, the members who stay invited and are told whom they play now
   * (tellNewTeams); `uninvited`, the teams now in the match none of whose members is invited (the organizer's
   * `npm run invite` invites them). Names as written, a slot nobody holds yet null.
   */
  newTeams: Array<{ match: string; home: string | null; away: string | null; before: { home: string | null; away: string | null }; told: number; uninvited: string[] }>;
  /**
   * Results the import enters, changes or clears, in match id order: what an organizer checks before a real import.
   * A slot fed by an earlier match or a group is named by the team it resolves to, as the bracket shows it.
   */
  results: Array<{ match: string; home: string | null; away: string | null; before: string | null; after: string | null }>;
  /**
   * What else of a kept match reaches calendars and invited members: its kickoff (in the organization's time zone),
   * venue, and a postponement, cancellation or return. An organizer's review: `--check` said "6 rows written" of a
   * file that moved, postponed and cancelled matches.
   */
  matchChanges: Array<{ match: string; home: string | null; away: string | null; changes: string[] }>;
  /**
   * Teams renamed (either name), and teams the file no longer holds, by name; for one no longer held whose members
   * are now a new team's, that team (`as`): most likely the same team under a new id.
   */
  teamChanges: Array<{ team: string; before: string | null; after: string | null; as?: string }>;
  /**
   * Competitions kept whose status the import changes: a cancellation tells every invited member and follower, a
   * completion makes a league's top club its champion. A season review's mistyped `status` would have gone out unseen:
   * `--check` said "1 rows written".
   */
  eventStatuses: Array<{ event: string; name: string; before: string; after: string }>;
  /**
   * Competitions kept whose city the import changes, and how many of their matches have no venue of their own: the
   * city is in every dated match's place in the calendars, and is the venue of those, which the updates job tells as
   * moved. A review's organizer moved a league's city and the summary said nothing of the matches it moved.
   */
  eventCities: Array<CityChange & { matches: number }>;
  /**
   * Cups whose bracket does not lead to one final yet: `matches`, the ties whose winners play no later match (a cup
   * drawn round by round, entered as far as it is drawn: src/competitions/champion.ts tiesLeadingNowhere). No
   * champion until they do; said at each import, so that a tie left out by mistake does not pass unseen.
   */
  openBrackets: Array<{ event: string; name: string; matches: string[] }>;
  /** Teams a tie put out that a later round names all the same (champion.ts beatenPlayingOn), by name as written. */
  beatenPlaying: Array<{ event: string; name: string; team: string; beatenIn: string; playsIn: string }>;
  /** A team's points adjustment in a competition kept, changed: its total before and after, and its reasons now. */
  adjustments: Array<{ event: string; name: string; team: string; teamName: string | null; before: number; after: number; reasons: string[] }>;
  /**
   * Members kept whose address the file changes or removes while they are invited to a match still to be played: the
   * invitation stays with the old address, so nothing more of the match reaches them (an RSVP review's corrected typo
   * made its player the one person not told of a move) until `npm run invite` invites them at the new one. And
   * (`added`) members given an address who are not invited to the open matches their team has invitations to: the
   * invite command invites them.
   */
  readdressedMembers: Array<{ member: string; name: string; now: 'changed' | 'removed' | 'added'; matches: string[] }>;
}

export interface RemovedMatch {
  match: string;
  home: string | null;
  away: string | null;
  kickoff: string | null;
  /** "2-1", or "walkover: Team" (a bracket match won without playing); null without a result. */
  result: string | null;
  invitations: number;
}

export class ImportConflictError extends Error {
  override name = 'ImportConflictError';
  constructor(readonly problems: ImportProblem[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
  }
}

type Row = Record<string, string | number | null>;

/**
 * INSERT … ON CONFLICT(id) DO UPDATE that writes only when a value differs, so a re-import of the same
 * file changes nothing at all (no trigger fires, no revision moves, no SEQUENCE rises).
 */
function upsert(sqlite: Database.Database, table: string, columns: string[]) {
  const updatable = columns.filter((c) => c !== 'id');
  const statement = sqlite.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
     ON CONFLICT(id) DO UPDATE SET ${updatable.map((c) => `${c} = excluded.${c}`).join(', ')}
     WHERE ${updatable.map((c) => `${table}.${c} IS NOT excluded.${c}`).join(' OR ')}`,
  );
  return (row: Row): number => statement.run(row).changes;
}

interface SlotColumns {
  team: string | null;
  source: string | null;
  outcome: string | null;
  group: string | null;
  position: number | null;
  best: string | null;
  slot: number | null;
}

function slotColumns(slot: ImportSlot): SlotColumns {
  const none: SlotColumns = { team: null, source: null, outcome: null, group: null, position: null, best: null, slot: null };
  if (slot === null) return none;
  if (typeof slot === 'string') return { ...none, team: slot };
  if ('group' in slot) return { ...none, group: slot.group, position: slot.position };
  if ('best_placed' in slot) return { ...none, best: slot.best_placed, slot: slot.slot };
  if ('winner_of' in slot) return { ...none, source: slot.winner_of, outcome: 'winner' };
  return { ...none, source: slot.loser_of, outcome: 'loser' };
}

function matchRow(eventId: string, eventType: string, m: ImportMatch): Row {
  const home = slotColumns(m.home);
  const away = slotColumns(m.away);
  return {
    id: m.id,
    event_id: eventId,
    round_ordinal: m.round,
    round_name: m.round_name,
    group_name: m.group,
    bracket_role: m.bracket_role ?? (eventType === 'knockout' ? 'winners' : null),
    bracket_position: m.position,
    home_team_id: home.team,
    away_team_id: away.team,
    home_source_match_id: home.source,
    home_source_outcome: home.outcome,
    away_source_match_id: away.source,
    away_source_outcome: away.outcome,
    kickoff_at: m.kickoff,
    ends_at: m.ends_at,
    venue: m.venue,
    status: m.status,
    home_score: m.score?.home ?? null,
    away_score: m.score?.away ?? null,
    home_penalties: m.score?.home_penalties ?? null,
    away_penalties: m.score?.away_penalties ?? null,
    walkover_winner: m.walkover ?? null,
    after_extra_time: m.score?.after_extra_time ? 1 : 0,
    leg: m.leg,
    first_leg_match_id: m.first_leg,
    home_source_group: home.group,
    home_source_position: home.position,
    away_source_group: away.group,
    away_source_position: away.position,
    home_source_best: home.best,
    home_source_slot: home.slot,
    away_source_best: away.best,
    away_source_slot: away.slot,
  };
}

function bracketOrder(a: ImportMatch, b: ImportMatch): number {
  return a.round - b.round || a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * An event's matches in the order they are written, whatever the file's: each after what it shows (the matches that
 * feed it, its first leg, the matches of a group whose table feeds it), and otherwise in bracket order (round,
 * position, id: how calendar-feed.ts numbers a round's matches). The calendar triggers (migration 0010) then find
 * nothing written earlier in this import to raise or renumber. In the file's order, a cup listed final first raised
 * the rows it had just written at each insert: 4,096 teams took 6.1 s (0.7 s in this order), and a new competition
 * went out with SEQUENCEs in the thousands.
 */
function writingOrder(matches: readonly ImportMatch[], bestPlaced: ReadonlyMap<string, readonly string[]> = new Map()): ImportMatch[] {
  const byId = new Map(matches.map((m) => [m.id, m]));
  const byGroup = new Map<string, ImportMatch[]>();
  for (const m of matches) {
    if (m.group === null) continue;
    const list = byGroup.get(m.group);
    if (list) list.push(m);
    else byGroup.set(m.group, [m]);
  }
  const shown = (m: ImportMatch): ImportMatch[] => {
    const out: ImportMatch[] = [];
    for (const slot of [m.home, m.away]) {
      if (slot === null || typeof slot === 'string') continue;
      if ('group' in slot) out.push(...(byGroup.get(slot.group) ?? []));
      // A slot fed by the best-placed teams of several groups shows every group the rule draws from.
      else if ('best_placed' in slot) for (const g of bestPlaced.get(slot.best_placed) ?? []) out.push(...(byGroup.get(g) ?? []));
      else if ('winner_of' in slot || 'loser_of' in slot) out.push(...[byId.get('winner_of' in slot ? slot.winner_of : slot.loser_of)].filter((x): x is ImportMatch => x !== undefined));
    }
    if (m.first_leg !== null) out.push(...[byId.get(m.first_leg)].filter((x): x is ImportMatch => x !== undefined));
    return out.sort(bracketOrder);
  };
  const order: ImportMatch[] = [];
  const placed = new Set<string>();
  // Iterative depth-first walk (a long chain of feeds must not overflow the stack); the import refuses cycles, and a
  // match already on the walk is skipped, so it ends even if one got through.
  const visiting = new Set<string>();
  for (const start of [...matches].sort(bracketOrder)) {
    const stack: Array<{ m: ImportMatch; deps: ImportMatch[] | null; next: number }> = [{ m: start, deps: null, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (placed.has(top.m.id)) { stack.pop(); continue; }
      if (top.deps === null) { top.deps = shown(top.m); visiting.add(top.m.id); }
      while (top.next < top.deps.length && (placed.has(top.deps[top.next]!.id) || visiting.has(top.deps[top.next]!.id))) top.next++;
      if (top.next < top.deps.length) { stack.push({ m: top.deps[top.next]!, deps: null, next: 0 }); continue; }
      stack.pop();
      visiting.delete(top.m.id);
      placed.add(top.m.id);
      order.push(top.m);
    }
  }
  return order;
}

/** Ids already owned by another organization cannot be taken over by this file. */
function ownershipProblems(sqlite: Database.Database, file: ImportFile): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const owner = {
    leagues: sqlite.prepare('SELECT org_id AS org FROM leagues WHERE id = ?'),
    teams: sqlite.prepare('SELECT org_id AS org FROM teams WHERE id = ?'),
    divisions: sqlite.prepare('SELECT org_id AS org FROM divisions WHERE id = ?'),
    events: sqlite.prepare('SELECT l.org_id AS org FROM events e JOIN leagues l ON l.id = e.league_id WHERE e.id = ?'),
    matches: sqlite.prepare(
      `SELECT l.org_id AS org FROM matches m JOIN events e ON e.id = m.event_id
       JOIN leagues l ON l.id = e.league_id WHERE m.id = ?`,
    ),
    team_members: sqlite.prepare('SELECT t.org_id AS org FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.id = ?'),
  };
  const check = (kind: keyof typeof owner, id: string, orgId: string, path: PropertyKey[]) => {
    const row = owner[kind].get(id) as { org: string } | undefined;
    if (row && row.org !== orgId) {
      problems.push({ path: formatPath(path, file), message: `id "${id}" already belongs to organization "${row.org}"` });
    }
  };
  file.organizations.forEach((org, o) => {
    org.teams.forEach((t, i) => {
      check('teams', t.id, org.id, ['organizations', o, 'teams', i, 'id']);
      t.members.forEach((m, j) =>
        check('team_members', m.id, org.id, ['organizations', o, 'teams', i, 'members', j, 'id']),
      );
    });
    org.divisions.forEach((d, i) => check('divisions', d.id, org.id, ['organizations', o, 'divisions', i, 'id']));
    org.leagues.forEach((l, i) => {
      check('leagues', l.id, org.id, ['organizations', o, 'leagues', i, 'id']);
      l.events.forEach((e, j) => {
        check('events', e.id, org.id, ['organizations', o, 'leagues', i, 'events', j, 'id']);
        e.matches.forEach((m, k) =>
          check('matches', m.id, org.id, ['organizations', o, 'leagues', i, 'events', j, 'matches', k, 'id']),
        );
      });
    });
  });
  return problems;
}

/** Thrown inside the transaction of a `check` import to roll it back once its counts are known. */
class CheckedOnly extends Error {}

/**
 * Applies a validated file in one transaction. Throws ImportConflictError (nothing written) on a conflict. With
 * `check`, the same transaction runs to its end, counts and all, and is rolled back: what `npm run import -- --check`
 * reports is what the import would do, found by doing it. (Its one blind spot: a foreign key that only the commit
 * checks; danglingReferences finds the ones a removal can break before it.)
 */
export function applyImport(sqlite: Database.Database, file: ImportFile, options: { check?: boolean; now?: Date } = {}): ImportCounts {
  // One instant for the whole import: which invitations are still to come is decided once.
  const now = options.now ?? new Date();
  const put = {
    org: upsert(sqlite, 'organizations', ['id', 'name', 'name_ar', 'language', 'registration_emails', 'registration_retention_days', 'timezone', 'contact_email']),
    league: upsert(sqlite, 'leagues', ['id', 'org_id', 'name', 'name_ar']),
    division: upsert(sqlite, 'divisions', ['id', 'org_id', 'league_id', 'name', 'name_ar', 'opens_at', 'closes_at', 'guardian_required_under', 'born_from', 'born_until']),
    team: upsert(sqlite, 'teams', ['id', 'org_id', 'name', 'name_ar']),
    member: upsert(sqlite, 'team_members', ['id', 'team_id', 'name', 'name_ar', 'email', 'language']),
    event: upsert(sqlite, 'events', [
      'id', 'league_id', 'name', 'name_ar', 'competition_type', 'status', 'starts_at', 'ends_at', 'venue_city',
      'is_public', 'points_win', 'points_draw', 'points_loss', 'match_duration_min',
      'tiebreakers', 'decisions', 'adjustments', 'away_goals_rule', 'best_placed',
    ]),
    match: upsert(sqlite, 'matches', [
      'id', 'event_id', 'round_ordinal', 'round_name', 'group_name', 'bracket_role', 'bracket_position',
      'home_team_id', 'away_team_id', 'home_source_match_id', 'home_source_outcome', 'away_source_match_id',
      'away_source_outcome', 'kickoff_at', 'ends_at', 'venue', 'status', 'home_score', 'away_score',
      'home_penalties', 'away_penalties', 'walkover_winner', 'after_extra_time', 'leg', 'first_leg_match_id',
      'home_source_group', 'home_source_position', 'away_source_group', 'away_source_position',
      'home_source_best', 'home_source_slot', 'away_source_best', 'away_source_slot',
    ]),
  };
  // Rows of the file's organizations that the file no longer holds; ids passed as one JSON array.
  const prune = [
    `DELETE FROM matches WHERE event_id IN (SELECT e.id FROM events e JOIN leagues l ON l.id = e.league_id WHERE l.org_id = @org)
       AND id NOT IN (SELECT value FROM json_each(@matches))`,
    `DELETE FROM events WHERE league_id IN (SELECT id FROM leagues WHERE org_id = @org)
       AND id NOT IN (SELECT value FROM json_each(@events))`,
    `DELETE FROM team_members WHERE team_id IN (SELECT id FROM teams WHERE org_id = @org)
       AND id NOT IN (SELECT value FROM json_each(@members))`,
    `DELETE FROM divisions WHERE org_id = @org AND id NOT IN (SELECT value FROM json_each(@divisions))`,
    `DELETE FROM leagues WHERE org_id = @org AND id NOT IN (SELECT value FROM json_each(@leagues))`,
    `DELETE FROM teams WHERE org_id = @org AND id NOT IN (SELECT value FROM json_each(@teams))`,
  ].map((s) => sqlite.prepare(s));

  const counts: ImportCounts = {
    organizations: 0, leagues: 0, divisions: 0, teams: 0, members: 0, events: 0, matches: 0, changed: 0, removed: 0,
    endedFollows: [], removedMatches: [], visibility: [], removedMembers: [], outOfMatchMembers: [], newTeams: [], openBrackets: [], beatenPlaying: [], results: [], matchChanges: [], teamChanges: [], readdressedMembers: [],
    eventStatuses: [], eventCities: [], adjustments: [],
  };
  const store = new SyncDb(sqlite);
  // What people see of an organization, before and after: its competitions' visibility and its results.
  const eventsOf = sqlite.prepare(
    `SELECT e.id, e.name, e.is_public, e.status, e.adjustments, e.venue_city FROM events e JOIN leagues l ON l.id = e.league_id WHERE l.org_id = ? ORDER BY e.id`,
  );
  const resultsOf = sqlite.prepare(
    `SELECT m.id, m.event_id, th.name AS home, ta.name AS away, m.home_score, m.away_score, m.home_penalties, m.away_penalties,
            m.walkover_winner, m.kickoff_at, m.venue, m.status
     FROM matches m JOIN events e ON e.id = m.event_id JOIN leagues l ON l.id = e.league_id
     LEFT JOIN teams th ON th.id = m.home_team_id LEFT JOIN teams ta ON ta.id = m.away_team_id
     WHERE l.org_id = ? ORDER BY m.id`,
  );
  const teamsOf = sqlite.prepare(`SELECT id, name, name_ar FROM teams WHERE org_id = ? ORDER BY id`);
  const matchesWithoutVenue = sqlite.prepare(`SELECT count(*) FROM matches WHERE event_id = ? AND venue IS NULL`).pluck();
  const membersOf = sqlite.prepare(`SELECT tm.id, tm.team_id, tm.email FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.org_id = ?`);
  const timeZoneOf = sqlite.prepare(`SELECT timezone FROM organizations WHERE id = ?`).pluck();
  type ResultSeen = {
    id: string; event_id: string; home: string | null; away: string | null; home_score: number | null; away_score: number | null;
    home_penalties: number | null; away_penalties: number | null; walkover_winner: 'home' | 'away' | null;
    kickoff_at: string | null; venue: string | null; status: string;
  };
  type TeamSeen = { id: string; name: string; name_ar: string | null };
  /** "2-1", or "walkover: Team"; null without a result. */
  const scoreText = (r: ResultSeen | undefined): string | null =>
    r === undefined ? null
      : r.walkover_winner !== null ? `walkover: ${(r.walkover_winner === 'home' ? r.home : r.away) ?? r.walkover_winner}`
        : r.home_score === null ? null : `${r.home_score}-${r.away_score}`;
  /** The score with its shoot-out: what a result line of the summary shows. */
  const resultText = (r: ResultSeen | undefined): string | null => {
    const score = scoreText(r);
    return score !== null && r!.home_penalties !== null ? `${score} (${r!.home_penalties}-${r!.away_penalties} on penalties)` : score;
  };

  const endedFollows = sqlite.prepare(
    `SELECT l.id AS league, l.name AS name, count(*) AS follows FROM follows f JOIN leagues l ON l.id = f.league_id
     WHERE l.org_id = @org AND l.id NOT IN (SELECT value FROM json_each(@leagues)) AND f.status IN ('pending', 'active')
     GROUP BY l.id ORDER BY l.id`,
  );
  // Before the import writes anything: a removed match's teams and its invitations (ON DELETE CASCADE takes them).
  const removedMatches = sqlite.prepare(
    `SELECT m.id AS match, m.event_id AS event_id, th.name AS home, ta.name AS away, m.kickoff_at AS kickoff,
            (SELECT count(*) FROM rsvp_invitations i WHERE i.match_id = m.id) AS invitations
     FROM matches m JOIN events e ON e.id = m.event_id JOIN leagues l ON l.id = e.league_id
     LEFT JOIN teams th ON th.id = m.home_team_id LEFT JOIN teams ta ON ta.id = m.away_team_id
     WHERE l.org_id = @org AND m.id NOT IN (SELECT value FROM json_each(@matches))
       AND (m.home_score IS NOT NULL OR m.walkover_winner IS NOT NULL OR EXISTS (SELECT 1 FROM rsvp_invitations i WHERE i.match_id = m.id))
     ORDER BY m.id`,
  );
  // Before the removal too: a removed member's invitations to matches that stay (a removed match says its own).
  const removedMembers = sqlite.prepare(
    `SELECT tm.id AS member, tm.name AS name, count(*) AS invitations, count(i.response) AS answers
     FROM team_members tm JOIN teams t ON t.id = tm.team_id JOIN rsvp_invitations i ON i.member_id = tm.id
     WHERE t.org_id = @org AND tm.id NOT IN (SELECT value FROM json_each(@members))
       AND i.match_id IN (SELECT value FROM json_each(@matches))
     GROUP BY tm.id ORDER BY tm.id`,
  );
  const matchPaths = pathsOfMatches(file);
  const problems: ImportProblem[] = [];
  // Invitations held at a member's current address to a match still to be played, before the import (the statuses
  // narrow the read; stillToCome decides, with the competition's status and the kickoff, as every RSVP read does).
  const invitedAt = sqlite.prepare(
    `SELECT tm.id AS member, i.match_id AS match, i.email AS invited, tm.email AS email,
            m.status AS status, e.status AS event_status, m.kickoff_at AS kickoff_at
     FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id JOIN teams t ON t.id = tm.team_id
     JOIN matches m ON m.id = i.match_id JOIN events e ON e.id = m.event_id
     WHERE t.org_id = ? AND m.status IN ('scheduled', 'postponed')
     ORDER BY tm.id, i.match_id`,
  );
  const memberNow = sqlite.prepare(`SELECT name, email FROM team_members WHERE id = ?`);
  // The teams with a member invited to a match.
  const invitedTeamsOf = sqlite.prepare(
    `SELECT DISTINCT tm.team_id FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id WHERE i.match_id = ?`,
  ).pluck();
  // After the import: the invitations to the organization's matches still to come, with their member's team now.
  const invitedFrom = sqlite.prepare(
    `SELECT i.id AS invitation, tm.id AS member, tm.name AS name, t.id AS team, t.name AS team_name,
            i.match_id AS match, m.event_id AS event, i.response AS response,
            m.status AS status, e.status AS event_status, m.kickoff_at AS kickoff_at, e.is_public AS is_public
     FROM rsvp_invitations i JOIN team_members tm ON tm.id = i.member_id JOIN teams t ON t.id = tm.team_id
     JOIN matches m ON m.id = i.match_id JOIN events e ON e.id = m.event_id JOIN leagues l ON l.id = e.league_id
     WHERE l.org_id = ? AND m.status IN ('scheduled', 'postponed')
     ORDER BY tm.id, i.match_id`,
  );
  // The events with a played (or under way) match fed by an earlier one or a group: the only ones a result can take
  // players from.
  const fedPlayedEvents = sqlite.prepare(
    `SELECT DISTINCT m.event_id FROM matches m JOIN events e ON e.id = m.event_id JOIN leagues l ON l.id = e.league_id
     WHERE l.org_id = ? AND m.status IN ('completed', 'in_progress')
       AND (m.home_source_match_id IS NOT NULL OR m.away_source_match_id IS NOT NULL OR m.home_source_group IS NOT NULL
            OR m.away_source_group IS NOT NULL OR m.home_source_best IS NOT NULL OR m.away_source_best IS NOT NULL)`,
  ).pluck();
  const run = sqlite.transaction(() => {
    const conflicts = ownershipProblems(sqlite, file);
    if (conflicts.length > 0) throw new ImportConflictError(conflicts);
    // Matches reference each other (feeds) and may come in any order: check keys at commit.
    sqlite.pragma('defer_foreign_keys = ON');
    for (const org of file.organizations) {
      counts.organizations++;
      const eventsBefore = new Map((eventsOf.all(org.id) as EventSeen[]).map((e) => [e.id, e]));
      const resultsBefore = new Map((resultsOf.all(org.id) as ResultSeen[]).map((r) => [r.id, r]));
      const teamsBefore = new Map((teamsOf.all(org.id) as TeamSeen[]).map((t) => [t.id, t]));
      // Each member's team before: a team whose id changed keeps its members, under the new id.
      const membersBefore = membersOf.all(org.id) as Array<{ id: string; team_id: string; email: string | null }>;
      const teamOfMember = new Map(membersBefore.map((m) => [m.id, m.team_id]));
      const withoutAddressBefore = new Set(membersBefore.filter((m) => m.email === null).map((m) => m.id));
      // Each event resolved once as the database has it before the import, and once after.
      const resolvedBefore = resolvedEvents(store);
      const playedBefore = playedFedMatches(fedPlayedEvents.all(org.id) as string[], resolvedBefore);
      const invitedBefore = (invitedAt.all(org.id) as Array<MatchForState & { member: string; match: string; invited: string | null; email: string | null }>)
        .filter((i) => stillToCome(i, now) && invitedAddressCurrent(i.invited, i.email));
      // Who plays each match still to come with invitations, before the import: its invited members are told when that
      // changes (their opponent, or their own team no longer in it).
      const sidesBefore = new Map<string, { event: string; sides: MatchSides }>();
      for (const i of invitedToCome(invitedFrom, org.id, now)) {
        if (!sidesBefore.has(i.match)) sidesBefore.set(i.match, { event: i.event, sides: matchSides(store, { id: i.match, event_id: i.event }, org.language, resolvedBefore(i.event)) });
      }
      // A walkover won by a fed slot is worded with the team the slot had then.
      const namedBefore = namer(resolvedBefore, teamsBefore);
      for (const r of resultsBefore.values()) if (r.walkover_winner !== null && r[r.walkover_winner] === null) Object.assign(r, namedBefore(r));
      // The matches the file no longer has, as they stand before it is written: a slot by the team the bracket gave it.
      const fileMatches = JSON.stringify(org.leagues.flatMap((l) => l.events.flatMap((e) => e.matches.map((m) => m.id))));
      const removedBefore = (removedMatches.all({ org: org.id, matches: fileMatches }) as Array<Omit<RemovedMatch, 'result'> & { event_id: string }>)
        .map(({ event_id, ...m }) => ({ ...m, ...namedBefore({ id: m.match, event_id, home: m.home, away: m.away }) }));
      counts.changed += put.org({
        id: org.id, name: org.name, name_ar: org.name_ar, language: org.language,
        registration_emails: JSON.stringify(org.registration_emails), registration_retention_days: org.registration_retention_days, timezone: org.timezone,
        contact_email: org.contact_email,
      });
      for (const t of org.teams) {
        counts.teams++;
        counts.changed += put.team({ id: t.id, org_id: org.id, name: t.name, name_ar: t.name_ar });
        for (const m of t.members) {
          counts.members++;
          counts.changed += put.member({ id: m.id, team_id: t.id, name: m.name, name_ar: m.name_ar, email: m.email, language: m.language });
        }
      }
      for (const l of org.leagues) {
        counts.leagues++;
        counts.changed += put.league({ id: l.id, org_id: org.id, name: l.name, name_ar: l.name_ar });
      }
      for (const d of org.divisions) {
        counts.divisions++;
        counts.changed += put.division({
          id: d.id, org_id: org.id, league_id: d.league, name: d.name, name_ar: d.name_ar,
          opens_at: d.opens_at, closes_at: d.closes_at, guardian_required_under: d.guardian_required_under,
          born_from: d.born_from, born_until: d.born_until,
        });
      }
      const ids = { matches: [] as string[], events: [] as string[] };
      for (const l of org.leagues) {
        for (const e of l.events) {
          counts.events++;
          ids.events.push(e.id);
          // Stored explicit: the groups a rule defaults to (every group of the event) are written out.
          const bestPlaced = e.best_placed.map((b) => ({
            id: b.id, position: b.position, groups: bestPlacedGroups(e, b), qualify: b.qualify, ranking: b.ranking, allocation: b.allocation,
          }));
          counts.changed += put.event({
            id: e.id,
            league_id: l.id,
            name: e.name,
            name_ar: e.name_ar,
            competition_type: e.type,
            status: e.status,
            starts_at: e.starts_at,
            ends_at: e.ends_at,
            venue_city: e.venue_city,
            is_public: e.public ? 1 : 0,
            points_win: e.points.win,
            points_draw: e.points.draw,
            points_loss: e.points.loss,
            match_duration_min: e.match_duration_minutes,
            tiebreakers: JSON.stringify(e.tiebreakers),
            decisions: JSON.stringify(e.decisions),
            adjustments: JSON.stringify(e.adjustments),
            away_goals_rule: e.away_goals_rule ? 1 : 0,
            best_placed: JSON.stringify(bestPlaced),
          });
          for (const m of writingOrder(e.matches, new Map(bestPlaced.map((b) => [b.id, b.groups])))) {
            counts.matches++;
            ids.matches.push(m.id);
            counts.changed += put.match(matchRow(e.id, e.type, m));
          }
        }
      }
      const keep = {
        org: org.id,
        matches: JSON.stringify(ids.matches),
        events: JSON.stringify(ids.events),
        members: JSON.stringify(org.teams.flatMap((t) => t.members.map((m) => m.id))),
        divisions: JSON.stringify(org.divisions.map((d) => d.id)),
        leagues: JSON.stringify(org.leagues.map((l) => l.id)),
        teams: JSON.stringify(org.teams.map((t) => t.id)),
      };
      // Before the removal takes them (ON DELETE CASCADE): the follows of the leagues it removes.
      counts.endedFollows.push(...(endedFollows.all({ org: keep.org, leagues: keep.leagues }) as ImportCounts['endedFollows']));
      // Its result as read before the import.
      // Its kickoff as the organization's people read it, as the summary's other lines give it.
      const timeZone = String(timeZoneOf.get(org.id));
      for (const m of removedBefore) {
        counts.removedMatches.push({ ...m, kickoff: m.kickoff === null ? null : formatDateTime(m.kickoff, timeZone, 'en'), result: scoreText(resultsBefore.get(m.match)) });
      }
      counts.removedMembers.push(...(removedMembers.all({ org: keep.org, members: keep.members, matches: keep.matches }) as ImportCounts['removedMembers']));
      for (const statement of prune) {
        const params = Object.fromEntries(
          Object.entries(keep).filter(([k]) => statement.source.includes(`@${k}`)),
        );
        counts.removed += statement.run(params).changes;
      }
      const eventsAfter = new Map((eventsOf.all(org.id) as EventSeen[]).map((e) => [e.id, e]));
      counts.visibility.push(...visibilityChanges(eventsBefore, eventsAfter));
      counts.visibility.sort(byEvent);
      const teamsAfter = new Map((teamsOf.all(org.id) as TeamSeen[]).map((t) => [t.id, t]));
      const changed = eventChanges(eventsBefore, eventsAfter, (id) => {
        const team = teamsAfter.get(id);
        return team ? teamLabel(team) : null;
      });
      counts.eventStatuses.push(...changed.eventStatuses);
      counts.eventCities.push(...changed.cities.map((c) => ({ ...c, matches: matchesWithoutVenue.get(c.event) as number })));
      counts.adjustments.push(...changed.adjustments);
      // Removed matches with a result are named above (removedMatches).
      // Compared as recorded, not as worded: a renamed team changes a walkover's wording, not its result.
      const recorded = (r: ResultSeen | undefined) => (r === undefined || (r.home_score === null && r.walkover_winner === null) ? null
        : JSON.stringify([r.home_score, r.away_score, r.home_penalties, r.away_penalties, r.walkover_winner]));
      const resolvedAfter = resolvedEvents(store);
      for (const e of org.leagues.flatMap((l) => l.events)) {
        if (e.type === 'league') continue;
        const { matches, resolved } = resolvedAfter(e.id);
        const open = tiesLeadingNowhere(matches, resolved);
        if (open.length > 0) counts.openBrackets.push({ event: e.id, name: e.name, matches: open.map((m) => m.id) });
        for (const b of beatenPlayingOn(matches, resolved)) counts.beatenPlaying.push({ event: e.id, name: e.name, ...b, team: teamsAfter.get(b.team)?.name ?? b.team });
      }
      const outOfMatch = withdrawOutOfMatch(store, invitedFrom, org.id, resolvedAfter, sidesBefore, now);
      counts.outOfMatchMembers.push(...outOfMatch);
      const written = (id: string | null, teams: ReadonlyMap<string, TeamSeen>) => (id === null ? null : (teams.get(id)?.name ?? id));
      for (const [match, { event, sides }] of sidesBefore) {
        if (!resolvedAfter(event).byId.has(match)) continue;
        const after = matchSides(store, { id: match, event_id: event }, org.language, resolvedAfter(event));
        if (after.homeId === sides.homeId && after.awayId === sides.awayId) continue;
        const told = tellNewTeams(store, match, sides, after, now);
        const invitedTeams = new Set(invitedTeamsOf.all(match) as string[]);
        const uninvited = [after.homeId, after.awayId].filter((t): t is string => t !== null && !invitedTeams.has(t)).map((t) => written(t, teamsAfter)!);
        // A side no team holds, by what feeds it (`the winner of "qf1"`).
        const [is, was] = [resolvedAfter(event).byId.get(match), resolvedBefore(event).byId.get(match)];
        counts.newTeams.push({
          match,
          home: written(after.homeId, teamsAfter) ?? feedName(is, 'home'),
          away: written(after.awayId, teamsAfter) ?? feedName(is, 'away'),
          before: { home: written(sides.homeId, teamsBefore) ?? feedName(was, 'home'), away: written(sides.awayId, teamsBefore) ?? feedName(was, 'away') },
          told, uninvited,
        });
      }
      const withdrawn = new Set(outOfMatch.flatMap((m) => m.matches.map((match) => `${m.member}\n${match}`)));
      // A member removed is named above with their invitations, one whose team left the match with the invitations just
      // withdrawn; one kept at another address (or none) here.
      for (const i of invitedBefore) {
        const member = memberNow.get(i.member) as { name: string; email: string | null } | undefined;
        if (member === undefined || withdrawn.has(`${i.member}\n${i.match}`) || invitedAddressCurrent(i.invited, member.email)) continue;
        const last = counts.readdressedMembers.at(-1);
        if (last?.member === i.member) last.matches.push(i.match);
        else counts.readdressedMembers.push({ member: i.member, name: member.name, now: member.email === null ? 'removed' : 'changed', matches: [i.match] });
      }
      // Given an address now, and not invited to the matches to come their team has invitations to: the invite command
      // invites them (a first-time organizer's review added a player's address and was not told to). Only matches the
      // command would take: open (not postponed: it refuses those until they are rescheduled), of a public competition.
      const toCome = invitedToCome(invitedFrom, org.id, now).filter((i) => i.is_public === 1 && rsvpState(i, now) === 'open');
      for (const t of org.teams) {
        for (const m of t.members) {
          if (!withoutAddressBefore.has(m.id) || m.email === null) continue;
          const matches = [...new Set(toCome.filter((i) => i.team === t.id && i.member !== m.id).map((i) => i.match))]
            .filter((match) => !toCome.some((i) => i.member === m.id && i.match === match)).sort();
          if (matches.length > 0) counts.readdressedMembers.push({ member: m.id, name: m.name, now: 'added', matches });
        }
      }
      problems.push(...changedPlayers(playedBefore, resolvedAfter, teamsBefore, teamsAfter, matchPaths));
      const named = namer(resolvedAfter, teamsAfter);
      for (const row of resultsOf.all(org.id) as ResultSeen[]) {
        const before = resultsBefore.get(row.id);
        const changed = recorded(before) !== recorded(row);
        const changes = before === undefined ? [] : scheduleChanges(before, row, timeZone);
        if (!changed && changes.length === 0) continue;
        const r = { ...row, ...named(row) };
        if (changed) counts.results.push({ match: r.id, home: r.home, away: r.away, before: resultText(before), after: resultText(r) });
        if (changes.length > 0) counts.matchChanges.push({ match: r.id, home: r.home, away: r.away, changes });
      }
      for (const [id, before] of teamsBefore) {
        const after = teamsAfter.get(id);
        const was = teamLabel(before);
        if (after === undefined) {
          // A new team of the file with members of this one, or its name: the same team, its id changed (a first-time
          // organizer's review renamed a club by find-and-replace of its id, its members' ids with it, and the summary
          // read as a new opponent).
          const as = org.teams.find((t) => !teamsBefore.has(t.id)
            && (t.members.some((m) => teamOfMember.get(m.id) === id) || foldName(t.name) === foldName(before.name)))?.id;
          counts.teamChanges.push({ team: id, before: was, after: null, ...(as === undefined ? {} : { as }) });
        }
        else if (teamLabel(after) !== was) counts.teamChanges.push({ team: id, before: was, after: teamLabel(after) });
      }
    }
    if (problems.length > 0) throw new ImportConflictError(problems);
    const dangling = danglingReferences(sqlite);
    if (dangling.length > 0) throw new ImportConflictError(dangling);
    if (options.check) throw new CheckedOnly();
  });
  try {
    run.immediate();
  } catch (error) {
    if (error instanceof CheckedOnly) return counts;
    if (error instanceof ImportConflictError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
      throw new ImportConflictError([
        {
          path: '(root)',
          message:
            'the file removes a division, league, match or member that public data still refers to ' +
            '(a registration, follow or RSVP invitation); keep it in the file',
        },
      ]);
    }
    throw error;
  }
  return counts;
}

/** An event's matches, by id too, and who plays each (src/competitions/resolve-event.ts). */
type EventResolved = ResolvedEvent & { byId: ReadonlyMap<string, MatchFacts> };

/**
 * Events resolved as the database has them now, each once and only when asked: the check of played matches and the
 * summary's names share the reading of one state of the database.
 */
function resolvedEvents(store: SyncDb): (eventId: string) => EventResolved {
  const done = new Map<string, EventResolved>();
  return (eventId) => {
    let event = done.get(eventId);
    if (event === undefined) {
      const resolved = resolveEvent(store, eventId);
      done.set(eventId, (event = { ...resolved, byId: new Map(resolved.matches.map((m) => [m.id, m])) }));
    }
    return event;
  };
}

type InvitedFrom = MatchForState & { invitation: string; member: string; name: string; team: string; team_name: string; match: string; event: string; response: string | null; is_public: number };

/** The organization's invitations (invitedFrom) to matches still to come at `now`. */
const invitedToCome = (invitedFrom: Database.Statement, org: string, now: Date) =>
  (invitedFrom.all(org) as InvitedFrom[]).filter((i) => stillToCome(i, now));

/**
 * Withdraws each invitation to a match still to come whose member's team plays neither side of it now (a member moved
 * to another team, a slot given another team by a corrected result), and names their members: an RSVP review found
 * such a member still told of the match's changes, their answer still counted. In the import's transaction, so
 * `--check` only says it.
 */
function withdrawOutOfMatch(
  store: SyncDb,
  invitedFrom: Database.Statement,
  org: string,
  resolvedEvent: (eventId: string) => EventResolved,
  sidesBefore: ReadonlyMap<string, { sides: MatchSides }>,
  now: Date,
): ImportCounts['outOfMatchMembers'] {
  const named: ImportCounts['outOfMatchMembers'] = [];
  for (const i of invitedToCome(invitedFrom, org, now)) {
    const sides = resolvedEvent(i.event).resolved.get(i.match);
    if (sides === undefined || !invitationOutOfMatch(i.team, sides)) continue;
    // Moved to another team, or their team lost its place in the match (a corrected result, a fixture changed).
    const before = sidesBefore.get(i.match)?.sides;
    const moved = before === undefined || (before.homeId !== i.team && before.awayId !== i.team);
    // Told before it goes: the email names the match as the member was invited to it.
    const told = tellWithdrawn(store, i.invitation, before, moved, now) ? 1 : 0;
    withdrawInvitation(store, i.invitation);
    const answered = i.response === null ? 0 : 1;
    const last = named.at(-1);
    if (last?.member === i.member) {
      last.matches.push(i.match);
      last.answers += answered;
      last.told += told;
    } else named.push({ member: i.member, name: i.name, team: i.team_name, moved, matches: [i.match], answers: answered, told });
  }
  return named;
}

/**
 * A match's teams by name, a slot fed by an earlier match or a group named by the team it resolves to, as the bracket
 * shows it: the summary said "to be decided v to be decided" of a round of 16, and "walkover: home". A slot no team
 * holds yet is named by what feeds it, as the file writes it (`the winner of "qf1"`): a removed semi-final read "to be
 * decided v to be decided". Null: nothing feeds it (an empty slot).
 */
function namer(resolved: (eventId: string) => EventResolved, teams: ReadonlyMap<string, { name: string }>) {
  const name = (id: string | null | undefined) => (id == null ? null : (teams.get(id)?.name ?? null));
  return (m: { id: string; event_id: string; home: string | null; away: string | null }): { home: string | null; away: string | null } => {
    if (m.home !== null && m.away !== null) return { home: m.home, away: m.away };
    const event = resolved(m.event_id);
    const r = event.resolved.get(m.id);
    const facts = event.byId.get(m.id);
    const side = (s: 'home' | 'away') => m[s] ?? name(r?.[s]) ?? feedName(facts, s);
    return { home: side('home'), away: side('away') };
  };
}

/** What feeds a side of a match, in the import's words (`the winner of "qf1"`); null when nothing does. */
function feedName(m: MatchFacts | undefined, side: 'home' | 'away'): string | null {
  if (m === undefined) return null;
  const { match, outcome, group, position, best, slot } = sideFeed(m, side);
  const feed: Feed | null = match !== null ? (outcome === 'loser' ? { loser_of: match } : { winner_of: match })
    : group !== null && position !== null ? { group, position }
    : best !== null && slot !== null ? { best_placed: best, slot }
    : null;
  return feed && describeFeed(feed);
}

/** Each match of the file by id, with where it is in the file: a problem about it names that place. */
function pathsOfMatches(file: ImportFile): Map<string, string> {
  const paths = new Map<string, string>();
  file.organizations.forEach((org, o) =>
    org.leagues.forEach((l, i) =>
      l.events.forEach((e, j) => e.matches.forEach((m, n) => paths.set(m.id, formatPath(['organizations', o, 'leagues', i, 'events', j, 'matches', n], file)))),
    ),
  );
  return paths;
}

/** A match's kickoff, venue and postponement or cancellation as they change, in the organization's time zone. */
function scheduleChanges(
  before: { kickoff_at: string | null; venue: string | null; status: string },
  after: { kickoff_at: string | null; venue: string | null; status: string },
  timeZone: string,
): string[] {
  const changes: string[] = [];
  const when = (at: string | null) => (at === null ? 'none' : (formatDateTime(at, timeZone, 'en') ?? at));
  if (before.kickoff_at !== after.kickoff_at) {
    // A time review: a kickoff taken away left the match's event in every subscribed calendar, deleted, unsaid. The
    // feed has a VEVENT only for a match with a kickoff; a postponed one keeps its last.
    const leaves = after.kickoff_at === null && after.status === 'scheduled'
      ? ' (it leaves the calendars until it has one: to keep it there as put off, keep its kickoff and write "status": "postponed")'
      : '';
    changes.push(`kickoff ${when(before.kickoff_at)} → ${when(after.kickoff_at)}${leaves}`);
  }
  if (before.venue !== after.venue) changes.push(`venue ${changeArrow(before.venue ?? 'none', after.venue ?? 'none')}`);
  // A result's own status change (scheduled to completed) is its result line; these are what calendars show.
  const told = new Set(['postponed', 'cancelled']);
  if (before.status !== after.status && (told.has(before.status) || told.has(after.status))) changes.push(`${before.status} → ${after.status}`);
  return changes;
}

/** A played match fed by an earlier one (or a group): who played it, by side, as its feeds give it. */
type Played = { event: string; home: string | null; away: string | null };
const PLAYED = new Set(['completed', 'in_progress']);
const isFed = (m: MatchFacts) =>
  m.home_source_match_id != null || m.away_source_match_id != null || m.home_source_group != null || m.away_source_group != null ||
  m.home_source_best != null || m.away_source_best != null;

/** The played (or under way) fed matches of `events` with their teams. */
function playedFedMatches(events: readonly string[], resolvedEvent: (eventId: string) => EventResolved): Map<string, Played> {
  const played = new Map<string, Played>();
  for (const event of events) {
    const { matches, resolved } = resolvedEvent(event);
    for (const m of matches) {
      if (!PLAYED.has(m.status) || !isFed(m)) continue;
      const r = resolved.get(m.id);
      played.set(m.id, { event, home: r?.home ?? null, away: r?.away ?? null });
    }
  }
  return played;
}

/**
 * A played match whose teams the import would change: a correction of an earlier result (or of a group's) that changes
 * who went through. The bracket follows its feeds, so it showed the later match, result and all, as played by a team
 * that never played it (an organizer's review: Japan's round of 16 became Spain's). Refused, naming the match, its
 * teams before and after, and the two ways out.
 */
function changedPlayers(
  before: ReadonlyMap<string, Played>,
  resolvedEvent: (eventId: string) => EventResolved,
  teamsBefore: ReadonlyMap<string, { name: string }>,
  teamsAfter: ReadonlyMap<string, { name: string }>,
  paths: ReadonlyMap<string, string>,
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  for (const [id, was] of before) {
    const event = resolvedEvent(was.event);
    const match = event.byId.get(id);
    if (match === undefined || !PLAYED.has(match.status)) continue;
    const now = event.resolved.get(id);
    for (const side of ['home', 'away'] as const) {
      const from = was[side];
      const to = now?.[side] ?? null;
      if (from === null || from === to) continue;
      const fromName = teamsBefore.get(from)?.name ?? from;
      const toName = to === null ? null : (teamsAfter.get(to)?.name ?? to);
      problems.push({
        path: paths.get(id) ?? '(root)',
        message:
          `match "${id}" is ${match.status === 'completed' ? 'played' : 'under way'} with ${fromName} as its ${side} team, but this file ` +
          `${toName === null ? 'leaves that team undecided' : `makes it ${toName}`} (a result it changes earlier in the bracket or in a group): ` +
          'correct that result, or, if the teams recorded for this match were wrong, import it first as "scheduled" without its result, then with it',
      });
    }
  }
  return problems;
}

const KIND: Record<string, string> = { divisions: 'division', leagues: 'league', matches: 'match', team_members: 'member', teams: 'team', events: 'event' };
// The kept rows whose references a removal can leave dangling: follows and RSVP invitations go with what they refer
// to (ON DELETE CASCADE), registrations stay (an organization keeps them for its retention period).
const REFERRERS: Record<string, [string, string]> = {
  registrations: ['registration', 'registrations'],
};

/**
 * What the file removed that kept rows still refer to (checked before commit, foreign keys being deferred), one
 * problem per removed row, naming it and what refers to it: "division "amm-reg-u12" is no longer in the file, but 3
 * registrations refer to it". The commit's own error could only say that something somewhere was.
 */
function danglingReferences(sqlite: Database.Database): ImportProblem[] {
  // Only the tables of public data (the file's own references are validated before): a whole-database check would
  // scan every match of every organization on each import.
  const violations = Object.keys(REFERRERS).flatMap(
    (table) => sqlite.prepare(`PRAGMA foreign_key_check("${table}")`).all() as Array<{ table: string; rowid: number; parent: string; fkid: number }>,
  );
  const found = new Map<string, { parent: string; key: unknown; referrers: Map<string, number> }>();
  const foreignKeys = new Map<string, Array<{ id: number; from: string }>>();
  for (const v of violations) {
    if (!foreignKeys.has(v.table)) foreignKeys.set(v.table, sqlite.prepare(`PRAGMA foreign_key_list("${v.table}")`).all() as Array<{ id: number; from: string }>);
    const fk = foreignKeys.get(v.table)!.find((f) => f.id === v.fkid);
    if (!fk) continue;
    const key = sqlite.prepare(`SELECT "${fk.from}" FROM "${v.table}" WHERE rowid = ?`).pluck().get(v.rowid);
    const id = `${v.parent}\u0000${String(key)}`;
    const entry = found.get(id) ?? { parent: v.parent, key, referrers: new Map<string, number>() };
    entry.referrers.set(v.table, (entry.referrers.get(v.table) ?? 0) + 1);
    found.set(id, entry);
  }
  return [...found.values()].map(({ parent, key, referrers }) => {
    const by = [...referrers].map(([table, n]) => {
      const [one, many] = REFERRERS[table] ?? [table, table];
      return `${n} ${n === 1 ? one : many}`;
    });
    const verb = referrers.size === 1 && [...referrers.values()][0] === 1 ? 'refers' : 'refer';
    return {
      path: '(root)',
      message: `${KIND[parent] ?? parent} ${JSON.stringify(key)} is no longer in the file, but ${by.join(' and ')} ${verb} to it: keep it in the file`,
    };
  });
}
