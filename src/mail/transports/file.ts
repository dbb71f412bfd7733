// Development and test transport: each message becomes an .eml file (open it in any mail client).
// Files are written whole or not at all (temp file, fsync, rename), and their names sort by time.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { buildEml } from '../eml.js';
import { InvalidOutgoingEmailError } from '../headers.js';
import { MailDeliveryError, type MailMessage, type MailTransport } from '../transport.js';

export interface FileTransportOptions {
  /** Where the .eml files go (config MAIL_DIR); created when missing. */
  dir: string;
  now?: () => Date;
}

/** `20261121T224542Z-000123-follow-confirm.eml`: time of writing, outbox id, tag. */
export function emlFileName(date: Date, outboxId: number, tag?: string): string {
  const stamp = date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
  const safeTag = (tag ?? '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return `${stamp}-${String(outboxId).padStart(6, '0')}${safeTag ? `-${safeTag}` : ''}.eml`;
}

export function createFileTransport(options: FileTransportOptions): MailTransport {
  const now = options.now ?? (() => new Date());
  return {
    async send(msg: MailMessage): Promise<{ messageId: string }> {
      const date = now();
      let eml: string;
      try {
        eml = buildEml({ ...msg, date });
      } catch (err) {
        if (!(err instanceof InvalidOutgoingEmailError)) throw err;
        // The message itself is malformed (say, the recipient): no retry can fix it.
        throw new MailDeliveryError(err.message, { permanent: true, kind: 'invalid-message', cause: err });
      }
      const name = emlFileName(date, msg.outboxId, msg.tag);
      const target = path.join(options.dir, name);
      // A dot-name temp file in the same directory: the rename is atomic and watchers skip dotfiles.
      const temp = path.join(options.dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
      try {
        await fs.mkdir(options.dir, { recursive: true });
        // Its owner's only: a registration's notice carries the player's details, a follow's email its links.
        const handle = await fs.open(temp, 'wx', 0o600);
        try {
          await handle.writeFile(eml, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(temp, target);
      } catch (err) {
        await fs.rm(temp, { force: true }).catch(() => undefined);
        const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
        // A full disk or a permission problem can be fixed: retry later, keep the mail.
        throw new MailDeliveryError(`writing ${name} failed: ${code}`, { permanent: false, kind: `file-${code}`, cause: err, everyEmail: true });
      }
      return { messageId: name };
    },
  };
}
