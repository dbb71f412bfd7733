import { describe, expect, it } from 'vitest';
import { eventChanges, teamLabel, visibilityChanges, type EventSeen } from './diff.js';

const ev = (id: string, over: Partial<EventSeen> = {}): EventSeen => ({ id, name: `Event ${id}`, is_public: 1, status: 'scheduled', adjustments: '[]', venue_city: 'Leeds', ...over });
const map = (...events: EventSeen[]) => new Map(events.map((e) => [e.id, e]));

describe('visibilityChanges: what the public can now see, and no longer can', () => {
  it.each([
    ['nothing changed', map(ev('a'), ev('b', { is_public: 0 })), map(ev('a'), ev('b', { is_public: 0 })), []],
    ['made private', map(ev('a')), map(ev('a', { is_public: 0 })), [{ event: 'a', name: 'Event a', now: 'private' }]],
    ['made public, named as it is now', map(ev('a', { is_public: 0 })), map(ev('a', { name: 'Renamed' })), [{ event: 'a', name: 'Renamed', now: 'public' }]],
    ['a public one removed, named as it was', map(ev('a')), map(), [{ event: 'a', name: 'Event a', now: 'removed' }]],
    ['a private one removed: nothing the public saw', map(ev('a', { is_public: 0 })), map(), []],
    ['a new public one', map(), map(ev('a')), [{ event: 'a', name: 'Event a', now: 'public' }]],
    ['a new private one', map(), map(ev('a', { is_public: 0 })), []],
    ['by event id', map(ev('c'), ev('a')), map(ev('b'), ev('a', { is_public: 0 })), [
      { event: 'a', name: 'Event a', now: 'private' }, { event: 'b', name: 'Event b', now: 'public' }, { event: 'c', name: 'Event c', now: 'removed' },
    ]],
  ] as const)('%s', (_label, before, after, expected) => {
    expect(visibilityChanges(before, after)).toEqual(expected);
  });
});

describe('eventChanges: a kept competition\'s status and its teams\' adjustments', () => {
  const adj = (...a: Array<[string, number, string]>) => JSON.stringify(a.map(([team, points, reason]) => ({ team, points, reason })));
  const names = (id: string) => (id === 'gone' ? null : teamLabel({ name: `Team ${id}`, name_ar: id === 'x' ? 'فريق' : null }));
  it('says a status changed, before and after', () => {
    expect(eventChanges(map(ev('a')), map(ev('a', { status: 'cancelled' })), names).eventStatuses)
      .toEqual([{ event: 'a', name: 'Event a', before: 'scheduled', after: 'cancelled' }]);
  });
  it('says nothing of a new or removed event', () => {
    expect(eventChanges(map(ev('old')), map(ev('new', { status: 'completed', adjustments: adj(['x', -3, 'r']) })), names)).toEqual({ eventStatuses: [], adjustments: [], cities: [] });
  });
  it('an adjustment added, named with its team\'s both names; a reason reworded alone is no change', () => {
    const { adjustments } = eventChanges(map(ev('a', { adjustments: adj(['y', -1, 'late']) })), map(ev('a', { adjustments: adj(['y', -1, 'late fee'], ['x', -3, 'fielded a suspended player']) })), names);
    expect(adjustments).toEqual([expect.objectContaining({ event: 'a', team: 'x', teamName: 'Team x / فريق', before: 0, after: -3 })]);
  });
  it.each([
    ['moved', 'Leeds', 'York', [{ event: 'a', name: 'Event a', before: 'Leeds', after: 'York' }]],
    ['given', null, 'York', [{ event: 'a', name: 'Event a', before: null, after: 'York' }]],
    ['taken away', 'Leeds', null, [{ event: 'a', name: 'Event a', before: 'Leeds', after: null }]],
    ['kept', 'Leeds', 'Leeds', []],
  ])('a city %s', (_label, was, now, expected) => {
    expect(eventChanges(map(ev('a', { venue_city: was })), map(ev('a', { venue_city: now })), names).cities).toEqual(expected);
  });
  it('a team the organization no longer has: no name', () => {
    const { adjustments } = eventChanges(map(ev('a', { adjustments: adj(['gone', -2, 'r']) })), map(ev('a')), names);
    expect(adjustments).toEqual([expect.objectContaining({ team: 'gone', teamName: null, before: -2, after: 0 })]);
  });
});
