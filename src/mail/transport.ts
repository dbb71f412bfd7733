// The one seam between the outbox worker and whatever carries mail out (Postmark, .eml files).

/** A message ready to leave: everything a transport needs, nothing it has to look up. */
export interface MailMessage {
  /** The outbox row id: stable for the life of the message (file names, Message-ID, provider metadata). */
  outboxId: number;
  /** Without angle brackets, unique across installations and the same on every attempt (eml.ts messageIdFor). */
  messageId: string;
  /** `Name <address>` or a bare address. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Readonly<Record<string, string>>;
  /** Where a reply goes (one `local@domain`); absent: to the From. */
  replyTo?: string | undefined;
  tag?: string | undefined;
}

/** A message the provider took: its id there (null when its answer could not be read), and a note for the log. */
export interface MailSent {
  messageId: string | null;
  /** A short kind, safe to log like MailDeliveryError's: the provider took the message but something was odd. */
  warning?: string | undefined;
}

export interface MailTransport {
  /** Hands the message over; rejects with MailDeliveryError (anything else counts as retryable). */
  send(msg: MailMessage): Promise<MailSent>;
}

/**
 * A delivery that did not happen. `permanent` means retrying cannot help (the recipient is
 * inactive, the address is invalid): the worker marks the message failed at once. Anything else is
 * retried with backoff, configuration mistakes included, so a bad token never drops mail.
 *
 * `kind` is a short classification that is safe to log (no addresses, no bodies, no tokens);
 * `message` may quote the provider's answer and goes to the outbox row only.
 */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
  readonly permanent: boolean;
  readonly kind: string;
  /**
   * The provider refuses the address for good, as inactive there (bounced, complained, unsubscribed there) or as no
   * valid address: nothing sent to it will arrive. The outbox row says so (outbox.ts ADDRESS_REFUSED_PREFIX), for those
   * who must reach the person otherwise, and a follow to it ends (worker.ts).
   */
  readonly addressRefused: boolean;
  /** The provider refuses our setup (the token, the sender, the account), not this email: nothing sends until fixed. */
  readonly setupRefused: boolean;
  /**
   * No email can go now, whatever it says: our setup refused, the provider unreachable, failing (5xx) or asking us to
   * slow down (429), the mail folder not writable. The worker pauses its sending (worker.ts), where trying every email
   * queued would only fail each, each with its line.
   */
  readonly everyEmail: boolean;

  constructor(
    message: string,
    options: { permanent: boolean; kind: string; cause?: unknown; addressRefused?: boolean; setupRefused?: boolean; everyEmail?: boolean },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.permanent = options.permanent;
    this.kind = options.kind;
    this.addressRefused = options.addressRefused ?? false;
    this.setupRefused = options.setupRefused ?? false;
    this.everyEmail = !this.permanent && (this.setupRefused || (options.everyEmail ?? false));
  }
}

/** Any thrown value as a MailDeliveryError: unknown failures are retryable. */
export function toDeliveryError(err: unknown): MailDeliveryError {
  if (err instanceof MailDeliveryError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const kind = err instanceof Error ? `unexpected-${err.name}` : 'unexpected';
  return new MailDeliveryError(message || kind, { permanent: false, kind, cause: err });
}
