// The shape every API endpoint shares, so endpoint files stay thin: rate limit → body → zod → service →
// response, with domain errors mapped to problem details here and nowhere else. The application (database,
// limiters, clock) comes with the request, in `locals.app`, from the composition root.
import type { APIContext, APIRoute } from 'astro';
import { z } from 'zod';
import type { Application } from '../app/application.js';
import { ConflictError, InvalidFieldsError, NotFoundError, RateLimitedError } from '../errors.js';
import { answerAsPage, fieldsOfUnreadForm, isFormNavigation, siteOfForm, type FormRoute } from '../forms/answer-page.js';
import { fieldMessage } from '../forms/field-messages.js';
import type { Language } from '../vocabulary/language.js';
import { chooseLanguage } from './accept.js';
import { readBody } from './body.js';
import { preflightHeaders } from './headers.js';
import { failedRequest, fieldsDetail, methodNotAllowed, problemResponse, type FieldError } from './problem.js';
import { takeRate, type RateCheck } from './rate-check.js';

export interface HandlerInput<T> {
  input: T;
  app: Application;
  request: Request;
  params: APIContext['params'];
  /** The request's clock (the application's). */
  now: Date;
  /** Who is asking: the client address the node server determined (for per-client scopes such as idempotency keys). */
  client: string;
}

/** What an endpoint needs of Astro's context: the request, its route parameters and our locals. */
export type EndpointContext = Pick<APIContext, 'request' | 'params' | 'locals'>;

function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)',
    message: issue.message,
  }));
}

/**
 * The RateLimit headers of a 429 a service refused (the follow's cap per mailbox): the limit reached is the one
 * RateLimit reports, with nothing left until it resets, and its policy joins the client's. The client's own
 * `"writes";r=9` on that 429 told a client library it could try again at once.
 */
function refusedBy(error: RateLimitedError, rateHeaders: Record<string, string>): Record<string, string> {
  if (!error.policy) return rateHeaders;
  const { name, quota, windowS } = error.policy;
  const policy = `"${name}";q=${quota};w=${windowS}`;
  const clientPolicy = rateHeaders['RateLimit-Policy'];
  return {
    ...rateHeaders,
    'RateLimit-Policy': clientPolicy ? `${clientPolicy}, ${policy}` : policy,
    RateLimit: `"${name}";r=0;t=${error.retryAfterS}`,
  };
}

