import { describe, expect, it } from 'vitest';
import { retiredIds, type FeedIds } from './retired-feeds.js';

const feeds = (events: string[], teams: string[], retired: { calendars?: string[]; teams?: string[] } = {}): FeedIds => ({
  events: Object.fromEntries(events.map((id) => [id, {}])),
  teams: Object.fromEntries(teams.map((id) => [id, 'hash'])),
  retired: {
    calendars: Object.fromEntries((retired.calendars ?? []).map((id) => [id, 'hash'])),
    teams: Object.fromEntries((retired.teams ?? []).map((id) => [id, ''])),
  },
});

describe('retiredIds', () => {
  it.each([
    ['nothing published before: nothing retired', feeds([], []), feeds(['a'], ['t']), { calendars: [], teams: [] }],
    ['published and still public', feeds(['a'], ['t']), feeds(['a'], ['t']), { calendars: [], teams: [] }],
    ['a competition and a team gone', feeds(['a', 'b'], ['t', 'u']), feeds(['a'], ['t']), { calendars: ['b'], teams: ['u'] }],
    ['retired before, still gone (a hash forgotten after a stopped run too)', feeds([], [], { calendars: ['b'], teams: ['u'] }), feeds([], []), { calendars: ['b'], teams: ['u'] }],
    ['retired before, public again', feeds([], [], { calendars: ['b'], teams: ['u'] }), feeds(['b'], ['u']), { calendars: [], teams: [] }],
    ['in code-unit order, whatever the order of work', feeds(['z', 'B', 'a'], []), feeds([], []), { calendars: ['B', 'a', 'z'], teams: [] }],
    ["an id named like Object.prototype's keys", feeds(['constructor'], ['toString']), feeds([], []), { calendars: ['constructor'], teams: ['toString'] }],
  ])('%s', (_, previous, next, expected) => {
    expect(retiredIds(previous, next)).toEqual(expected);
  });
});
