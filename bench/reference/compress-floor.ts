// The floor of a full regeneration for `npm run bench -- regenerate`: the one thing a regeneration cannot
// avoid, compressing every artifact's identity bytes into its .gz and .br variants with the job's own settings
// (src/publish/store.ts compressVariants, called: gzip 9, brotli 6, nothing under 128 bytes), on every core: one
// worker thread per core, the files split evenly by bytes. Nothing is written.
//
//   node --import tsx bench/reference/compress-floor.ts DIR      (the bench runs it bundled, like dist/regenerate.mjs)
//
// DIR holds the identity files of a full render (the bench copies them out of ARTIFACTS_DIR). Each worker reads
// its share, says it is ready, then compresses on "go". Prints one JSON line: files, bytes, workers, compressMs
// (from "go" to the last worker done: the compression alone) and outBytes (gzip + brotli bytes, which must equal
// the .gz and .br files of the render). The bench times the whole process, like the regeneration's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { compressVariants } from '../../src/publish/store.js';

interface Share {
  files: string[];
  bytes: number;
}

export interface FloorResult {
  files: number;
  bytes: number;
  workers: number;
  compressMs: number;
  outBytes: number;
}

function listFiles(dir: string, out: Array<{ file: string; size: number }> = []): Array<{ file: string; size: number }> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(file, out);
    else if (entry.isFile()) out.push({ file, size: fs.statSync(file).size });
  }
  return out;
}

/** Largest file first, each to the share with the fewest bytes so far. */
function splitEvenly(files: Array<{ file: string; size: number }>, n: number): Share[] {
  const shares: Share[] = Array.from({ length: n }, () => ({ files: [], bytes: 0 }));
  for (const f of [...files].sort((a, b) => b.size - a.size || a.file.localeCompare(b.file))) {
    const least = shares.reduce((min, s) => (s.bytes < min.bytes ? s : min));
    least.files.push(f.file);
    least.bytes += f.size;
  }
  return shares;
}

/**
 * A worker running this same file, without the main thread's --import preloads (the bench's RSS reporter is one;
 * Node 20 cannot load a TypeScript preload in a worker). Bundled (as the bench runs it) that is all; run as
 * TypeScript, the worker registers tsx itself first.
 */
function startWorker(files: string[]): Worker {
  const options = { workerData: files, execArgv: [] };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(import.meta.url), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  return new Worker(code, { ...options, eval: true });
}

async function main(dir: string): Promise<FloorResult> {
  const files = listFiles(dir);
  const shares = splitEvenly(files, os.availableParallelism()).filter((s) => s.files.length > 0);
  const workers = shares.map((share) => startWorker(share.files));
  const message = (w: Worker, type: string) =>
    new Promise<{ type: string; outBytes?: number }>((resolve, reject) => {
      const onMessage = (m: { type: string; outBytes?: number }) => {
        if (m.type !== type) return;
        w.off('message', onMessage);
        resolve(m);
      };
      w.on('message', onMessage);
      w.once('error', reject);
    });
  await Promise.all(workers.map((w) => message(w, 'ready')));
  const started = performance.now();
  const done = workers.map((w) => message(w, 'done'));
  for (const w of workers) w.postMessage('go');
  const results = await Promise.all(done);
  const compressMs = performance.now() - started;
  return {
    files: files.length,
    bytes: files.reduce((sum, f) => sum + f.size, 0),
    workers: workers.length,
    compressMs: Math.round(compressMs),
    outBytes: results.reduce((sum, r) => sum + (r.outBytes ?? 0), 0),
  };
}

function worker(files: string[]): void {
  const inputs = files.map((f) => fs.readFileSync(f));
  parentPort!.once('message', () => {
    let outBytes = 0;
    for (const bytes of inputs) {
      // null for an artifact too short to gain from variants: the job does not compress it either.
      const variants = compressVariants(bytes);
      if (variants) outBytes += variants.gz.length + variants.br.length;
    }
    parentPort!.postMessage({ type: 'done', outBytes });
  });
  parentPort!.postMessage({ type: 'ready' });
}

if (!isMainThread) {
  worker(workerData as string[]);
} else if (process.argv[2]) {
  console.log(JSON.stringify(await main(process.argv[2])));
}
