// RFC 9457 problem details: the one error shape of /api/v0/, built here and nowhere else.
import type { ServerResponse } from 'node:http';
import { z } from 'zod';

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

/** Every problem type by status: its slug (the `/docs#problem-<slug>` anchor of `type`) and fixed title. */
export const PROBLEM_KINDS: Readonly<Record<number, { slug: string; title: string }>> = {
  400: { slug: 'malformed-body', title: 'Request body cannot be parsed' },
  404: { slug: 'not-found', title: 'Not found' },
  405: { slug: 'method-not-allowed', title: 'Method not allowed' },
  409: { slug: 'conflict', title: 'Conflict' },
  413: { slug: 'body-too-large', title: 'Request body too large' },
  415: { slug: 'unsupported-media-type', title: 'Unsupported content type' },
  422: { slug: 'validation-failed', title: 'Fields fail validation' },
  429: { slug: 'rate-limited', title: 'Too many requests' },
  500: { slug: 'internal-error', title: 'Internal server error' },
  503: { slug: 'unavailable', title: 'Service unavailable' },
};

/** Headers every error carries: readable from any origin, never cached, never sniffed. */
export const PROBLEM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'application/problem+json',
  'Cache-Control': 'no-store',
  'Access-Control-Allow-Origin': '*',
  'X-Content-Type-Options': 'nosniff',
});

export function problemBody(status: number, detail: string, errors?: FieldError[]): Problem {
  const kind = PROBLEM_KINDS[status] ?? PROBLEM_KINDS[500]!;
  const body: Problem = { type: `/docs#problem-${kind.slug}`, title: kind.title, status, detail };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}

/** A problem as a fetch Response (Astro endpoints). */
export function problemResponse(
  status: number,
  detail: string,
  options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(problemBody(status, detail, options.errors)), {
    status,
    headers: { ...PROBLEM_HEADERS, ...options.headers },
  });
}

/** A problem written to a node response (the artifact server). HEAD gets the headers only. */
export function sendProblem(
  res: ServerResponse,
  status: number,
  detail: string,
  options: { headers?: Record<string, string>; head?: boolean } = {},
): void {
  const body = JSON.stringify(problemBody(status, detail));
  res.writeHead(status, {
    ...PROBLEM_HEADERS,
    ...options.headers,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(options.head ? undefined : body);
}
