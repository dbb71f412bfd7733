// Which changes each follow is told, and when, as one pure decision per follow and run.
// - Scope: a change of the follow's organization (and league, for a league follow).
// - Alerts: changes flagged alert (the next 48 hours) past alerted_through, sent once the newest of them is
//   `delayMs` old, so that a batch of edits makes one email.
// - Digest: at the organization's daily local hour, every change detected before that hour that no alert told.
// - Cursors: each moves to just below the first change of its kind still waiting (or to the newest change when
//   none waits), in the same transaction as the emails: nothing is told twice, nothing is skipped.
export interface FollowState {
  id: string;
  org_id: string;
  league_id: string | null;
  told_through: number;
  alerted_through: number;
}

export interface ChangeRow {
  id: number;
  org_id: string;
  league_id: string;
  alert: 0 | 1;
  detected_at: string;
}

export const inScope = (f: Pick<FollowState, 'org_id' | 'league_id'>, c: Pick<ChangeRow, 'org_id' | 'league_id'>) =>
  c.org_id === f.org_id && (f.league_id === null || c.league_id === f.league_id);

export interface Decision<C> {
  alert: C[];
  digest: C[];
  told_through: number;
  alerted_through: number;
}

/**
 * `changes`: the changes of the follow's organization past its lower cursor, ascending; `digestHour`: the latest
 * instant the organization's digest hour passed (now, when digests are forced); `newestId`: the newest change.
 */
export function decide<C extends ChangeRow>(
  f: FollowState,
  changes: readonly C[],
  now: Date,
  digestHour: Date,
  delayMs: number,
  newestId: number,
): Decision<C> {
  const waiting = (c: C) => (c.alert === 1 ? c.id > f.alerted_through : c.id > f.told_through);
  const mine = changes.filter((c) => inScope(f, c) && waiting(c));
  const pendingAlerts = mine.filter((c) => c.alert === 1);
  const newest = Math.max(0, ...pendingAlerts.map((c) => Date.parse(c.detected_at)));
  const alert = pendingAlerts.length > 0 && now.getTime() - newest >= delayMs ? pendingAlerts : [];
  const alerted = new Set(alert.map((c) => c.id));
  const digest = mine.filter((c) => !alerted.has(c.id) && Date.parse(c.detected_at) <= digestHour.getTime());
  const told = new Set([...alerted, ...digest.map((c) => c.id)]);
  const stillWaiting = mine.filter((c) => !told.has(c.id));
  const below = (kind: 0 | 1) => {
    const first = stillWaiting.find((c) => c.alert === kind);
    return first ? first.id - 1 : newestId;
  };
  return {
    alert,
    digest,
    told_through: Math.max(f.told_through, below(0)),
    alerted_through: Math.max(f.alerted_through, below(1)),
  };
}
