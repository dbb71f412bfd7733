// The transport the configuration asks for (MAIL_TRANSPORT): .eml files under MAIL_DIR, or Postmark.
import type { Config } from '../../config.js';
import { makeFolder } from '../../folders.js';
import type { MailTransport } from '../transport.js';
import { createFileTransport } from './file.js';
import { createPostmarkTransport } from './postmark.js';

export function createMailTransport(
  cfg: Pick<Config, 'mailTransport' | 'mailDir' | 'postmarkServerToken' | 'postmarkApiHost'> & Partial<Pick<Config, 'mailSendTimeoutS' | 'postmarkBroadcastStream'>>,
): MailTransport {
  if (cfg.mailTransport === 'postmark') {
    // config.ts already refuses MAIL_TRANSPORT=postmark without a token; this guards other callers.
    if (!cfg.postmarkServerToken) throw new Error('POSTMARK_SERVER_TOKEN is required for the postmark transport');
    return createPostmarkTransport({
      serverToken: cfg.postmarkServerToken,
      apiHost: cfg.postmarkApiHost,
      broadcastStream: cfg.postmarkBroadcastStream,
      timeoutMs: (cfg.mailSendTimeoutS ?? 10) * 1000,
    });
  }
  // Made now, so that a MAIL_DIR that cannot be a folder stops start-up naming it, instead of every email failing
  // and being retried for a day (src/folders.ts: made one level at a time, and written in once).
  makeFolder(cfg.mailDir, { name: 'MAIL_DIR', value: cfg.mailDir }, { writable: true });
  return createFileTransport({ dir: cfg.mailDir });
}
