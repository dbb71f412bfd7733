// npm run build: Astro's server bundle, the worker threads' and the bundled commands', whatever their age.
import { build } from './build-if-needed.js';
import { runCli } from './cli.js';

await runCli(() => {
  build('inherit');
  console.log('built dist/ (server), dist/workers/ (worker threads) and dist/scripts/ (bundled commands)');
});
