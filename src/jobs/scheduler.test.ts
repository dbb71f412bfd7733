// The job scheduler: each job on its own period, never overlapping itself, failures logged and retried at the
// next tick, runNow after the run in progress, kick coalescing the runs asked for meanwhile, stop() waiting for what runs.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createScheduler, failureLines, JobRunFailed, REPEAT_FAILURE_EVERY_MS, type Job } from './scheduler.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A job whose runs the test releases one by one. */
function manualJob(name: string, everyS: number) {
  const releases: (() => void)[] = [];
  let runs = 0;
  const job: Job = {
    name,
    everyS,
    run: () =>
      new Promise<string>((resolve) => {
        runs++;
        releases.push(() => resolve(`${name} run ${runs}`));
      }),
  };
  return { job, releases, runs: () => runs };
}

describe('scheduler', () => {
  it('runs each job on its period and skips a tick while its previous run is still going', async () => {
    const logs: string[] = [];
    const a = manualJob('a', 10);
    const scheduler = createScheduler([a.job], (l) => logs.push(l));
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(a.runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(20_000); // two ticks while run 1 is still going
    expect(a.runs()).toBe(1);
    a.releases[0]!();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(a.runs()).toBe(2);
    expect(logs).toEqual(['a run 1']);
    a.releases[1]!();
    await scheduler.stop();
  });

  it('runs two jobs side by side: a slow one never holds up another', async () => {
    const slow = manualJob('slow', 5);
    let quick = 0;
    const scheduler = createScheduler([slow.job, { name: 'quick', everyS: 5, run: async () => `quick ${++quick}` }], () => {});
    scheduler.start();
    await vi.advanceTimersByTimeAsync(25_000);
    expect(slow.runs()).toBe(1);
    expect(quick).toBe(5);
    slow.releases[0]!();
    await scheduler.stop();
  });

  it('logs a failure in one line, as an error, and runs the job again at its next tick', async () => {
    const logs: string[] = [];
    let n = 0;
    const scheduler = createScheduler(
      [{
        name: 'flaky',
        everyS: 1,
        run: async () => {
          n++;
          if (n === 1) throw new Error('disk full');
          // A run that ended with a part failed: its own line, whole, as an error (a publish the store refused).
          if (n === 2) throw new JobRunFailed('published to s3://b/: 3 put / 1 failed');
          return `ok ${n}`;
        },
      }],
      (l, level = 'info') => logs.push(`${level}: ${l}`),
    );
    scheduler.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(logs).toEqual([
      'error: flaky failed: disk full',
      'error: published to s3://b/: 3 put / 1 failed (failing for 1 s, 2 runs)',
      'info: flaky works again after 2 failed runs over 2 s',
      'info: ok 3',
    ]);
    await scheduler.stop();
  });

  it('runNow waits for the run in progress, then runs and resolves with the line; stop() waits for runs', async () => {
    const a = manualJob('a', 60);
    const scheduler = createScheduler([a.job], () => {});
    scheduler.start();
    await vi.advanceTimersByTimeAsync(60_000);
    const now = scheduler.runNow('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.runs()).toBe(1);
    a.releases[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.runs()).toBe(2);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    a.releases[1]!();
    await expect(now).resolves.toBe('a run 2');
    await stopping;
    await expect(scheduler.runNow('nope')).rejects.toThrow('no job "nope"');
  });

  it('tells the runs in progress that it stops: their signal is aborted, and stop() waits for them', async () => {
    let signal: AbortSignal | undefined;
    const job: Job = {
      name: 'w',
      everyS: 3600,
      run: (stopping) => {
        signal = stopping;
        return new Promise((resolve) => stopping.addEventListener('abort', () => resolve('w gave up')));
      },
    };
    const scheduler = createScheduler([job], () => {});
    const run = scheduler.runNow('w');
    expect(signal?.aborted).toBe(false);
    await scheduler.stop();
    expect(signal?.aborted).toBe(true);
    await expect(run).resolves.toBe('w gave up');
  });

  it('runNow waits for the run a kick asked for too: the job never overlaps itself', async () => {
    const a = manualJob('a', 3600);
    const scheduler = createScheduler([a.job], () => {});
    scheduler.kick('a');
    scheduler.kick('a'); // once more after the first run
    const now = scheduler.runNow('a');
    a.releases[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.runs()).toBe(2); // the kicked run, not runNow's beside it
    a.releases[1]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.runs()).toBe(3);
    a.releases[2]!();
    await expect(now).resolves.toBe('a run 3');
    await scheduler.stop();
  });

  it('kick runs an idle job at once, and a running one once more after its run, however many kicks came meanwhile', async () => {
    const logs: string[] = [];
    const a = manualJob('a', 3600);
    const scheduler = createScheduler([a.job], (l) => logs.push(l));
    scheduler.start();
    scheduler.kick('a');
    expect(a.runs()).toBe(1);
    scheduler.kick('a');
    scheduler.kick('a');
    expect(a.runs()).toBe(1);
    a.releases[0]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.runs()).toBe(2);
    a.releases[1]!();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.runs()).toBe(2);
    expect(logs).toEqual(['a run 1', 'a run 2']);
    await scheduler.stop();
    scheduler.kick('a');
    expect(a.runs()).toBe(2);
    expect(() => scheduler.kick('nope')).toThrow('no job "nope"');
  });

  it('keeps each job\'s outcome for the health read: the last success, and since when it has been failing', async () => {
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    let fail = false;
    const job: Job = { name: 'a', everyS: 10, run: async () => { if (fail) throw new Error('down'); return 'ok'; } };
    const scheduler = createScheduler([job], () => {});
    scheduler.start();
    const t0 = performance.now();
    expect(scheduler.outcomes().get('a')).toEqual({ everyS: 10, since: t0, lastSuccessAt: null, failingSince: null });
    // The wall clock stepped (NTP, a person): nothing the health read counts moves with it.
    vi.setSystemTime(new Date('2026-11-26T14:00:00Z'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(scheduler.outcomes().get('a')).toMatchObject({ lastSuccessAt: t0 + 10_000, failingSince: null });
    fail = true;
    await vi.advanceTimersByTimeAsync(20_000); // two failed runs: the streak counts from the first
    expect(scheduler.outcomes().get('a')).toMatchObject({ lastSuccessAt: t0 + 10_000, failingSince: t0 + 20_000 });
    fail = false;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(scheduler.outcomes().get('a')).toMatchObject({ lastSuccessAt: t0 + 40_000, failingSince: null });
    await scheduler.stop();
  });
});

// An on-call review: a regeneration failing every minute logged the same line every minute all night, a temporary
// file's random name in each. Said when the streak starts, when the line changes, once an hour, and when it ends.
describe('failureLines', () => {
  const MIN = 60_000;
  it.each<[string, Array<['fail', string, number] | ['ok', number]>, Array<string | null>]>([
    ['one failure, then a success: the failure alone', [['fail', 'regenerate failed: x', 0], ['ok', MIN]], ['regenerate failed: x', null]],
    ['the same failure every minute: said once, then once an hour', [
      ['fail', 'regenerate failed: EACCES render.lock.4241.156dc8bf31a5.tmp', 0],
      ['fail', 'regenerate failed: EACCES render.lock.4241.9f00aa1b2c3d.tmp', MIN],
      ['fail', 'regenerate failed: EACCES render.lock.4241.0a0b0c0d0e0f.tmp', 59 * MIN],
      ['fail', 'regenerate failed: EACCES render.lock.4241.a1aaaaaaaaaa.tmp', REPEAT_FAILURE_EVERY_MS],
      ['fail', 'regenerate failed: EACCES render.lock.4241.bbbbbb2bbbbb.tmp', REPEAT_FAILURE_EVERY_MS + MIN],
      ['ok', 3 * REPEAT_FAILURE_EVERY_MS],
    ], [
      'regenerate failed: EACCES render.lock.4241.156dc8bf31a5.tmp',
      null,
      null,
      'regenerate failed: EACCES render.lock.4241.a1aaaaaaaaaa.tmp (failing for 60 min, 4 runs)',
      null,
      'regenerate works again after 5 failed runs over 3 h',
    ]],
    ['a word of hex letters is a word: "defaced" is another failure than "effaced"', [['fail', 'publish failed: defaced', 0], ['fail', 'publish failed: effaced', MIN]], [
      'publish failed: defaced',
      'publish failed: effaced (failing for 60 s, 2 runs)',
    ]],
    ['another failure in the streak: said at once', [['fail', 'publish failed: NoSuchBucket', 0], ['fail', 'publish failed: ECONNREFUSED', MIN]], [
      'publish failed: NoSuchBucket',
      'publish failed: ECONNREFUSED (failing for 60 s, 2 runs)',
    ]],
  ])('%s', (_label, events, expected) => {
    const lines = failureLines(/^(\w+)/.exec((events.find((e) => e[0] === 'fail') as ['fail', string, number])[1])![1]!);
    expect(events.map((e) => (e[0] === 'fail' ? lines.failed(e[1], e[2]) : lines.succeeded(e[1])))).toEqual(expected);
  });
});
