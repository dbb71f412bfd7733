import { describe, expect, it } from 'vitest';
import { previousFor, type OrganizationWork, type PreviousRender } from './render-organization.js';

const previous: PreviousRender = {
  events: {
    e1: { files: { 'a/e1.json': 'h1' }, teams: ['t1', 't2'] },
    e2: { files: { 'a/e2.json': 'h2' }, teams: ['t2', 't3'] },
    e3: { files: { 'a/e3.json': 'h3' } },
    other: { files: { 'a/other.json': 'h9' }, teams: ['t9'] },
  },
  teams: { t1: 'c1', t2: 'c2', t3: 'c3', t9: 'c9' },
};

const work = (ids: string[], whole: boolean): OrganizationWork => ({ org: 'o', events: ids.map((id) => ({ id, revision: 1 })), whole });

describe('previousFor: what of the last run an organization render compares with', () => {
  const fewerCalendars: PreviousRender = { ...previous, teams: { t1: 'c1', t2: 'c2' } };
  it.each<[string, OrganizationWork, PreviousRender, PreviousRender]>([
    [
      'a whole organization: its events, and the calendars of the teams that played in them',
      work(['e1', 'e2'], true),
      previous,
      { events: { e1: previous.events.e1!, e2: previous.events.e2! }, teams: { t1: 'c1', t2: 'c2', t3: 'c3' } },
    ],
    ['part of one: its events, no calendar (the calling thread writes them)', work(['e1'], false), previous, { events: { e1: previous.events.e1! }, teams: {} }],
    ['an event new since the last run: nothing of it', work(['new', 'e3'], true), previous, { events: { e3: { files: { 'a/e3.json': 'h3' } } }, teams: {} }],
    ['a team that had no calendar: no hash', work(['e2'], true), fewerCalendars, { events: { e2: previous.events.e2! }, teams: { t2: 'c2' } }],
    [
      "a stopped run's manifest, its hashes forgotten: the empty hashes go as they are (no content hashes to '')",
      work(['e1'], true),
      { events: { e1: { files: { 'a/e1.json': '' }, teams: ['t1'] } }, teams: { t1: '' } },
      { events: { e1: { files: { 'a/e1.json': '' }, teams: ['t1'] } }, teams: { t1: '' } },
    ],
    ['a team called like a member of Object.prototype, without a calendar: no hash', work(['e4'], true), { events: { e4: { files: {}, teams: ['constructor'] } }, teams: {} }, { events: { e4: { files: {}, teams: ['constructor'] } }, teams: {} }],
    ['no calendars at all (an old manifest)', work(['e1'], true), { events: previous.events }, { events: { e1: previous.events.e1! }, teams: {} }],
  ])('%s', (_case, w, before, expected) => {
    expect(previousFor(w, before)).toEqual(expected);
  });

  it('copies no event field but files and teams (the manifest entry stays on the calling thread)', () => {
    const withEntry = { events: { e1: { ...previous.events.e1!, revision: 3, entry: { event_id: 'e1' } } }, teams: {} } as unknown as PreviousRender;
    expect(Object.keys(previousFor(work(['e1'], true), withEntry).events.e1!).sort()).toEqual(['files', 'teams']);
  });
});
