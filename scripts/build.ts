// npm run build: Astro's server bundle and the regeneration job's bundle, whatever their age.
import { buildRegenerateBundle } from './build-if-needed.js';
import { runCli } from './cli.js';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

await runCli(() => {
  const root = path.resolve(import.meta.dirname, '..');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/astro/astro.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`astro build failed (exit ${result.status ?? result.signal})`);
  buildRegenerateBundle();
  console.log('built dist/ (server) and dist/regenerate.mjs');
});
