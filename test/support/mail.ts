// Reads the .eml files the file transport writes, with a real MIME parser.
import fs from 'node:fs';
import path from 'node:path';
import PostalMime from 'postal-mime';

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
