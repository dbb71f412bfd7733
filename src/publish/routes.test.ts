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
