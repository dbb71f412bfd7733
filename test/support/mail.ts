// Reads the .eml files the file transport writes, with a real MIME parser.
import fs from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';
import type { SyncDb } from '../../src/db/sync.js';
import type { SentEmail } from '../../src/mail/catalog.js';
import { composeEmail } from '../../src/mail/compose.js';

export interface ReceivedEmail {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export async function readEmails(dir: string): Promise<ReceivedEmail[]> {
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  const out: ReceivedEmail[] = [];
  for (const file of files) {
    const parsed = await PostalMime.parse(fs.readFileSync(path.join(dir, file)));
    out.push({
      file,
      to: parsed.to?.map((a) => a.address).join(', ') ?? '',
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: parsed.html ?? '',
      headers: Object.fromEntries(parsed.headers.map((h) => [h.key.toLowerCase(), h.value])),
    });
  }
  return out;
}

/** Waits until an email to `to` matching `predicate` appears (the outbox worker delivers within seconds). */
export async function waitForEmail(
  dir: string,
  to: string,
  predicate: (e: ReceivedEmail) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<ReceivedEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readEmails(dir)).filter((e) => e.to === to && predicate(e));
    if (found.length > 0) return found[found.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no email to ${to} in ${dir} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function linkIn(text: string, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]*${pathPrefix.replace(/[/?]/g, (c) => `\\${c}`)}[^\\s"'<>]*`).exec(text);
  if (!match) throw new Error(`no ${pathPrefix} link in:\n${text}`);
  return match[0];
}

/**
 * What the mail worker would send for every email still queued, rendered as it renders them (the links minted
 * then, their hashes stored): for service tests that need the links without a worker.
 */
export function composeQueued(
  store: SyncDb,
  { baseUrl = 'https://fixtures.example', now = new Date() }: { baseUrl?: string; now?: Date } = {},
): (SentEmail & { to: string; id: number })[] {
  const rows = store.all(store.q.selectFrom('email_outbox').selectAll().where('status', '=', 'pending').orderBy('id'));
  return rows.map((row) => {
    const email = composeEmail(store, row, { baseUrl, now });
    store.run(store.q.updateTable('email_outbox').set({ status: 'sent' }).where('id', '=', row.id));
    return { ...email, to: row.to_address, id: row.id };
  });
}

/** Every email the service wrote, once its outbox has nothing pending (the worker sends within seconds). */
export async function drainedEmails(db: import('better-sqlite3').Database, dir: string, timeoutMs = 20_000): Promise<ReceivedEmail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { n } = db.prepare(`SELECT count(*) AS n FROM email_outbox WHERE status = 'pending'`).get() as { n: number };
    if (n === 0) return readEmails(dir);
    if (Date.now() > deadline) throw new Error(`the outbox still has ${n} pending emails after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
