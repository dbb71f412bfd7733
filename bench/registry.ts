// Every benchmark scenario, in the order `npm run bench` runs them. Adding one: create
// bench/scenarios/NAME.ts exporting a default `Scenario` (see types.ts and the existing ones),
// then add ONE line below. `npm run bench -- NAME` runs only that one.
import type { Scenario } from './types.js';

export const scenarios: Scenario[] = [
  (await import('./scenarios/regenerate.js')).default,
  (await import('./scenarios/read.js')).default,
  (await import('./scenarios/write.js')).default,
  (await import('./scenarios/updates.js')).default,
  (await import('./scenarios/publish.js')).default,
];
