// The human pages that read a request (the RSVP page, follow confirm and unsubscribe) go through the same gate as
// the API routes they mirror: the same rate limiter and key, the same body reader with its 16 KiB limit. A page
// that is refused answers with the status the API would give, as a page.
import type { APIContext } from 'astro';
import { readBody } from './body.js';
import { takeRate } from './rate-check.js';

export type PageGate =
  | { ok: true; fields: Record<string, unknown> }
  | { ok: false; status: number; headers: Record<string, string>; reason: 'rate-limited' | 'body' };

type PageContext = Pick<APIContext, 'request' | 'locals'> & { response: { status: number; headers: Headers } };

/**
 * A GET counts against the reads limit under `readRoute`; a POST against the writes limit under `writeRoute`
 * (the API route it mirrors, so the page and the API share one allowance) and has its form read. A refused
 * request gets its status and headers (Retry-After, RateLimit) on the page's response here.
 *
 * A POST with a recognised credential (`postCredential`) is counted per credential, not per client: RFC 8058
 * one-click unsubscribes are POSTed by mailbox providers' servers, thousands of people behind one address, and
 * refusing the 21st of them in a minute left that person subscribed. Only a token the database knows earns this;
 * a malformed or unknown one still counts against the client's address, so guessing stays as slow as any write.
 */
export async function gatePageRequest(
  ctx: PageContext,
  routes: {
    readRoute: string;
    writeRoute: string;
    /** The page acts on its URL alone: a body of a type it cannot read (left unread) is no reason to refuse. */
    bodyOptional?: boolean;
    /**
     * For a POST that carries a credential the page recognises (the one-click unsubscribe's token, known to the
     * database): what the writes limit counts it by instead of the client's address, e.g. `follow:<id>`. Undefined
     * (no credential, a malformed or unknown one): the client's address, as any write.
     */
    postCredential?: () => string | undefined;
  },
): Promise<PageGate> {
  const { app, clientAddress } = ctx.locals;
  const post = ctx.request.method === 'POST';
  const rate = post
    ? takeRate(app.limits.writes, routes.writeRoute, (routes.postCredential && routes.postCredential()) ?? clientAddress)
    : takeRate(app.limits.reads, routes.readRoute, clientAddress);
  if (!rate.allowed) return refuse(ctx, { ok: false, status: 429, headers: rate.headers, reason: 'rate-limited' });
  if (!post) return { ok: true, fields: {} };
  const body = await readBody(ctx.request);
  if (!body.ok && body.status === 415 && routes.bodyOptional) return { ok: true, fields: {} };
  if (!body.ok) return refuse(ctx, { ok: false, status: body.status, headers: body.headers ?? {}, reason: 'body' });
  return { ok: true, fields: body.fields };
}

function refuse(ctx: PageContext, gate: PageGate & { ok: false }): PageGate {
  ctx.response.status = gate.status;
  for (const [name, value] of Object.entries(gate.headers)) ctx.response.headers.set(name, value);
  return gate;
}
