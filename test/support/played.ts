// A kickoff for a demo match a test gives a result. The import refuses a result before its kickoff, and the demo's
// upcoming matches are upcoming only until their day: a test that completes one moves it into the past, to the same
// instant for the whole run (a second import of the same file must not read as a move). Once the demo's own kickoff
// has passed, it is kept.
const DAY_MS = 86_400_000;
const TODAY = Math.floor(Date.now() / DAY_MS) * DAY_MS;

/** `kickoff`, or `daysAgo` days before today (UTC) at `hour`, whichever is earlier. */
export function playedKickoff(kickoff: string, daysAgo: number, hour: number): string {
  const latest = TODAY - daysAgo * DAY_MS + hour * 3_600_000;
  return Date.parse(kickoff) <= latest ? kickoff : new Date(latest).toISOString().replace(/\.000Z$/, 'Z');
}
