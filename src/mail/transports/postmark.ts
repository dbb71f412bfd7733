// Production transport: the official `postmark` client (v5, fetch-based), sending one message per call.
import { Errors, Models, ServerClient } from 'postmark';
import { MailDeliveryError, type MailMessage, type MailSent, type MailTransport } from '../transport.js';
import { postmarkEndpoint } from './postmark-host.js';

export interface PostmarkTransportOptions {
  serverToken: string;
  /**
   * Config POSTMARK_API_HOST: a base URL (`http://127.0.0.1:8025`, `https://api.postmarkapp.com`) or a bare
   * host (`api.postmarkapp.com`, spoken over HTTPS). Default: Postmark's own API.
   */
  apiHost?: string | undefined;
  /** Per-request timeout, so a slow API never stalls the worker. Default 10 s. */
  timeoutMs?: number;
  /** Default 'outbound', Postmark's transactional stream: a confirmation, an invitation, a receipt, a notice. */
  messageStream?: string;
  /**
   * POSTMARK_BROADCAST_STREAM: the stream for bulk mail (BROADCAST_TAGS), which Postmark keeps off the transactional
   * stream; unset, everything goes to `messageStream`, as before.
   */
  broadcastStream?: string | undefined;
}

/** The tags of the bulk mail (src/updates/run.ts: `follow-${kind}`): followers' digests and alerts. */
export const BROADCAST_TAGS: ReadonlySet<string> = new Set(['follow-digest', 'follow-alert']);

/** The client's connection options from POSTMARK_API_HOST. */
export function postmarkClientOptions(apiHost: string | undefined, timeoutMs: number): Models.ClientOptions.Configuration {
  // The client takes its timeout in seconds (fractions work: it multiplies by 1000 into AbortSignal.timeout).
  const timeout = timeoutMs / 1000;
  if (!apiHost) return { timeout };
  const endpoint = postmarkEndpoint(apiHost);
  // The configuration refused such a value at start (config.ts): only a caller of its own gets here.
  if (!endpoint) throw new Error(`POSTMARK_API_HOST: cannot connect to ${JSON.stringify(apiHost)}`);
  return { ...endpoint, timeout };
}

export function createPostmarkTransport(options: PostmarkTransportOptions): MailTransport {
  const client = new ServerClient(options.serverToken, {
    ...postmarkClientOptions(options.apiHost, options.timeoutMs ?? 10_000),
    fetch: fetchWholeAnswer,
  });
  const messageStream = options.messageStream ?? 'outbound';
  const streamOf = (tag: string | undefined) => (options.broadcastStream && tag && BROADCAST_TAGS.has(tag) ? options.broadcastStream : messageStream);
  return {
    async send(msg: MailMessage): Promise<MailSent> {
      // What the client makes of a 2xx body: its JSON, `{}` when empty, the text itself when it is not JSON.
      let response: Partial<Models.MessageSendingResponse> | string;
      try {
        response = await client.sendEmail({
          From: msg.from,
          To: msg.to,
          Subject: msg.subject,
          TextBody: msg.text,
          HtmlBody: msg.html,
          Headers: postmarkHeaders(msg),
          ...(msg.replyTo ? { ReplyTo: msg.replyTo } : {}),
          ...(msg.tag ? { Tag: msg.tag } : {}),
          MessageStream: streamOf(msg.tag),
          // Tracking would rewrite our links through Postmark's domain and put secret tokens there too.
          TrackOpens: false,
          TrackLinks: Models.LinkTrackingOptions.None,
          // Lets bounce and delivery webhooks find the outbox row.
          Metadata: { outbox_id: String(msg.outboxId) },
        });
      } catch (err) {
        throw classifyPostmarkError(err);
      }
      return sentAnswer(response);
    },
  };
}

/**
 * What a 2xx answer of /email says. An ErrorCode other than 0 is Postmark refusing the email in a 2xx (retried, as
 * before). Any other answer without a MessageID (the body cut short, empty, not JSON) is still Postmark taking the
 * email: the 2xx says so, and the mail review found such an answer retried as `postmark-code-undefined`, every retry
 * another copy to the person, each with other working links. It is sent, its provider id unknown (the webhooks find
 * the row by the Metadata's outbox_id, not by it).
 */
