// Runs the background jobs of the server (regeneration, publishing, and the jobs of later issues) each on its own
// period. A job never overlaps itself: a tick that finds its previous run still going is skipped. A failure is logged
// in one line and the job runs again at its next tick; the same failure again is not logged again for an hour
// (failureLines below), and the first success after failures says how long they lasted. Jobs of different names do run
// side by side, so a slow one (an object store that hangs) never holds up another. One job may ask for another (kick):
// the publish right after a render that changed files, without the render ever waiting for it.
import type { Log } from '../log.js';
import { spokenDuration } from '../text/duration.js';

export interface Job {
  readonly name: string;
  /** Seconds between runs. */
  readonly everyS: number;
  /**
   * One run; resolves with the line to log (what it did, how long it took). `stopping` is aborted when the scheduler
   * stops: a run that waits (the render, for another process's render of its folder) gives up then.
   */
  run(stopping: AbortSignal): Promise<string>;
}

/**
 * A run that ended with something failed (a publish the store refused in part): its line is logged as a failure,
 * whole, and the job runs again at its next tick.
 */
export class JobRunFailed extends Error {
  override name = 'JobRunFailed';
}

/**
 * What a job's runs in this process came to, for the health read (src/server/health-report.ts): the state lives in
 * memory, as the health of one process is that process's. Instants on the monotonic clock (performance.now()): an
 * on-call review stepped the wall clock by two hours, as NTP or a person does, and /healthz called every job two hours
 * late at once, or, stepped back, called a job failing for every run healthy.
 */
export interface JobOutcome {
  readonly everyS: number;
  /** When the scheduler was made, or started: the job's age counts from here until a run has succeeded. */
  readonly since: number;
  readonly lastSuccessAt: number | null;
  /** The first failure since the last success; null when the last run that ended succeeded. */
  readonly failingSince: number | null;
}

export interface Scheduler {
  /** Every job's outcome so far, by name. */
  outcomes(): ReadonlyMap<string, JobOutcome>;
  /** Starts the timers. */
  start(): void;
  /** Runs a job now (after the run in progress, if one is) and resolves with its line; rejects if it fails. */
  runNow(name: string): Promise<string>;
  /**
   * Asks for a run of a job soon, without waiting for it: now when it is idle, else once more right after the run in
   * progress (however many kicks came meanwhile: one run then sees them all). Its line is logged like a tick's.
   */
  kick(name: string): void;
  /** Stops the timers, tells the runs in progress (their `stopping` signal) and waits for them. */
  stop(): Promise<void>;
}

export function createScheduler(jobs: readonly Job[], log: Log): Scheduler {
  const running = new Map<string, Promise<string>>();
  /** Jobs kicked while running: each runs once more when its run ends. */
  const kicked = new Set<string>();
  const timers: NodeJS.Timeout[] = [];
  /** Aborted by stop(): no run starts after it, and the runs in progress are told. */
  const stopping = new AbortController();
  let since = performance.now();
  const outcomes = new Map<string, { lastSuccessAt: number | null; failingSince: number | null }>(
    jobs.map((job) => [job.name, { lastSuccessAt: null, failingSince: null }]),
  );

  const byName = (name: string): Job => {
    const job = jobs.find((j) => j.name === name);
    if (!job) throw new Error(`no job "${name}"`);
    return job;
  };

  function launch(job: Job): Promise<string> {
    const outcome = outcomes.get(job.name)!;
    const run = job.run(stopping.signal).then(
      (line) => {
        outcome.lastSuccessAt = performance.now();
        outcome.failingSince = null;
        return line;
      },
      (error: unknown) => {
        outcome.failingSince ??= performance.now();
        throw error;
      },
    ).finally(() => {
      if (running.get(job.name) === run) running.delete(job.name);
      if (kicked.delete(job.name)) tick(job);
    });
    running.set(job.name, run);
    return run;
  }

  const failures = new Map(jobs.map((job) => [job.name, failureLines(job.name)]));

  function tick(job: Job): void {
    if (stopping.signal.aborted || running.has(job.name)) return;
    const lines = failures.get(job.name)!;
    launch(job).then(
      (line) => {
        const recovered = lines.succeeded(performance.now());
        if (recovered) log(recovered);
        log(line);
      },
      (error: unknown) => {
        const line = lines.failed(error instanceof JobRunFailed ? error.message : `${job.name} failed: ${describe(error)}`, performance.now());
        if (line) log(line, 'error');
      },
    );
  }

  return {
    outcomes() {
      return new Map(jobs.map((job) => [job.name, { everyS: job.everyS, since, ...outcomes.get(job.name)! }]));
    },
    start() {
      since = performance.now();
      for (const job of jobs) {
        const timer = setInterval(() => tick(job), job.everyS * 1000);
        timer.unref();
        timers.push(timer);
      }
    },
    kick(name) {
      const job = byName(name);
      if (running.has(name)) kicked.add(name);
      else tick(job);
    },
    async runNow(name) {
      const job = byName(name);
      // Until the job is idle: the run awaited may end by launching the run a kick asked for.
      for (let run = running.get(name); run; run = running.get(name)) await run.catch(() => undefined);
      return launch(job);
    },
    async stop() {
      stopping.abort();
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running.values()]);
    },
  };
}

/** How often a job failing the same way is said again: once an hour, with how long and how many runs. */
export const REPEAT_FAILURE_EVERY_MS = 3_600_000;

/**
 * Which of a job's lines to log as its runs fail and succeed. An on-call review: a regeneration failing every minute
 * logged the same line every minute, all night, one with a temporary file's random name in it each time, which no log
 * tool folds. A failure is logged when the streak starts, when its line changes (digits and hex runs aside: counts,
 * pids, temporary names), and once an hour while it lasts, with how long and how many runs; the first success after a
 * streak says it is over. `now` is the monotonic clock, in ms.
 */
export function failureLines(name: string): { failed(line: string, now: number): string | null; succeeded(now: number): string | null } {
  let streak: { since: number; runs: number; shape: string; saidAt: number } | null = null;
  // Hex runs with a digit in them (a temporary name's), and numbers; not words such as "decade" or "facade".
  const shape = (line: string) => line.replace(/(?=[0-9a-f]*\d)[0-9a-f]{6,}|\d+/gi, '#');
  return {
    failed(line, now) {
      if (streak === null) {
        streak = { since: now, runs: 1, shape: shape(line), saidAt: now };
        return line;
      }
      streak.runs++;
      if (shape(line) !== streak.shape || now - streak.saidAt >= REPEAT_FAILURE_EVERY_MS) {
        const said = `${line} (failing for ${spokenDuration(now - streak.since)}, ${streak.runs} runs)`;
        streak.shape = shape(line);
        streak.saidAt = now;
        return said;
      }
      return null;
    },
    succeeded(now) {
      if (streak === null) return null;
      const over = streak.runs === 1 ? null : `${name} works again after ${streak.runs} failed runs over ${spokenDuration(now - streak.since)}`;
      streak = null;
      return over;
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
