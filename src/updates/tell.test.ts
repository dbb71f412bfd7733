import { describe, expect, it } from 'vitest';
import { decide, type ChangeRow, type FollowState } from './tell.js';

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
