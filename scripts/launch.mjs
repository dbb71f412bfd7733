// `node scripts/launch.mjs NAME [ARGS]` (npm run regenerate, which cron starts every minute): runs the command's
// bundle, dist/scripts/NAME.mjs, when the build left one made from the sources as they stand, else its TypeScript,
// scripts/NAME.ts, through tsx (src/threads/bundles.mjs). The bundle starts in plain node: no tsx loader thread
// (about 37 MB of every run's memory) and no transpiling (about 0.4 s of every run here).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleFile, freshBundle, ROOT, SCRIPT_BUNDLE_DIR } from '../src/threads/bundles.mjs';

const name = process.argv[2] ?? '';
if (!/^[a-z][a-z-]*$/.test(name)) {
  console.error('usage: node scripts/launch.mjs COMMAND [ARGS] (a command of scripts/, e.g. regenerate)');
  process.exit(2);
}
// The command sees its own arguments where it would when run directly.
process.argv.splice(2, 1);
const source = path.join('scripts', `${name}.ts`);
const bundle = bundleFile(SCRIPT_BUNDLE_DIR, source);
if (freshBundle(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(path.join(ROOT, source)).href);
}
