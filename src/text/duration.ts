// How long something lasted, as a log line says it: seconds under two minutes, minutes under two hours, then hours.
// The scheduler's failing streaks and the mail worker's outage say it alike.
export function spokenDuration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
