// The organizations of a large regeneration, rendered on every core: worker threads (render-worker.ts) take
// organizations off one queue, two outstanding each, while the calling thread hands them out and writes the files
// they render. That keeps every render heap bounded by the workers' resource limits, whatever process runs the job,
// and the calling thread free of renders (in the server it answers requests through a full render: a message's
// artifacts at a time, FILES_PER_MESSAGE, a few milliseconds). One thread writes because two threads creating files in one
// directory (the teams' calendars share one) wait on its lock in the kernel, spinning: perf put 18% of a full run's
// samples there on these machines' ext4, and the run's system time fell from 7.0 s to 2.6 s with one writer.
// Each worker reads through its own connection and renders only when its snapshot shows the same events at the same
// revisions as the run's (every change to what a render reads moves an event's revision: the migrations' triggers),
// so the output is the bytes a single thread would write. Organizations a worker could not render (it did not start,
// saw another snapshot or failed) go back on the queue, and the calling thread renders whatever is left itself.
import type { EventHead } from '../competitions/queries.js';
import type { Db } from '../db/connect.js';
import { startModuleWorker, workerModule } from '../threads/module-worker.js';
import {
  previousFor,
  renderOrganization,
  type OrganizationWork,
  type PreviousRender,
  type RenderedOrganization,
  type RenderSettings,
} from './render-organization.js';
import type { ArtifactStore, PreparedArtifact, StoreStats } from './store.js';

/**
 * Below this many events a run renders on the calling thread alone: a worker costs its start (its own module
 * loading and connection, tenths of a second to a second under tsx) and the quiet minute renders one event or none.
 */
export const THREADED_MIN_EVENTS = 100;

/**
 * Each worker's heap. An organization's render needs a few megabytes (its events' matches and calendars); V8's
 * defaults let a heap grow far past that before it collects, which took the process past 400 MB with two render
 * threads. With these limits (and the bundle) the bench's full render of 2,000 events peaks at 266-291 MB and
 * takes 12.8-14.0 s of user CPU, about what one thread takes (12.4 s). An organization too large for them runs
 * the worker out of memory: it fails, and the calling thread renders what it had.
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 } as const;

/**
 * How many artifacts a worker sends in one message. One message an artifact cost each worker about 0.45 s of a full
 * render of the bench's 21,731 artifacts in postMessage alone (its CPU profile); in batches of 16, a full render took
 * 0.4 to 0.5 s less system time (regenerate with its files not written, two runs each way). Few enough that the
 * calling thread, which writes a message's files in one go, answers requests between two batches within a few
 * milliseconds in the server.
 */
export const FILES_PER_MESSAGE = 16;

/** What a worker is started with (workerData): the settings but `previous`, which comes with each organization. */
export interface WorkerSetup {
  databasePath: string;
  artifactsDir: string;
  settings: Omit<RenderSettings, 'previous'>;
}

/** An organization to render, with what of the last run its render compares with (previousFor). */
export type ToWorker = { type: 'work'; work: OrganizationWork; previous: PreviousRender } | { type: 'stop' };
export type FromWorker =
  | { type: 'open'; heads: string }
  | { type: 'files'; artifacts: PreparedArtifact[] }
  | { type: 'done'; result: RenderedOrganization }
  | { type: 'closed'; stats: StoreStats };

/** The events a snapshot shows and their revisions: two snapshots with the same heads render the same bytes. */
export function headsFingerprint(heads: readonly EventHead[]): string {
  return JSON.stringify(heads.map((h) => [h.id, h.revision, h.is_public]));
}

export interface ThreadsOptions {
  /** The database file, for the workers' own connections; without it everything renders on the calling thread. */
  databasePath?: string;
  /** Render threads: 1 renders on the calling thread; more start that many workers (for a run large enough). */
  threads: number;
  /** headsFingerprint of the calling thread's snapshot. */
  heads: string;
}

export interface ThreadsOutcome {
  results: RenderedOrganization[];
  /** What the workers counted: their unchanged files (the files they rendered, the calling thread's store wrote and counted). */
  workerStats: StoreStats;
  /** Organizations each worker rendered, or why it rendered none; empty when none was started. */
  workers: Array<number | string>;
}

