// The problem responses of the document (components.responses), one per kind of src/http/problem-kinds.ts, each
// narrowed to its own type, title and status, with an example.
import { PAGE_STATUSES } from '../../forms/answer-page.js';
import { PROBLEM_KINDS, type ProblemKind } from '../../http/problem-kinds.js';
import { problemBody } from '../../http/problem.js';
import { constant, headerRef, READ_ALLOW, schemaRef, uncachedHeaders, WRITE_ALLOW } from './refs.js';
import type { HeaderObject, JsonSchema, Ref, ResponseObject } from './types.js';

/** The documented problem types: status, slug (the `/docs#problem-<slug>` anchor), title, type, response name, when. */
export function problemTypes(): (ProblemKind & { type: string })[] {
  return PROBLEM_KINDS.map((kind) => ({ ...kind, type: `/docs#problem-${kind.slug}` }));
}

/** The response a status refers to, for the operations' `responses`. */
export function problemRef(status: number): Ref {
  const kind = PROBLEM_KINDS.find((k) => k.status === status);
  if (!kind) throw new Error(`openapi: no problem kind for ${status}`);
  return { $ref: `#/components/responses/${kind.name}` };
}

export function problemResponses(): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const p of problemTypes()) {
    const headers: Record<string, HeaderObject | Ref> = uncachedHeaders();
    if (p.status === 429 || p.status === 503) headers['Retry-After'] = headerRef('RetryAfter');
    if (p.status === 405) {
      headers.Allow = {
        description: 'The methods of this path (its `x-allow`).',
        required: true,
        schema: { type: 'string', enum: [READ_ALLOW, WRITE_ALLOW] },
      };
    }
    const narrowed: JsonSchema = {
      type: 'object',
      properties: { type: constant(p.type), title: constant(p.title), status: { type: 'integer', const: p.status } },
    };
    if (p.status === 422) narrowed.required = ['errors'];
    out[p.name] = {
      description: `${p.title}. ${p.when}`,
      headers,
      content: {
        'application/problem+json': {
          schema: { allOf: [schemaRef('Problem'), narrowed] },
          examples: { [p.slug]: { value: problemBody(p.status, p.example, p.exampleErrors) } },
        },
      },
    };
  }
  return out;
}

/**
 * The page a person's browser gets instead of the JSON, described in an extension rather than as a second media type
 * of `content`: an API review's client generated from the document typed every answer of follow and register as
 * `RegistrationResult | string`, though a script never gets the page.
 */
export const FORM_PAGE: NonNullable<ResponseObject['x-form-page']> = { contentType: 'text/html; charset=utf-8', schema: { type: 'string' } };

/** The problems an HTML form's post to follow or register is answered with as a page: answer-page.ts decides. */
const FORM_PAGE_STATUSES: readonly number[] = [...PAGE_STATUSES].filter((status) => status >= 400);
const OR_PAGE = 'OrPage';

/** The same problem as answered to an HTML form posted by a person's browser: a page beside the problem document. */
export function problemOrPageRef(status: number): Ref {
  const ref = problemRef(status);
  return FORM_PAGE_STATUSES.includes(status) ? { $ref: `${ref.$ref}${OR_PAGE}` } : ref;
}

/** The problem a response name stands for, with or without its page (ValidationFailedOrPage: ValidationFailed). */
export function problemName(responseName: string): string {
  return responseName.endsWith(OR_PAGE) ? responseName.slice(0, -OR_PAGE.length) : responseName;
}

/** The OrPage responses: each problem of FORM_PAGE_STATUSES, with the page (text/html) in its `x-form-page`. */
export function problemOrPageResponses(note: string): Record<string, ResponseObject> {
  const base = problemResponses();
  const out: Record<string, ResponseObject> = {};
  for (const kind of problemTypes().filter((k) => FORM_PAGE_STATUSES.includes(k.status))) {
    const problem = base[kind.name]!;
    out[`${kind.name}${OR_PAGE}`] = { ...problem, description: `${problem.description} ${note}`, 'x-form-page': FORM_PAGE };
  }
  return out;
}