/** Maps what a service threw to a problem response; anything unknown is a failure (failedRequest: 503 or the one 500). */
export function errorResponse(error: unknown, request: Request, databasePath: string, rateHeaders: Record<string, string> = {}): Response {
  if (error instanceof InvalidFieldsError) {
    return problemResponse(422, fieldsDetail(error.errors.length), { errors: [...error.errors], headers: rateHeaders });
  }
  if (error instanceof NotFoundError) return problemResponse(404, error.message, { headers: rateHeaders });
  if (error instanceof ConflictError) return problemResponse(409, error.message, { headers: rateHeaders });
  if (error instanceof RateLimitedError) {
    return problemResponse(429, error.message, { headers: { ...refusedBy(error, rateHeaders), 'Retry-After': String(error.retryAfterS) } });
  }
  return failedRequest(error, `${request.method} ${new URL(request.url).pathname}`, databasePath);
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

function refused(check: RateCheck): Response {
  return problemResponse(429, 'Too many requests from your address; try again later.', { headers: check.headers });
}

/**
 * The organization a refused form names, for its page's language: a review's parent at an Arabic club, one of 21
 * registrations in a minute from one school's address, got the English-first page, the body never read. Only the
 * body's first 16 KiB are read, as for any post (a browser sends it whole anyway), and only `org_id` is kept; nothing
 * is validated against the schema and nothing is written.
 */
async function organizationOfRefused(request: Request): Promise<Record<string, unknown>> {
  const body = await readBody(request, { keepRaw: true }).catch(() => undefined);
  if (body?.ok) return typeof body.fields.org_id === 'string' ? { org_id: body.fields.org_id } : {};
  return fieldsOfUnreadForm(body?.raw, new URL(request.url).searchParams);
}

/** The time zone of the organization a body names, which its field messages' times are written in; undefined: none. */
function organizationTimeZone(app: Application, fields: Record<string, unknown>): string | undefined {
  if (typeof fields.org_id !== 'string') return undefined;
  return app.store.first(app.store.q.selectFrom('organizations').select('timezone').where('id', '=', fields.org_id.trim()))?.timezone;
}

/**
 * A script's 422 with its field messages in `language` (chooseLanguage: the request's Accept-Language), in the form
 * pages' words (src/forms/field-messages.ts), `title` and `detail` as they are: those are the developer's. An API
 * review's Arabic club could show a parent only English ("is required for a player under 18") from fetch(), while its
 * plain HTML form said it in Arabic. Any other answer goes as it is; a 422 in either language says
 * `Vary: Accept-Language`. `timeZone`: asked only when a message is translated.
 */
async function fieldMessagesIn(language: Language, response: Response, timeZone: () => string | undefined): Promise<Response> {
  if (response.status !== 422) return response;
  const headers = new Headers(response.headers);
  headers.set('Vary', 'Accept-Language');
  const init = { status: response.status, statusText: response.statusText, headers };
  const problem = language === 'ar' ? ((await response.clone().json().catch(() => null)) as { errors?: Array<{ field: string; message: string }> } | null) : null;
  if (!problem?.errors) return new Response(response.body, init);
  const zone = timeZone();
  const errors = problem.errors.map((e) => ({ ...e, message: fieldMessage(e.message, 'ar', zone).text }));
  return new Response(JSON.stringify({ ...problem, errors }), init);
}

/**
 * A POST endpoint with a body validated by `schema`. With `page`, an HTML form's post from a person's browser (not
 * a script: src/forms/answer-page.ts) gets the same answer drawn as a page.
 */
export function writeEndpoint<S extends z.ZodType>(
  route: string,
  schema: S,
  handle: (h: HandlerInput<z.output<S>>) => Response,
  options: {
    page?: FormRoute;
    /**
     * For a body the schema refused: the problems the service would also find in the fields it accepted, answered
     * in the same 422 (a form without script otherwise learns them one round at a time). A field the schema refused
     * is not named twice.
     */
    moreProblems?: (fields: Record<string, unknown>, app: Application, now: Date) => FieldError[];
  } = {},
): APIRoute {
  const { page, moreProblems } = options;
  // The fields the schema reads: a form may not name one twice; any other field it may repeat, ignored.
  const reads = schema instanceof z.ZodObject ? new Set(Object.keys(schema.shape)) : undefined;
  return async (ctx: EndpointContext) => {
    let fields: Record<string, unknown> = {};
    const asPage = page !== undefined && isFormNavigation(ctx.request);
    const answer = await answerJson(ctx, asPage, (read) => (fields = read));
    if (asPage) return answerAsPage(ctx.locals.app.store, page, answer, fields, { site: siteOfForm(ctx.request), now: ctx.locals.app.now() });
    return fieldMessagesIn(chooseLanguage(ctx.request.headers.get('Accept-Language')), answer, () => organizationTimeZone(ctx.locals.app, fields));
  };

  async function answerJson(ctx: EndpointContext, asPage: boolean, read: (fields: Record<string, unknown>) => void): Promise<Response> {
    const { app, clientAddress } = ctx.locals;
    const rate = takeRate(app.limits.writes, route, clientAddress);
    if (!rate.allowed) {
      if (asPage) read(await organizationOfRefused(ctx.request));
      return refused(rate);
    }
    try {
      // A page keeps what it read of a body it refuses: the organization it names sets the page's language.
      const body = await readBody(ctx.request, { keepRaw: asPage, reads });
      if (!body.ok) {
        if (asPage) read(fieldsOfUnreadForm(body.raw, new URL(ctx.request.url).searchParams));
        return problemResponse(body.status, body.detail, { errors: body.errors, headers: { ...rate.headers, ...body.headers } });
      }
      read(body.fields);
      const parsed = schema.safeParse(body.fields);
      if (!parsed.success) {
        const refused = fieldErrors(parsed.error);
        const named = new Set(refused.map((e) => e.field));
        const more = moreProblems ? moreProblems(body.fields, app, app.now()).filter((e) => !named.has(e.field)) : [];
        const errors = [...refused, ...more];
        return problemResponse(422, fieldsDetail(errors.length), { errors, headers: rate.headers });
      }
      const now = app.now();
      // In the next shared commit (src/db/group-commit.ts): answered once that commit is on disk.
      const response = await app.commits.run(() =>
        handle({ input: parsed.data, app, request: ctx.request, params: ctx.params, now, client: clientAddress }),
      );
      return withHeaders(response, rate.headers);
    } catch (error) {
      return errorResponse(error, ctx.request, app.config.databasePath, rate.headers);
    }
  }
}

/**
 * OPTIONS (preflight) and every other method of a route. With `page`, a person's browser sent by a form without
 * method="post" (a GET navigation) gets the 405 as a page saying so, in the language of the organization its address
 * names (src/forms/answer-page.ts).
 */
export function otherMethods(allow: readonly string[], options: { page?: FormRoute } = {}): { OPTIONS: APIRoute; ALL: APIRoute } {
  const all = [...allow, 'OPTIONS'];
  return {
    OPTIONS: () => new Response(null, { status: 204, headers: preflightHeaders(all) }),
    ALL: async ({ request, locals }) => {
      const refusal = methodNotAllowed(request.method, all);
      const answer = problemResponse(refusal.status, refusal.detail, { headers: refusal.headers });
      // Only a form's GET carries its fields in the query: a person who opened the API's address gets the API's answer.
      if (options.page === undefined || request.method !== 'GET' || new URL(request.url).search === '' || !isFormNavigation(request)) return answer;
      return answerAsPage(locals.app.store, options.page, answer, fieldsOfUnreadForm(undefined, new URL(request.url).searchParams), { site: null, now: locals.app.now() });
    },
  };
}
