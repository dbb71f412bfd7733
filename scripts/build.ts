// npm run build: Astro's server bundle, whatever its age.
import { buildAstro } from './build-if-needed.js';
import { runCli } from './cli.js';

await runCli(() => {
  buildAstro('inherit');
  console.log('built dist/ (server)');
});
