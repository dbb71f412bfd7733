// npm run build: Astro's server bundle and the worker threads' bundles, whatever their age.
import { build } from './build-if-needed.js';
import { runCli } from './cli.js';

await runCli(() => {
  build('inherit');
  console.log('built dist/ (server) and dist/workers/ (worker threads)');
});
