// The one mapping between public read URLs and artifact files, used by the renderer, the node server and
// the nginx example alike. Files carry an extension; URLs (as in the spec) do not, except the OpenAPI document's.
import { ID_PATTERN } from '../vocabulary/ids.js';

export const EVENTS_LIST_PATH = 'api/v0/events.json';
/** The OpenAPI document (src/api/openapi.ts): served at /api/v0/openapi.json, file and URL alike. */
export const OPENAPI_PATH = 'api/v0/openapi.json';
export const EVENTS_DIR = 'api/v0/events';
export const CALENDAR_DIR = 'api/v0/calendar';
export const TEAMS_DIR = 'api/v0/teams';

/**
 * A team's calendar: every public match of the team, across competitions. One folder for all teams (no folder per
 * team: creating thousands of folders was a second's work of every full render).
 */
export const teamCalendarPath = (teamId: string) => `${TEAMS_DIR}/${teamId}.calendar.ics`;

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  ics: 'text/calendar; charset=utf-8',
} as const;

export function artifactPaths(eventId: string) {
  return {
    standings: `${EVENTS_DIR}/${eventId}/standings.json`,
    bracket: `${EVENTS_DIR}/${eventId}/bracket.json`,
    calendar: `${CALENDAR_DIR}/${eventId}.ics`,
  };
}

export type ArtifactRoute =
  | { kind: 'events'; file: string; contentType: string }
  | { kind: 'openapi'; file: string; contentType: string }
  | { kind: 'standings' | 'bracket' | 'calendar'; eventId: string; file: string; contentType: string }
  | { kind: 'team-calendar'; teamId: string; file: string; contentType: string };

/**
 * The id in a path segment, percent-decoded as nginx and object stores decode it (`%61bc` is `abc`: RFC 3986
 * section 6.2.2.2), or null when it cannot be an id (`..`, an encoded slash, NUL, a malformed escape, anything
 * outside the id pattern): such a segment never reaches the file system.
 */
function idIn(segment: string): string | null {
  let id = segment;
  if (id.includes('%')) {
    try {
      id = decodeURIComponent(id);
    } catch {
      return null;
    }
  }
  return ID_PATTERN.test(id) ? id : null;
}

/** The artifact behind a URL path, or null when the path is not a read route. */
export function matchArtifactRoute(pathname: string): ArtifactRoute | { kind: 'bad-id' } | null {
  if (pathname === '/api/v0/events') return { kind: 'events', file: EVENTS_LIST_PATH, contentType: CONTENT_TYPES.json };
  if (pathname === `/${OPENAPI_PATH}`) return { kind: 'openapi', file: OPENAPI_PATH, contentType: CONTENT_TYPES.json };
  const eventRoute = /^\/api\/v0\/events\/([^/]*)\/(standings|bracket)$/.exec(pathname);
  if (eventRoute) {
    const [, segment, which] = eventRoute as unknown as [string, string, 'standings' | 'bracket'];
    const id = idIn(segment);
    if (id === null) return { kind: 'bad-id' };
    return { kind: which, eventId: id, file: artifactPaths(id)[which], contentType: CONTENT_TYPES.json };
  }
  // People and calendar apps add `.ics`: the same feed.
  const calendarRoute = /^\/api\/v0\/calendar\/([^/]*?)(?:\.ics)?$/.exec(pathname);
  if (calendarRoute) {
    const id = idIn(calendarRoute[1]!);
    if (id === null) return { kind: 'bad-id' };
    return { kind: 'calendar', eventId: id, file: artifactPaths(id).calendar, contentType: CONTENT_TYPES.ics };
  }
  const teamRoute = /^\/api\/v0\/teams\/([^/]*)\/calendar(?:\.ics)?$/.exec(pathname);
  if (teamRoute) {
    const id = idIn(teamRoute[1]!);
    if (id === null) return { kind: 'bad-id' };
    return { kind: 'team-calendar', teamId: id, file: teamCalendarPath(id), contentType: CONTENT_TYPES.ics };
  }
  return null;
}

/**
 * The URL path (without its leading slash) that serves an artifact file: the object key a CDN's origin bucket
 * holds it under (src/publish/publish-s3.ts). The inverse of matchArtifactRoute for every file the renderer writes.
 */
export function urlKeyOf(file: string): { key: string; contentType: string } | null {
  if (file === EVENTS_LIST_PATH) return { key: 'api/v0/events', contentType: CONTENT_TYPES.json };
  if (file === OPENAPI_PATH) return { key: OPENAPI_PATH, contentType: CONTENT_TYPES.json };
  const event = /^api\/v0\/events\/([^/]+)\/(standings|bracket)\.json$/.exec(file);
  if (event) return { key: `api/v0/events/${event[1]}/${event[2]}`, contentType: CONTENT_TYPES.json };
  const calendar = /^api\/v0\/calendar\/([^/]+)\.ics$/.exec(file);
  if (calendar) return { key: `api/v0/calendar/${calendar[1]}`, contentType: CONTENT_TYPES.ics };
  const team = /^api\/v0\/teams\/([^/]+)\.calendar\.ics$/.exec(file);
  if (team) return { key: `api/v0/teams/${team[1]}/calendar`, contentType: CONTENT_TYPES.ics };
  return null;
}
