// Preloaded (`node --import tsx --import ./bench/report-rss.ts script.ts`) when /usr/bin/time is not
// installed: prints the process's own peak RSS and CPU time on exit, on stderr, for the bench to read.
import fs from 'node:fs';

process.on('exit', () => {
  // maxRSS is in kilobytes. writeSync: nothing asynchronous runs after 'exit'.
  const usage = process.resourceUsage();
  fs.writeSync(2, `\nBENCH_MAX_RSS_KB=${usage.maxRSS} BENCH_CPU_US=${usage.userCPUTime},${usage.systemCPUTime}\n`);
});
