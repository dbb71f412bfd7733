// A worker thread running one of our modules: from its bundle (dist/workers/, written by the build beside Astro's)
// when it is fresh (bundles.mjs), else from the TypeScript source through tsx. The bundle is the same code in one
// file: a worker starts without tsx and our module graph, about 45 MB less per worker and no transpiling.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { bundleFile, freshBundle, ROOT, WORKER_BUNDLE_DIR } from './bundles.mjs';

/** The module to run for the worker whose source is `source` (a .ts file, from the project's folder): its bundle when fresh. */
export function workerModule(source: string): URL {
  const bundle = bundleFile(WORKER_BUNDLE_DIR, source);
  return pathToFileURL(freshBundle(bundle) ? bundle : path.join(ROOT, source));
}

/**
 * Starts `module` in a worker thread. The worker gets none of the process's --import preloads (Node 20 cannot run a
 * TypeScript preload in a worker); a TypeScript module registers tsx in the worker first, as the process did.
 */
export function startModuleWorker(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const settings = { execArgv: [], ...options };
  if (!module.href.endsWith('.ts')) return new Worker(module, settings);
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(code, { ...settings, eval: true });
}
