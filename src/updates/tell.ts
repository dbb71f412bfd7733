// Which changes each follow is told, and when, as one pure decision per follow and run.
// - Scope: a change of the follow's organization (and league, for a league follow).
// - Alerts: changes flagged alert (the next 48 hours) past alerted_through, sent once the newest of them is
//   `delayMs` old, so that a batch of edits makes one email.
// - Digest: at the organization's daily local hour, every change detected before that hour that no alert told.
// - Cursors: each moves to just below the first change of its kind still waiting (or to the newest change when
//   none waits), in the same transaction as the emails: nothing is told twice, nothing is skipped.
// - One address, one organization (decideTogether): an address that follows the whole organization and one of its
//   leagues is told each change once. Its follows' alerts fall due together, and a league follow leaves out what
//   the organization follow tells in the same run (its cursors still pass it: it was told, by the other email).
//   Only the same address: spellings that may reach one inbox (x@ and x+tag@) are separate subscriptions, each
//   confirmed from its own address, and merging them by guess (mailboxOf drops dots everywhere) could leave a real
//   person untold.
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
  return decideTogether([f], changes, now, digestHour, delayMs, newestId)[0]!;
}

/**
 * decide() for the follows of one address in one organization (`follows`, each decided in its order): their alerts
 * are due once the newest alert any of them waits for is `delayMs` old, and a league follow's emails leave out the
 * changes the organization follow's tell. With one follow it is decide().
 */
export function decideTogether<C extends ChangeRow>(
  follows: readonly FollowState[],
  changes: readonly C[],
  now: Date,
  digestHour: Date,
  delayMs: number,
  newestId: number,
): Array<Decision<C>> {
  const mine = follows.map((f) => {
    const waiting = (c: C) => (c.alert === 1 ? c.id > f.alerted_through : c.id > f.told_through);
    return changes.filter((c) => inScope(f, c) && waiting(c));
  });
  // Due for all of them or none: an alert one of them sent alone now would be in another's later alert again.
  const newest = Math.max(0, ...mine.flat().filter((c) => c.alert === 1).map((c) => Date.parse(c.detected_at)));
  const alertsDue = now.getTime() - newest >= delayMs;
  const decisions = follows.map((f, i) => {
    const pendingAlerts = mine[i]!.filter((c) => c.alert === 1);
    const alert = alertsDue ? pendingAlerts : [];
    const alerted = new Set(alert.map((c) => c.id));
    const digest = mine[i]!.filter((c) => !alerted.has(c.id) && Date.parse(c.detected_at) <= digestHour.getTime());
    const told = new Set([...alerted, ...digest.map((c) => c.id)]);
    const stillWaiting = mine[i]!.filter((c) => !told.has(c.id));
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
  });
  // A league follow beside the organization's tells what the organization's does not tell now. A change waiting for
  // both is told by both in the same run or by neither (both kinds fall due for both at once), so a change left out
  // here is in the other email of this run, never in a later one of this follow.
  const whole = follows.findIndex((f) => f.league_id === null);
  if (whole < 0) return decisions;
  const byWhole = new Set([...decisions[whole]!.alert, ...decisions[whole]!.digest].map((c) => c.id));
  return decisions.map((d, i) =>
    i === whole ? d : { ...d, alert: d.alert.filter((c) => !byWhole.has(c.id)), digest: d.digest.filter((c) => !byWhole.has(c.id)) },
  );
}