export function sentAnswer(response: Partial<Models.MessageSendingResponse> | string | null | undefined): MailSent {
  const answer = typeof response === 'object' && response !== null ? response : {};
  if (typeof answer.ErrorCode === 'number' && answer.ErrorCode !== 0) {
    throw new MailDeliveryError(`postmark answered ErrorCode ${answer.ErrorCode}: ${answer.Message}`, {
      permanent: false,
      kind: `postmark-code-${answer.ErrorCode}`,
    });
  }
  if (typeof answer.MessageID === 'string' && answer.MessageID !== '') return { messageId: answer.MessageID };
  return { messageId: null, warning: 'postmark-2xx-unreadable' };
}

/**
 * fetch, with a 2xx answer's body read here: when it cannot be read to its end (the connection cut in it, the timeout
 * reached while it came), the client would reject with fetch's bare error (`terminated`), retried as a network
 * failure, though the 2xx already said Postmark took the email. Such a body reads as empty instead (sentAnswer).
 */
async function fetchWholeAnswer(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    // fetch says only "fetch failed", its cause (ECONNREFUSED, ENOTFOUND) in `cause`, which the client drops: an on-call
    // review's network failure named no host and no reason. Said in the message the client keeps.
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof code !== 'string') throw error;
    throw new TypeError(`${(error as Error).message}: ${code} ${hostOf(input)}`, { cause: error });
  }
  if (response.status < 200 || response.status > 299) return response;
  let body = '';
  try {
    body = await response.text();
  } catch {
    // Cut short: the status line was Postmark's answer.
  }
  // 204 and 205 may carry no body at all (the Response constructor refuses one).
  return new Response(body === '' ? null : body, { status: response.status, statusText: response.statusText });
}

function hostOf(input: RequestInfo | URL): string {
  try {
    return new URL(input instanceof Request ? input.url : String(input)).host;
  } catch {
    return '?';
  }
}

/**
 * The message's extra headers, then its Message-ID with `X-PM-KeepID: true`. The Message-ID is the outbox row's
 * (eml.ts messageIdFor), the same on every attempt: when Postmark took a message but its answer never came (a
 * timeout), the retry carries the Message-ID of the copy already on its way, which a receiver can recognise as the
 * same message. Postmark stamps its own Message-ID unless told to keep the sender's: `X-PM-KeepID` is its switch
 * (documented for SMTP; Postmark's official SwiftMailer transport sends it with the Message-ID through this API
 * too). Postmark's /email has no idempotency key, so this cannot stop the second copy leaving: delivery through
 * Postmark is at least once (README).
 */
export function postmarkHeaders(msg: Pick<MailMessage, 'headers' | 'messageId'>): Models.Header[] {
  return [
    ...Object.entries(msg.headers).map(([Name, Value]) => ({ Name, Value })),
    { Name: 'Message-ID', Value: `<${msg.messageId}>` },
    { Name: 'X-PM-KeepID', Value: 'true' },
  ];
}

// Postmark API error codes (https://postmarkapp.com/developer/api/overview#error-codes) that belong to the
// message, not to our setup: retrying the same message cannot succeed.
const PERMANENT_CODES = new Map<number, string>([
  [300, 'invalid email request'],
  [406, 'inactive recipient'],
]);

/**
 * Whether a permanent refusal is of the recipient's address, not of the message: 406 always (inactive recipient); 300
 * only when its message names a recipient field ("Invalid 'To' address: …"). 300 is any invalid request, a From or a
 * header of ours included, and a review of the change found such a bug would have ended follows and marked invitations
 * undeliverable, each address blamed for our message.
 */
function refusesAddress(code: number, message: string): boolean {
  return code === 406 || (code === 300 && /'(To|Cc|Bcc)'/i.test(message));
}

/**
 * Whether a 300 is about our From: Postmark answers "Invalid 'From' address: … is not a verified sender signature" for a
 * MAIL_FROM it will not send from. That is our setup, as 400 and 401 are, not the message's: taken for good, every email
 * queued while MAIL_FROM was wrong was lost, and fixing it sent none of them.
 */
