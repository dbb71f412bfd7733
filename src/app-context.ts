// Process-wide wiring for the Astro endpoints: configuration, the database and the rate limiters,
// created on first use.
import { config, type Config } from './config.js';
import { openSqlite } from './db/connect.js';
import { SyncDb } from './db/sync.js';
import { RateLimiter } from './http/rate-limit.js';

export interface AppContext {
  config: Config;
  store: SyncDb;
  limits: {
    writes: RateLimiter;
    reads: RateLimiter;
  };
}

let context: AppContext | undefined;

export function appContext(): AppContext {
  if (!context) {
    const cfg = config();
    context = {
      config: cfg,
      store: new SyncDb(openSqlite(cfg.databasePath)),
      limits: {
        writes: new RateLimiter('writes', cfg.rateLimitWritesPerMin, 60),
        reads: new RateLimiter('reads', cfg.rateLimitReadsPerMin, 60),
      },
    };
  }
  return context;
}
