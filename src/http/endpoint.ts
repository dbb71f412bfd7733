// The shape every API endpoint shares, so endpoint files stay thin: rate limit → body → zod → service →
// response, with domain errors mapped to problem details here and nowhere else.
import type { APIContext, APIRoute } from 'astro';
import type { z } from 'zod';
import { appContext, type AppContext } from '../app-context.js';
import { ConflictError, InvalidFieldError, NotFoundError, RateLimitedError } from '../errors.js';
import { readBody } from './body.js';
import { preflightHeaders } from './cors.js';
import { problemResponse, type FieldError } from './problem.js';
import type { RateLimiter } from './rate-limit.js';

export interface HandlerInput<T> {
  input: T;
  app: AppContext;
  request: Request;
  params: APIContext['params'];
}

function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)',
    message: issue.message,
  }));
}

/** Maps what a service threw to a problem response; anything unknown is logged and becomes a bare 500. */
export function errorResponse(error: unknown, rateHeaders: Record<string, string> = {}): Response {
  if (error instanceof InvalidFieldError) {
    return problemResponse(422, 'A field does not fit.', { errors: [{ field: error.field, message: error.message }], headers: rateHeaders });
  }
  if (error instanceof NotFoundError) return problemResponse(404, error.message, { headers: rateHeaders });
  if (error instanceof ConflictError) return problemResponse(409, error.message, { headers: rateHeaders });
  if (error instanceof RateLimitedError) {
    return problemResponse(429, error.message, { headers: { ...rateHeaders, 'Retry-After': String(error.retryAfterS) } });
  }
  console.error('request failed:', error);
  return problemResponse(500, 'The server could not answer this request. Nothing was recorded unless you were told so.');
}

function limit(limiter: RateLimiter, route: string, ctx: APIContext) {
  if (!limiter.enabled) return { response: null, headers: {} };
  // Set by our node server from the socket (and a trusted proxy's header): never Astro's clientAddress,
  // which believes any X-Forwarded-For.
  const address = ctx.locals.clientAddress ?? 'unknown';
  const decision = limiter.take(`${route} ${address}`);
  const headers = limiter.headers(decision);
  const response = decision.allowed ? null : problemResponse(429, 'Too many requests from your address; try again later.', { headers });
  return { response, headers };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

/** A POST endpoint with a body validated by `schema`. */
export function writeEndpoint<S extends z.ZodType>(
  route: string,
  schema: S,
  handle: (h: HandlerInput<z.output<S>>) => Response,
): APIRoute {
  return async (ctx) => {
    const app = appContext();
    const rate = limit(app.limits.writes, route, ctx);
    if (rate.response) return rate.response;
    try {
      const body = await readBody(ctx.request);
      if (!body.ok) return withHeaders(body.response, rate.headers);
      const parsed = schema.safeParse(body.fields);
      if (!parsed.success) {
        return problemResponse(422, 'Some fields need fixing.', { errors: fieldErrors(parsed.error), headers: rate.headers });
      }
      return withHeaders(handle({ input: parsed.data, app, request: ctx.request, params: ctx.params }), rate.headers);
    } catch (error) {
      return errorResponse(error, rate.headers);
    }
  };
}

/** A GET endpoint answered from the database (the RSVP summary: the one dynamic read). */
export function readEndpoint(route: string, handle: (h: HandlerInput<undefined>) => Response): APIRoute {
  return (ctx) => {
    const app = appContext();
    const rate = limit(app.limits.reads, route, ctx);
    if (rate.response) return rate.response;
    try {
      return withHeaders(handle({ input: undefined, app, request: ctx.request, params: ctx.params }), rate.headers);
    } catch (error) {
      return errorResponse(error, rate.headers);
    }
  };
}

/** OPTIONS (preflight) and every other method of a route. */
export function otherMethods(allow: readonly string[]): { OPTIONS: APIRoute; ALL: APIRoute } {
  const all = [...allow, 'OPTIONS'];
  return {
    OPTIONS: () => new Response(null, { status: 204, headers: preflightHeaders(all) }),
    ALL: ({ request }) =>
      problemResponse(405, `${request.method} is not allowed here; use ${allow.join(' or ')}.`, { headers: { Allow: all.join(', ') } }),
  };
}
