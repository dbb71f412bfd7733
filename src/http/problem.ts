// RFC 9457 problem details: the one error shape of the service, as a fetch Response (Astro) or written to a
// node response (the artifact server, the node server's protocol errors). The kinds are in problem-kinds.ts.
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { API_HEADERS, NO_STORE, preflightHeaders } from './headers.js';
import { INTERNAL_ERROR_DETAIL, problemKind, UNAVAILABLE_DETAIL } from './problem-kinds.js';
import { logRequestFailure, retryAfterOf } from './request-failure.js';

export { INTERNAL_ERROR_DETAIL };

/** One field that failed validation (422). `field` is the request field's name, or `(body)`. */
export const fieldErrorSchema = z
  .object({
    field: z.string().min(1).meta({ description: 'Name of the field (`org_id`, `Idempotency-Key`), or `(body)` for the body as a whole.' }),
    message: z.string().min(1).meta({ description: 'What is wrong, written for the person filling the form.' }),
  })
  .meta({ description: 'A field that does not fit.' });

/** The body of every error under /api/v0/ (RFC 9457), as the OpenAPI document publishes it. */
export const problemSchema = z
  .object({
    type: z.string().meta({ format: 'uri-reference', description: 'The problem type: a link to its section of /docs (`/docs#problem-validation-failed`).' }),
    title: z.string().min(1).meta({ description: 'Short, fixed summary of the problem type.' }),
    status: z.number().int().min(400).max(599).meta({ description: 'The HTTP status code, repeated.' }),
    detail: z.string().min(1).meta({ description: 'What happened in this occurrence.' }),
    errors: z.array(fieldErrorSchema).min(1).optional().meta({ description: 'Present on 422: every field that failed, with its message.' }),
  })
  .meta({ description: 'RFC 9457 problem details.' });

export type FieldError = z.output<typeof fieldErrorSchema>;
export type Problem = z.output<typeof problemSchema>;

/** Headers every error carries: readable from any origin, never cached, never sniffed. */
export const PROBLEM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...API_HEADERS,
  'Content-Type': 'application/problem+json',
  'Cache-Control': NO_STORE,
});

export function problemBody(status: number, detail: string, errors?: FieldError[]): Problem {
  const kind = problemKind(status);
  const body: Problem = { type: `/docs#problem-${kind.slug}`, title: kind.title, status, detail };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}

export interface ProblemOptions {
  errors?: FieldError[];
  headers?: Record<string, string>;
}

/**
 * A 422's detail, however it was found (the request schema, or the service's rules): one wording, by how many fields
 * `errors` names (a review found "Some fields need fixing." from one layer and "Some fields do not fit." from the other).
 */
export const fieldsDetail = (count: number) => (count === 1 ? 'A field needs fixing.' : 'Some fields need fixing.');

/** A problem as a fetch Response (Astro endpoints and middleware). HEAD gets the headers only. */
export function problemResponse(status: number, detail: string, options: ProblemOptions & { head?: boolean } = {}): Response {
  return new Response(options.head ? null : JSON.stringify(problemBody(status, detail, options.errors)), {
    status,
    headers: { ...PROBLEM_HEADERS, ...options.headers },
  });
}

/** A problem written to a node response. HEAD gets the headers only. */
export function sendProblem(res: ServerResponse, status: number, detail: string, options: ProblemOptions & { head?: boolean } = {}): void {
  const body = JSON.stringify(problemBody(status, detail, options.errors));
  res.writeHead(status, { ...PROBLEM_HEADERS, ...options.headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(options.head ? undefined : body);
}

/** The one 405: what the route serves, in `Allow` and in words. */
export function methodNotAllowed(method: string, allow: readonly string[]): { status: 405; detail: string; headers: Record<string, string> } {
  const served = allow.filter((m) => m !== 'OPTIONS' && m !== 'HEAD');
  return {
    status: 405,
    detail: `${method} is not allowed here; use ${served.join(' or ')}.`,
    headers: { Allow: allow.join(', ') },
  };
}

/**
 * A read route the node server answers itself: the preflight (204) and every method but GET and HEAD (405) are
 * answered here; true when it answered, false when the request is a GET or HEAD for the route to serve.
 */
export function answerNonReadMethods(method: string | undefined, res: ServerResponse, allow: readonly string[]): boolean {
  if (method === 'OPTIONS') {
    res.writeHead(204, preflightHeaders(allow));
    res.end();
    return true;
  }
  if (method === 'GET' || method === 'HEAD') return false;
  const refusal = methodNotAllowed(method ?? '', allow);
  sendProblem(res, refusal.status, refusal.detail, { headers: refusal.headers });
  return true;
}

/**
 * The answer to a request that failed, logged first in one line with what is safe to log (src/http/request-failure.ts:
 * the operator's cause for a database failure theirs to fix, naming `databasePath`). Such a failure (a full disk, a lock
 * held by another process) is 503 with Retry-After: nothing was recorded and the same request will do once the operator
 * acts (a 500 says the server failed, and a client or a form's reader gives up).
 * Anything else is the one 500.
 */
export function failedRequest(error: unknown, where: string, databasePath: string): Response {
  logRequestFailure(error, where, databasePath);
  const failure = failureOf(error);
  return problemResponse(failure.status, failure.detail, { headers: failure.headers });
}

/** failedRequest for a node response (the node server's own routes). */
export function sendFailedRequest(res: ServerResponse, error: unknown, where: string, databasePath: string): void {
  logRequestFailure(error, where, databasePath);
  const failure = failureOf(error);
  sendProblem(res, failure.status, failure.detail, { headers: failure.headers });
}

function failureOf(error: unknown): { status: 500 | 503; detail: string; headers: Record<string, string> } {
  const retryAfterS = retryAfterOf(error);
  if (retryAfterS === undefined) return { status: 500, detail: INTERNAL_ERROR_DETAIL, headers: {} };
  return { status: 503, detail: UNAVAILABLE_DETAIL, headers: { 'Retry-After': String(retryAfterS) } };
}
