// The node server keeps its own list of the endpoints Astro serves (ENDPOINT_PATHS: their trailing-slash redirect and
// their 405), beside the routes it answers itself. A maintainability review: a new endpoint under src/pages/api/v0/
// would have had neither. Each file there, its parameters given a value, must be one the list names.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_PATHS } from './http-server.js';

const API = path.resolve(import.meta.dirname, '../pages/api/v0');

/** Every endpoint file under src/pages/api/v0/, as the address it serves (`[param]` given the value `x1`). */
function endpointPaths(dir: string, prefix = '/api/v0'): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const segment = e.name.replace(/\.ts$/, '').replace(/^\[\w+\]$/, 'x1');
    return e.isDirectory() ? endpointPaths(path.join(dir, e.name), `${prefix}/${segment}`) : e.name.endsWith('.ts') ? [`${prefix}/${segment}`] : [];
  });
}

describe('ENDPOINT_PATHS', () => {
  const paths = endpointPaths(API);
  it('finds the endpoints', () => {
    expect(paths).toEqual(expect.arrayContaining(['/api/v0/follow', '/api/v0/register', '/api/v0/rsvp/respond']));
  });
  it.each(paths)('names %s', (p) => {
    expect(ENDPOINT_PATHS.test(p)).toBe(true);
  });
});
