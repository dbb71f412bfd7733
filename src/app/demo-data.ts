// The demo data npm start loads into an empty database, so that a first `npm start` shows something: only where
// nothing real can see it. An operator's first start with its bucket configured loaded the demo, published it to the
// CDN and claimed the bucket for that database (a review); an import changes only the organizations it lists, so the
// demo's would have stayed public for good.
import path from 'node:path';
import type { Config } from '../config.js';

export const DEMO_FILE = path.resolve(import.meta.dirname, '../../data/demo.json');

/** Why the demo is not loaded into an empty database with these settings, or null to load it. */
export function demoRefusal(cfg: Pick<Config, 'loadDemo' | 'publishS3' | 'mailTransport'>): string | null {
  if (cfg.loadDemo === 'yes') return null;
  if (cfg.loadDemo === 'no') return 'LOAD_DEMO=no';
  if (cfg.publishS3 !== null) return 'PUBLISH_S3_BUCKET is set: the demo would be published to it';
  if (cfg.mailTransport === 'postmark') return 'MAIL_TRANSPORT=postmark: a real deployment';
  return null;
}
