// The demo data npm start loads into an empty database, so that a first `npm start` shows something: only where
// nothing real can see it. An operator's first start with its bucket configured loaded the demo, published it to the
// CDN and claimed the bucket for that database (a review); an import changes only the organizations it lists, so the
// demo's would have stayed public for good.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

export const DEMO_FILE = path.resolve(import.meta.dirname, '../../data/demo.json');

/**
 * The demo's organizations a database holds beside an import of `imported` (none when the import is of the demo's own
 * organizations, or the database holds none of them), by id. A first-time organizer's review started the service as
 * the README's first line says, imported its league, and found the demo's three clubs public beside it, unsaid: an
 * import changes only the organizations it lists. Pure: `held` is every organization in the database.
 */
export function demoBeside(held: readonly string[], imported: readonly string[], demo: readonly string[]): string[] {
  const demoIds = new Set(demo);
  if (imported.every((id) => demoIds.has(id))) return [];
  const heldIds = new Set(held);
  return demo.filter((id) => heldIds.has(id) && !imported.includes(id));
}

/**
 * The ids of the demo's organizations (data/demo.json); none when the file cannot be read (removed, edited): the note
 * is a courtesy, read after the import has committed, and must not fail the command (a review).
 */
export function demoOrganizationIds(): string[] {
  try {
    const demo = JSON.parse(fs.readFileSync(DEMO_FILE, 'utf8')) as { organizations?: Array<{ id?: unknown }> };
    return (demo.organizations ?? []).map((o) => o.id).filter((id): id is string => typeof id === 'string');
  } catch {
    return [];
  }
}

/** The note an import adds when demoBeside finds some: what they are, and how to be rid of them. */
export function demoNote(ids: readonly string[]): string {
  return `this database also holds the demo's organizations (${ids.join(', ')}: data/demo.json, which npm start loads ` +
    'into an empty database), and their competitions are public beside yours: an import changes only the organizations it lists. ' +
    'To serve yours alone, start on a new DATABASE_PATH with LOAD_DEMO=no (or import your file before the first npm start)';
}

/** Why the demo is not loaded into an empty database with these settings, or null to load it. */
export function demoRefusal(cfg: Pick<Config, 'loadDemo' | 'publishS3' | 'mailTransport'>): string | null {
  if (cfg.loadDemo === 'yes') return null;
  if (cfg.loadDemo === 'no') return 'LOAD_DEMO=no';
  if (cfg.publishS3 !== null) return 'PUBLISH_S3_BUCKET is set: the demo would be published to it';
  if (cfg.mailTransport === 'postmark') return 'MAIL_TRANSPORT=postmark: a real deployment';
  return null;
}
