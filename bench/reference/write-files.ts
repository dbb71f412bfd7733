// The file-system share of a full regeneration for `npm run bench -- regenerate`: the files of a render written
// again, nothing else, the way the job writes them (src/publish/store.ts: each to a temporary file renamed over
// its name, then one flush of the file system), on one thread. Not the floor (that is compression on every core,
// bench/reference/compress-floor.ts): a figure printed beside it, because on these machines the kernel's time for
// 65,000 new files swings from run to run far more than any compression.
//
//   node --import tsx bench/reference/write-files.ts SOURCE_DIR TARGET_DIR
//
// Reads every file under SOURCE_DIR first, then times the writes into TARGET_DIR (created; it must not exist) and
// the flush. Prints one JSON line: files, bytes, writeMs, flushMs, userS, systemS (this process's CPU over both).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../src/publish/store.js';

export interface WriteFilesResult {
  files: number;
  bytes: number;
  writeMs: number;
  flushMs: number;
  userS: number;
  systemS: number;
}

function readAll(dir: string, rel = '', out: Array<[string, Buffer]> = []): Array<[string, Buffer]> {
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = path.join(rel, entry.name);
    if (entry.isDirectory()) readAll(dir, name, out);
    else if (entry.isFile()) out.push([name, fs.readFileSync(path.join(dir, name))]);
  }
  return out;
}

function main(source: string, target: string): WriteFilesResult {
  const files = readAll(source);
  if (fs.existsSync(target)) throw new Error(`${target} exists`);
  const cpu = process.resourceUsage();
  const started = performance.now();
  const made = new Set<string>();
  for (const [rel, bytes] of files) {
    const file = path.join(target, rel);
    const dir = path.dirname(file);
    if (!made.has(dir)) fs.mkdirSync(dir, { recursive: true });
    made.add(dir);
    writeFileAtomic(file, bytes, { durable: false, mkdir: false });
  }
  const written = performance.now();
  spawnSync('sync', ['-f', target], { stdio: 'ignore' });
  const flushed = performance.now();
  const after = process.resourceUsage();
  return {
    files: files.length,
    bytes: files.reduce((sum, [, b]) => sum + b.length, 0),
    writeMs: Math.round(written - started),
    flushMs: Math.round(flushed - written),
    userS: (after.userCPUTime - cpu.userCPUTime) / 1e6,
    systemS: (after.systemCPUTime - cpu.systemCPUTime) / 1e6,
  };
}

if (process.argv[2] && process.argv[3]) console.log(JSON.stringify(main(process.argv[2], process.argv[3])));
