// Where the real results live, and the one way a real-data test decides to run. The files sit beside the
// repository (../shared/real-data from the project root), which a user's clone does not have: the tests then skip,
// saying which folder is missing. REAL_DATA_DIR points elsewhere.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenFootballFile } from './openfootball.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const dataDir = process.env.REAL_DATA_DIR ?? path.resolve(here, '../../../shared/real-data');

/** True when every file is there; otherwise warns (naming the folder and the files) so a skip is never silent. */
export function realDataAvailable(testName: string, files: readonly string[]): boolean {
  const missing = files.filter((f) => !fs.existsSync(path.join(dataDir, f)));
  if (missing.length === 0) return true;
  console.warn(
    `${testName}: skipped, the real-data folder ${dataDir} lacks ${missing.join(', ')} ` +
      '(it holds openfootball results beside the repository; set REAL_DATA_DIR to run these tests)',
  );
  return false;
}

export function readRealData<T = OpenFootballFile>(file: string): T {
  return JSON.parse(fs.readFileSync(path.join(dataDir, file), 'utf8')) as T;
}
