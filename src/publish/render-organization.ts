// One organization's share of a regeneration: its stale public events rendered (standings, bracket, calendar) and,
// when all of its public events are among them, its teams' calendars from the same VEVENTs at once (a team plays
// only in its organization's competitions). The unit of work of the render threads (render-threads.ts): what one
// thread writes never depends on what another renders, so the bytes are the same whoever renders it.
import { ownValue } from '../collections.js';
import { computeBracket } from '../competitions/bracket.js';
import { assembleCalendarParts, renderVevents } from '../competitions/calendar.js';
import { calendarFeed } from '../competitions/calendar-feed.js';
import { championNames } from '../competitions/champion.js';
import { encodeBracketSlot, encodeEvent, encodeStandingsRow, type PublicEvent } from '../competitions/encoders.js';
import { bracketContext } from '../competitions/group-feeds.js';
import { loadEvents, streamMatchesByEvent, TeamLookup } from '../competitions/queries.js';
import { computeStandings, teamNames } from '../competitions/standings.js';
import { compareCodeUnits } from '../competitions/tiebreakers.js';
import type { Db } from '../db/connect.js';
import { artifactPaths, teamCalendarPath } from './routes.js';
import type { ArtifactStore } from './store.js';
import { playingTeams, TeamCalendars, teamsByMatch } from './team-calendars.js';

export interface ManifestEvent {
  revision: number;
  /** The highest SEQUENCE of its matches as rendered: a restored database raises them past it (restored-calendars.ts). */
  sequence?: number;
  entry: PublicEvent;
  files: Record<string, string>;
  /** The teams that play in it: whose calendars change when it does. */
  teams?: string[];
}

export interface OrganizationWork {
  org: string;
  /** Its public events to render (each with the revision this run saw), in id order. */
  events: Array<{ id: string; revision: number }>;
  /** Every public event of the organization is among them: its teams' calendars are written here too. */
  whole: boolean;
}

/**
 * The events to render grouped into units of work, one per organization: `ids` sorted by organization, then id.
 * `whole(org)`: every public event of the organization is among them.
 */
export function groupByOrganization(
  ids: readonly string[],
  orgOf: (id: string) => string,
  revisionOf: (id: string) => number,
  whole: (org: string) => boolean,
): OrganizationWork[] {
  const works: OrganizationWork[] = [];
  for (const id of ids) {
    const org = orgOf(id);
    if (works.at(-1)?.org !== org) works.push({ org, events: [], whole: whole(org) });
    works.at(-1)!.events.push({ id, revision: revisionOf(id) });
  }
  return works;
}

export interface RenderedOrganization {
  org: string;
  events: Record<string, ManifestEvent>;
  /** The team calendars written (whole organizations only): team → content hash. */
  teams: Record<string, string>;
  /** Teams whose calendar changes with these events: who plays in them now, and who did in the last run. */
  staleTeams: string[];
}

/** The last run's files and teams of each event, and its team calendars' hashes (unchanged bytes are not rewritten). */
export interface PreviousRender {
  events: Record<string, Pick<ManifestEvent, 'files' | 'teams'>>;
  teams?: Record<string, string>;
}

/** What every organization of a run is rendered with. */
export interface RenderSettings {
  uidDomain: string;
  refreshMinutes: number;
  previous: PreviousRender;
}

/**
 * What of `previous` renderOrganization reads for `work`: the files and teams of its events, and, when it writes its
 * teams' calendars (whole), the hashes of the calendars of the teams that played in them. A team that played in none
 * of them had no calendar, or one with matches of events outside the work (gone or made private since), which nearly
 * always changes now; a hash missed costs one write of the same bytes, never a wrong file. Render workers get this
 * with each organization, not the whole manifest: a copy of the bench's 2.5 MB manifest in each worker's 64 MB heap
 * (WORKER_LIMITS) cost 0.7 s of CPU when every event was rendered again after a release, 1.4 s when every file was
 * rewritten after a stopped run.
 */
