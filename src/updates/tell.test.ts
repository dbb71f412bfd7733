import { describe, expect, it } from 'vitest';
import { decide, decideTogether, type ChangeRow, type Decision, type FollowState } from './tell.js';

const follow = (patch: Partial<FollowState> = {}): FollowState => ({ id: 'fol', org_id: 'org', league_id: null, told_through: 0, alerted_through: 0, ...patch });
const change = (id: number, patch: Partial<ChangeRow> = {}): ChangeRow => ({
  id, org_id: 'org', league_id: 'lg', alert: 0, detected_at: '2026-12-04T10:00:00Z', ...patch,
});
const NOW = new Date('2026-12-04T18:30:00Z');
const HOUR = new Date('2026-12-04T18:00:00Z');
const YESTERDAY = new Date('2026-12-03T18:00:00Z');
const DELAY = 600_000;

const run = (f: FollowState, changes: ChangeRow[], hour = HOUR, newest = Math.max(0, ...changes.map((c) => c.id))) => {
  const d = decide(f, changes, NOW, hour, DELAY, newest);
  return { alert: d.alert.map((c) => c.id), digest: d.digest.map((c) => c.id), told: d.told_through, alerted: d.alerted_through };
};

describe('decide', () => {
  it.each<[string, Partial<FollowState>, ChangeRow[], Date, ReturnType<typeof run>]>([
    ['nothing new', { told_through: 3, alerted_through: 3 }, [], HOUR, { alert: [], digest: [], told: 3, alerted: 3 }],
    ['a result before the digest hour: in the digest', {}, [change(1)], HOUR, { alert: [], digest: [1], told: 1, alerted: 1 }],
    ['a result after the hour: waits for tomorrow', {}, [change(1, { detected_at: '2026-12-04T18:10:00Z' })], HOUR, { alert: [], digest: [], told: 0, alerted: 1 }],
    ['before the hour, the digest not due yet (yesterday\'s hour)', {}, [change(1)], YESTERDAY, { alert: [], digest: [], told: 0, alerted: 1 }],
    ['another organization: skipped, cursors move on', {}, [change(1, { org_id: 'other' })], HOUR, { alert: [], digest: [], told: 1, alerted: 1 }],
    ['another league of a league follow', { league_id: 'lg2' }, [change(1)], HOUR, { alert: [], digest: [], told: 1, alerted: 1 }],
    ['an alert old enough: sent, not in the digest', {}, [change(1, { alert: 1, detected_at: '2026-12-04T18:10:00Z' })], YESTERDAY, { alert: [1], digest: [], told: 1, alerted: 1 }],
    ['an alert too recent: held (a batch of edits makes one email)', {}, [change(1, { alert: 1, detected_at: '2026-12-04T18:25:00Z' })], YESTERDAY, { alert: [], digest: [], told: 1, alerted: 0 }],
    ['a held alert detected before the hour goes in the digest', {}, [change(1, { alert: 1, detected_at: '2026-12-04T17:59:00Z' }), change(2, { alert: 1, detected_at: '2026-12-04T18:25:00Z' })], HOUR, { alert: [], digest: [1], told: 2, alerted: 1 }],
    ['already alerted: never in a digest', { alerted_through: 1 }, [change(1, { alert: 1 }), change(2)], HOUR, { alert: [], digest: [2], told: 2, alerted: 2 }],
    ['already told: nothing twice', { told_through: 2, alerted_through: 2 }, [change(1), change(2)], HOUR, { alert: [], digest: [], told: 2, alerted: 2 }],
    ['forced digest (hour = now) takes everything not alerted', {}, [change(1), change(2, { detected_at: '2026-12-04T18:29:00Z' })], NOW, { alert: [], digest: [1, 2], told: 2, alerted: 2 }],
  ])('%s', (_label, f, changes, hour, expected) => {
    expect(run(follow(f), changes, hour)).toEqual(expected);
  });

  it('a second run with the cursors of the first tells nothing', () => {
    const changes = [change(1), change(2, { alert: 1, detected_at: '2026-12-04T18:00:00Z' }), change(3, { org_id: 'other' })];
    const first = decide(follow(), changes, NOW, HOUR, DELAY, 3);
    expect(first.alert.length + first.digest.length).toBe(2);
    const second = decide(follow({ told_through: first.told_through, alerted_through: first.alerted_through }), changes, NOW, HOUR, DELAY, 3);
    expect([second.alert, second.digest]).toEqual([[], []]);
  });
});

describe('decideTogether: the follows of one address in one organization', () => {
  const whole = follow({ id: 'org' });
  const premier = follow({ id: 'premier', league_id: 'lg' });
  const cup = follow({ id: 'cup', league_id: 'cup' });
  const ids = (d: Decision<ChangeRow>) => ({ alert: d.alert.map((c) => c.id), digest: d.digest.map((c) => c.id), told: d.told_through, alerted: d.alerted_through });
  const together = (follows: FollowState[], changes: ChangeRow[], now = NOW, hour = HOUR) =>
    decideTogether(follows, changes, now, hour, DELAY, Math.max(0, ...changes.map((c) => c.id))).map(ids);
  const soon = (id: number, league: string, at: string) => change(id, { league_id: league, alert: 1, detected_at: at });

  // Rows: follows, changes, now, the digest hour, what each follow is told.
  it.each<[string, FollowState[], ChangeRow[], Date, Date, Array<ReturnType<typeof ids>>]>([
    ['a league change: told by the organization follow alone; the league follow moves past it',
      [whole, premier], [change(1)], NOW, HOUR,
      [{ alert: [], digest: [1], told: 1, alerted: 1 }, { alert: [], digest: [], told: 1, alerted: 1 }]],
    ['the organization follow confirmed after a change: the league follow tells that one, the organization follow the next',
      [follow({ id: 'org', told_through: 1, alerted_through: 1 }), premier], [change(1), change(2)], NOW, HOUR,
      [{ alert: [], digest: [2], told: 2, alerted: 2 }, { alert: [], digest: [1], told: 2, alerted: 2 }]],
    ['an alert due for the league alone waits for the newer one of another league: one email, later',
      [whole, premier], [soon(1, 'lg', '2026-12-04T18:10:00Z'), soon(2, 'cup', '2026-12-04T18:25:00Z')], NOW, YESTERDAY,
      [{ alert: [], digest: [], told: 2, alerted: 0 }, { alert: [], digest: [], told: 2, alerted: 0 }]],
    ['… and ten minutes later the organization follow alerts both, the league follow nothing',
      [whole, premier], [soon(1, 'lg', '2026-12-04T18:10:00Z'), soon(2, 'cup', '2026-12-04T18:25:00Z')], new Date('2026-12-04T18:35:00Z'), YESTERDAY,
      [{ alert: [1, 2], digest: [], told: 2, alerted: 2 }, { alert: [], digest: [], told: 2, alerted: 2 }]],
    ['two leagues without the organization: each tells its own',
      [premier, cup], [change(1), change(2, { league_id: 'cup' })], NOW, HOUR,
      [{ alert: [], digest: [1], told: 2, alerted: 2 }, { alert: [], digest: [2], told: 2, alerted: 2 }]],
  ])('%s', (_label, follows, changes, now, hour, expected) => {
    expect(together(follows, changes, now, hour)).toEqual(expected);
  });

  it('one follow alone is decide()', () => {
    const changes = [change(1), soon(2, 'lg', '2026-12-04T18:25:00Z'), change(3, { org_id: 'other' })];
    expect(together([premier], changes)).toEqual([ids(decide(premier, changes, NOW, HOUR, DELAY, 3))]);
  });
});
