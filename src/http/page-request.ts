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
 */
export async function gatePageRequest(
  ctx: PageContext,
  routes: {
    readRoute: string;
    writeRoute: string;
    /** The page acts on its URL alone: a body of a type it cannot read (left unread) is no reason to refuse. */
    bodyOptional?: boolean;
  },
): Promise<PageGate> {
  const { app, clientAddress } = ctx.locals;
  const post = ctx.request.method === 'POST';
  const rate = post
    ? takeRate(app.limits.writes, routes.writeRoute, clientAddress)
    : takeRate(app.limits.reads, routes.readRoute, clientAddress);
  if (!rate.allowed) return refuse(ctx, { ok: false, status: 429, headers: rate.headers, reason: 'rate-limited' });
  if (!post) return { ok: true, fields: {} };
  const body = await readBody(ctx.request);
  if (!body.ok && body.status === 415 && routes.bodyOptional) return { ok: true, fields: {} };
  if (!body.ok) return refuse(ctx, { ok: false, status: body.status, headers: {}, reason: 'body' });
  return { ok: true, fields: body.fields };
}

function refuse(ctx: PageContext, gate: PageGate & { ok: false }): PageGate {
  ctx.response.status = gate.status;
  for (const [name, value] of Object.entries(gate.headers)) ctx.response.headers.set(name, value);
  return gate;
}
