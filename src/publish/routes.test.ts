import { describe, expect, it } from 'vitest';
import { artifactPaths, EVENTS_LIST_PATH, matchArtifactRoute, OPENAPI_PATH, teamCalendarPath, urlKeyOf } from './routes.js';

describe('urlKeyOf', () => {
  const paths = artifactPaths('rsl-prem-2026-27');
  it.each([
    [EVENTS_LIST_PATH, 'api/v0/events'],
    [OPENAPI_PATH, 'api/v0/openapi.json'],
    [paths.standings, 'api/v0/events/rsl-prem-2026-27/standings'],
    [paths.bracket, 'api/v0/events/rsl-prem-2026-27/bracket'],
    [paths.calendar, 'api/v0/calendar/rsl-prem-2026-27'],
    [teamCalendarPath('rsl-rovers'), 'api/v0/teams/rsl-rovers/calendar'],
  ])('%s is served at /%s, and that URL maps back to it with the same content type', (file, key) => {
    const found = urlKeyOf(file)!;
    expect(found.key).toBe(key);
    const route = matchArtifactRoute(`/${key}`);
    expect(route && route.kind !== 'bad-id' ? [route.file, route.contentType] : null).toEqual([file, found.contentType]);
  });

  it('knows nothing else', () => {
    expect(urlKeyOf('.manifest.json')).toBeNull();
    expect(urlKeyOf('api/v0/events.json.gz')).toBeNull();
  });
});

describe('matchArtifactRoute', () => {
  // nginx and object stores decode a percent-encoded id before they look it up; this server answered 404.
  it.each([
    ['/api/v0/events/%72sl-prem/standings', 'standings', 'rsl-prem'],
    ['/api/v0/calendar/rsl%2Dprem.ics', 'calendar', 'rsl-prem'],
    ['/api/v0/teams/rsl%5frovers/calendar', 'team-calendar', 'rsl_rovers'],
  ])('%s is the %s of %s', (url, kind, id) => {
    const route = matchArtifactRoute(url);
    expect(route).toMatchObject({ kind });
    expect(route && 'file' in route ? route.file : null).toContain(id);
  });

  it.each([
    '/api/v0/events/%2e%2e/standings',
    '/api/v0/events/a%2Fb/standings',
    '/api/v0/calendar/a%00b',
    '/api/v0/teams/%E0%A4/calendar',
    '/api/v0/events/%zz/bracket',
    '/api/v0/events/-a/bracket',
  ])('%s cannot name an artifact', (url) => {
    expect(matchArtifactRoute(url)).toEqual({ kind: 'bad-id' });
  });
});