export function previousFor(work: OrganizationWork, previous: PreviousRender): PreviousRender {
  const events: PreviousRender['events'] = {};
  const teams: Record<string, string> = {};
  for (const { id } of work.events) {
    const before = ownValue(previous.events, id);
    if (!before) continue;
    events[id] = before.teams ? { files: before.files, teams: before.teams } : { files: before.files };
    if (!work.whole) continue;
    for (const t of before.teams ?? []) {
      const hash = ownValue(previous.teams, t);
      if (hash !== undefined) teams[t] = hash;
    }
  }
  return { events, teams };
}

const json = (value: unknown) => JSON.stringify(value);

/** A team's calendar over the events it plays in (their VEVENTs in the collector), written; its content hash. */
export function putTeamCalendar(
  store: ArtifactStore,
  collector: TeamCalendars,
  teamId: string,
  eventIds: string[],
  settings: RenderSettings,
): string {
  const body = collector.render(teamId, [...eventIds].sort(), { refreshMinutes: settings.refreshMinutes });
  return store.put(teamCalendarPath(teamId), body, ownValue(settings.previous.teams, teamId));
}

export async function renderOrganization(trx: Db, work: OrganizationWork, store: ArtifactStore, settings: RenderSettings): Promise<RenderedOrganization> {
  const { uidDomain, refreshMinutes, previous } = settings;
  const out: RenderedOrganization = { org: work.org, events: {}, teams: {}, staleTeams: [] };
  const staleTeams = new Set<string>();
  const revision = new Map(work.events.map((e) => [e.id, e.revision]));
  const ids = work.events.map((e) => e.id);
  const facts = new Map((await loadEvents(trx, ids)).map((e) => [e.id, e]));
  const collector = work.whole ? new TeamCalendars() : null;
  const teamLookup = new TeamLookup();

  for await (const { eventId, matches } of streamMatchesByEvent(trx, ids)) {
    const event = facts.get(eventId);
    if (!event) continue;
    const teams = await teamLookup.of(trx, matches);
    const paths = artifactPaths(eventId);
    const before = ownValue(previous.events, eventId);
    const standings = event.competition_type === 'knockout' ? [] : computeStandings(matches, teams, event.points, event.rules, event.status);
    const bracket = event.competition_type === 'league' ? [] : computeBracket(matches, bracketContext(event, matches, teams), event.rules?.best_placed);
    const feed = calendarFeed(event, matches, teams, { uidDomain, refreshMinutes });
    const vevents = renderVevents(feed);
    const byMatch = teamsByMatch(event, matches, teams);
    const playing = playingTeams(byMatch);
    collector?.add(event, byMatch, teams, feed, vevents);
    for (const t of [...playing, ...(before?.teams ?? [])]) staleTeams.add(t);
    let sequence = 0;
    for (const m of matches) if (m.sequence > sequence) sequence = m.sequence;
    out.events[eventId] = {
      revision: revision.get(eventId)!,
      sequence,
      entry: encodeEvent(event, championNames(event, matches, teams)),
      files: {
        [paths.standings]: store.put(paths.standings, json(standings.map(encodeStandingsRow)), before?.files[paths.standings]),
        // The JSON reads name a team as club_name and champion_name do (its `name`), its Arabic name beside it (`_ar`);
        // calendars and emails say its name in the organization's language (an organizer's review found the bracket's
        // Arabic beside the table's Latin).
        [paths.bracket]: store.put(paths.bracket, json(bracket.map((slot) => encodeBracketSlot(slot, (id) => teamNames(teams, id)))), before?.files[paths.bracket]),
        [paths.calendar]: store.put(paths.calendar, assembleCalendarParts(feed, vevents), before?.files[paths.calendar]),
      },
      teams: playing,
    };
  }

  if (collector) {
    for (const [teamId, eventIds] of [...collector.teams()].sort(([a], [b]) => compareCodeUnits(a, b))) {
      out.teams[teamId] = putTeamCalendar(store, collector, teamId, eventIds, settings);
    }
  }
  out.staleTeams = [...staleTeams];
  return out;
}