const refusesFrom = (status: number, code: number, message: string) => status === 422 && code === 300 && /'From'/i.test(message);

/**
 * What the operator does about a refusal of our setup, said in the log line's kind: an on-call review met
 * `postmark-http-422-code-401` and nothing else for a sender signature not confirmed. Empty for the rest.
 */
export function setupAdvice(status: number, code: number, message: string): string {
  if (status === 401) return 'Postmark refused POSTMARK_SERVER_TOKEN: set the Server API token of the Postmark server';
  if (status !== 422) return '';
  if (/message ?stream/i.test(message)) {
    return "Postmark has no such message stream on this server: check POSTMARK_BROADCAST_STREAM (digests and alerts), or the server's outbound stream";
  }
  if (refusesFrom(status, code, message)) return "Postmark will not send from MAIL_FROM's address: make it a confirmed Sender Signature (or verify its domain) in Postmark, or change MAIL_FROM";
  switch (code) {
    case 400:
      return "MAIL_FROM's address is not a Sender Signature of the Postmark account: add it (or verify its domain) in Postmark, or change MAIL_FROM";
    case 401:
      return "MAIL_FROM's Sender Signature is not confirmed: confirm it from Postmark's email to that address, or change MAIL_FROM";
    case 405:
    case 413:
      return 'the Postmark account may not send now (out of credits, or sending paused or disabled): see its dashboard';
    case 412:
      return "the Postmark account is pending approval: until it is approved it sends only to addresses of MAIL_FROM's domain";
    default:
      return '';
  }
}

/**
 * HTTP 5xx, 429, network errors and timeouts are retryable. 422 with ErrorCode 406 (inactive recipient:
 * bounced, complained or unsubscribed) or 300 (invalid email request, e.g. a bad address) is permanent,
 * and so is 413 (the message is too large, and will stay so). Everything else, 401 (bad token), the
 * other 422 codes (unconfirmed sender signature, paused account, unknown message stream) and a 300 about our
 * From included, is a setup problem: retry with backoff rather than lose mail while someone fixes the configuration.
 */
export function classifyPostmarkError(err: unknown): MailDeliveryError {
  if (err instanceof Errors.PostmarkError) {
    const status = err.statusCode;
    const code = err.code;
    if (status === 0) {
      const timeout = /timeout|timed out|aborted/i.test(err.message);
      // fetchWholeAnswer's "fetch failed: ECONNREFUSED 127.0.0.1:8025": the reason and the host, in the log line too.
      const reason = /^fetch failed: (\S+ \S+)$/.exec(err.message)?.[1];
      const network = reason ? `postmark-network (${reason}: check the network and POSTMARK_API_HOST)` : 'postmark-network';
      return new MailDeliveryError(`postmark ${timeout ? 'timeout' : 'network error'}: ${err.message}`, {
        permanent: false,
        kind: timeout ? 'postmark-timeout' : network,
        cause: err,
        everyEmail: true,
      });
    }
    const fromRefused = refusesFrom(status, code, err.message);
    const permanent = (status === 422 && PERMANENT_CODES.has(code) && !fromRefused) || status === 413;
    // The log line says only the kind: a refused setup is the operator's to fix, so it names the setting (a review's
    // bad token logged "postmark-http-401-code-10" a hundred times, naming nothing).
    const advice = permanent ? '' : setupAdvice(status, code, err.message);
    const setting = advice ? ` (${advice})` : '';
    return new MailDeliveryError(`postmark HTTP ${status} ErrorCode ${code}: ${err.message}`, {
      permanent,
      kind: `postmark-http-${status}-code-${code}${setting}`,
      cause: err,
      addressRefused: status === 422 && refusesAddress(code, err.message),
      setupRefused: status === 401 || (status === 422 && !permanent),
      everyEmail: status === 429 || status >= 500,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new MailDeliveryError(`postmark client failed: ${message}`, { permanent: false, kind: 'postmark-client', cause: err });
}