export async function renderOrganizations(
  trx: Db,
  works: readonly OrganizationWork[],
  store: ArtifactStore,
  settings: RenderSettings,
  options: ThreadsOptions,
): Promise<ThreadsOutcome> {
  const queue = [...works];
  const outcome: ThreadsOutcome = { results: [], workerStats: { written: 0, unchanged: 0, removed: 0 }, workers: [] };
  const events = works.reduce((n, w) => n + w.events.length, 0);
  if (options.threads > 1 && options.databasePath && events >= THREADED_MIN_EVENTS) {
    const { previous, ...shared } = settings;
    const setup: WorkerSetup = { databasePath: options.databasePath, artifactsDir: store.root, settings: shared };
    // Decided once a run: whether the bundle is fresh takes a walk of the source folders.
    const module = workerModule('src/publish/render-worker.ts');
    outcome.workers = await Promise.all(
      Array.from({ length: options.threads }, () =>
        runWorker(module, setup, previous, queue, options.heads, outcome, store).catch((error: unknown) => `failed: ${error instanceof Error ? error.message : String(error)}`),
      ),
    );
  }
  // What no worker rendered.
  for (let work = queue.shift(); work; work = queue.shift()) outcome.results.push(await renderOrganization(trx, work, store, settings));
  return outcome;
}

/**
 * Runs one worker until the queue is empty: two organizations outstanding (it never waits for the calling thread
 * between two). Its files arrive before its "done", and the next organization is handed out on "done": at most two
 * organizations' files wait in memory for the calling thread to write them, however slow the disk. Resolves with
 * how many it rendered (or why none) when it closed; its unfinished organizations go back on the queue, at the front
 * and in order, whatever happened.
 */
async function runWorker(
  module: URL,
  setup: WorkerSetup,
  previous: PreviousRender,
  queue: OrganizationWork[],
  heads: string,
  outcome: ThreadsOutcome,
  store: ArtifactStore,
): Promise<number | string> {
  const worker = startModuleWorker(module, { workerData: setup, resourceLimits: WORKER_LIMITS });
  // Ended on its own: its loop closed, or it died.
  const ended = new Promise<void>((resolve) => {
    worker.on('message', (message: FromWorker) => message.type === 'closed' && resolve());
    worker.once('exit', () => resolve());
  });
  const outstanding = new Map<string, OrganizationWork>();
  let rendered = 0;
  let declined: string | null = null;
  /** A file of it could not be written: nothing it sends after counts (its organization is not done). */
  let failed = false;
  const post = (message: ToWorker) => worker.postMessage(message);
  const feed = () => {
    while (outstanding.size < 2 && queue.length > 0) {
      const work = queue.shift()!;
      outstanding.set(work.org, work);
      post({ type: 'work', work, previous: previousFor(work, previous) });
    }
    if (outstanding.size === 0) post({ type: 'stop' });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (failed) return;
        if (message.type === 'open') {
          if (message.heads === heads) return feed();
          declined = 'its snapshot differed (a change landed as the run began)';
          return post({ type: 'stop' });
        }
        if (message.type === 'files') {
          try {
            for (const artifact of message.artifacts) store.write(artifact);
            return;
          } catch (error) {
            // The disk refused (full, say): the organization goes back on the queue, and the calling thread's own
            // attempt fails the run as one thread would, the last run's manifest in place. The worker is told to
            // stop after what it has in hand (below).
            failed = true;
            post({ type: 'stop' });
            return reject(error as Error);
          }
        }
        if (message.type === 'done') {
          outstanding.delete(message.result.org);
          outcome.results.push(message.result);
          rendered++;
          return feed();
        }
        for (const key of ['written', 'unchanged', 'removed'] as const) outcome.workerStats[key] += message.stats[key];
        resolve();
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`it exited (${code}) before it was done`)));
    });
    return declined ?? rendered;
  } finally {
    queue.unshift(...outstanding.values());
    // Never terminated in the middle of a render: node 20 aborts the whole process when a worker is terminated inside
    // a zlib call ("close before init", node_zlib.cc: a worker compressing in a loop, terminated 5-35 ms after its
    // start, 300 times over, aborted its process with exit 134 here). It ends on its own after what it has in hand; a
    // worker that does not within STOP_WAIT_MS is terminated all the same.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
    await worker.terminate();
  }
}

/** How long a failed run waits for a worker to end on its own: two organizations' renders, with room to spare. */
const STOP_WAIT_MS = 30_000;
