// Paths as the organizer reads them: an element of a list with ids named by its id after its index (an organizer's
// review had to count to the 251st match of a 380-match file).
import { describe, expect, it } from 'vitest';
import { formatPath } from './cross-check.js';

const matches = Array.from({ length: 380 }, (_, i) => ({ id: `fed-m${i + 1}` }));
const FILE = {
  organizations: [{
    id: 'fed',
    teams: [{ id: 'fed-a', members: [{ id: 'fed-a-1' }, { name: 'no id yet' }] }],
    divisions: [{ id: 'fed-u14' }],
    leagues: [{ id: 'fed-premier', events: [{ id: 'fed-2026', matches, decisions: [{ teams: ['fed-a', 'fed-b'] }], best_placed: [{ id: 'thirds' }] }] }],
  }],
};

describe('formatPath', () => {
  it.each<[string, PropertyKey[], unknown, string]>([
    ['a match among 380', ['organizations', 0, 'leagues', 0, 'events', 0, 'matches', 250, 'kickoff'], FILE,
      'organizations[0] ("fed").leagues[0] ("fed-premier").events[0] ("fed-2026").matches[250] ("fed-m251").kickoff'],
    ['a team\'s member', ['organizations', 0, 'teams', 0, 'members', 0, 'email'], FILE, 'organizations[0] ("fed").teams[0] ("fed-a").members[0] ("fed-a-1").email'],
    ['a division', ['organizations', 0, 'divisions', 0, 'league'], FILE, 'organizations[0] ("fed").divisions[0] ("fed-u14").league'],
    ['an element without an id: its index alone', ['organizations', 0, 'teams', 0, 'members', 1, 'id'], FILE, 'organizations[0] ("fed").teams[0] ("fed-a").members[1].id'],
    ['an index past the list', ['organizations', 0, 'divisions', 3], FILE, 'organizations[0] ("fed").divisions[3]'],
    ['a list of team ids, not of elements with ids', ['organizations', 0, 'leagues', 0, 'events', 0, 'decisions', 0, 'teams', 1], FILE,
      'organizations[0] ("fed").leagues[0] ("fed-premier").events[0] ("fed-2026").decisions[0].teams[1]'],
    ['a list the file format does not name by ids', ['organizations', 0, 'leagues', 0, 'events', 0, 'best_placed', 0, 'id'], FILE,
      'organizations[0] ("fed").leagues[0] ("fed-premier").events[0] ("fed-2026").best_placed[0].id'],
    ['an id that is not a string', ['organizations', 0], { organizations: [{ id: 7 }] }, 'organizations[0]'],
    ['an id with a quote, escaped', ['organizations', 0, 'id'], { organizations: [{ id: 'a"b' }] }, 'organizations[0] ("a\\"b").id'],
    ['a pasted text as an id, cut', ['organizations', 0, 'id'], { organizations: [{ id: 'x'.repeat(500) }] }, `organizations[0] ("${'x'.repeat(64)}…").id`],
    ['no file: indexes alone', ['organizations', 0, 'leagues', 1], undefined, 'organizations[0].leagues[1]'],
    ['the root', [], FILE, '(root)'],
  ])('%s', (_label, path, root, expected) => {
    expect(formatPath(path, root)).toBe(expected);
  });
});
