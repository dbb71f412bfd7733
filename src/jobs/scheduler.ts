// Runs the background jobs of the server (regeneration, and the jobs of later issues) each on its own period.
// A job never overlaps itself: a tick that finds its previous run still going is skipped. A failure is logged
// in one line and the job runs again at its next tick. Jobs of different names do run side by side, so a slow
// one (an object store that hangs) never holds up another.
export interface Job {
  readonly name: string;
  /** Seconds between runs. */
  readonly everyS: number;
  /** One run; resolves with the line to log (what it did, how long it took). */
  run(): Promise<string>;
}

export interface Scheduler {
  /** Starts the timers. */
  start(): void;
  /** Runs a job now (after the run in progress, if one is) and resolves with its line; rejects if it fails. */
  runNow(name: string): Promise<string>;
  /** Stops the timers and waits for the runs in progress. */
  stop(): Promise<void>;
}

export function createScheduler(jobs: readonly Job[], log: (line: string) => void): Scheduler {
  const running = new Map<string, Promise<string>>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const byName = (name: string): Job => {
    const job = jobs.find((j) => j.name === name);
    if (!job) throw new Error(`no job "${name}"`);
    return job;
  };

  function launch(job: Job): Promise<string> {
    const run = job.run().finally(() => {
      if (running.get(job.name) === run) running.delete(job.name);
    });
    running.set(job.name, run);
    return run;
  }

  function tick(job: Job): void {
    if (stopped || running.has(job.name)) return;
    launch(job).then(log, (error: unknown) => log(`${job.name} failed: ${describe(error)}`));
  }

  return {
    start() {
      for (const job of jobs) {
        const timer = setInterval(() => tick(job), job.everyS * 1000);
        timer.unref();
        timers.push(timer);
      }
    },
    async runNow(name) {
      const job = byName(name);
      await running.get(name)?.catch(() => undefined);
      return launch(job);
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running.values()]);
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
