// How an operation of the document is built: a read (GET, HEAD, the preflight; cached, with validators) or a
// write (POST and its preflight; a JSON or form body; never cached). The catalogue of operations is paths.ts.
import { MAX_BODY_BYTES } from '../../http/limits.js';
import { FORM_PAGE, problemOrPageRef, problemRef } from './problems.js';
import { constant, headerRef, parameterRef, READ_ALLOW, schemaRef, uncachedHeaders, WRITE_ALLOW } from './refs.js';
import type { CodeSample, ExampleObject, HeaderObject, MediaTypeObject, OperationObject, ParameterObject, PathItemObject, Ref, ResponseObject } from './types.js';

export type ReadKind = 'artifact' | 'dynamic';

export interface ReadSpec {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  kind: ReadKind;
  pathParameter?: 'eventId' | 'matchId' | 'teamId';
  contentType: 'application/json' | 'text/calendar';
  schema: string;
  examples: Record<string, ExampleObject>;
  calendar?: boolean;
  errors: number[];
  curlPath: string;
}

/**
 * Last-Modified of a read: an artifact's is a validator; the RSVP summary's (dynamic) is for information only, since
 * it answers If-Modified-Since in full (src/server/rsvp-summary.ts).
 */
function lastModified(spec: ReadSpec): HeaderObject | Ref {
  if (spec.kind === 'artifact') return headerRef('LastModified');
  return {
    description: 'When the counts last changed (HTTP date), for information: revalidate with `If-None-Match`.',
    required: true,
    schema: { type: 'string' },
  };
}

function readResponse200(spec: ReadSpec, withBody: boolean): ResponseObject {
  const headers: Record<string, HeaderObject | Ref> = {
    'Cache-Control': headerRef('CacheControlRead'),
    ETag: headerRef('ETag'),
    'Last-Modified': lastModified(spec),
    'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
    'Access-Control-Expose-Headers': headerRef('AccessControlExposeHeaders'),
    'X-Content-Type-Options': headerRef('XContentTypeOptions'),
  };
  // A dynamic read is cached for everyone too: it carries no per-client RateLimit state (only its 429 does).
  if (spec.kind === 'artifact') {
    headers.Vary = headerRef('Vary');
    headers['Content-Encoding'] = headerRef('ContentEncoding');
  }
  if (spec.calendar) headers['Content-Disposition'] = headerRef('ContentDisposition');
  const charset = '; charset=utf-8';
  const response: ResponseObject = {
    description: withBody ? `\`Content-Type: ${spec.contentType}${charset}\`.` : 'The headers of the GET, no body.',
    headers,
  };
  if (withBody) response.content = { [spec.contentType]: { schema: schemaRef(spec.schema), examples: spec.examples } };
  return response;
}

function notModified(spec: ReadSpec): ResponseObject {
  const headers: Record<string, HeaderObject | Ref> = {
    'Cache-Control': headerRef('CacheControlRead'),
    ETag: headerRef('ETag'),
    'Last-Modified': lastModified(spec),
    'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
  };
  if (spec.kind === 'artifact') headers.Vary = headerRef('Vary');
  const validators = spec.kind === 'artifact' ? 'the `If-None-Match` or `If-Modified-Since` validator' : 'the `If-None-Match` validator';
  return { description: `Not modified: ${validators} still holds. No body.`, headers };
}

export function preflight(allow: string, parameters: (ParameterObject | Ref)[], operationId: string): OperationObject {
  return {
    operationId,
    tags: ['CORS'],
    summary: 'CORS preflight',
    description: 'What browsers ask before a cross-origin request. Any origin may call.',
    parameters: [...parameters, parameterRef('AccessControlRequestMethod'), parameterRef('AccessControlRequestHeaders')],
    responses: {
      '204': {
        description: 'The methods and request headers allowed from any origin.',
        headers: {
          'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
          'Access-Control-Allow-Methods': { description: 'Methods of this path.', required: true, schema: constant(allow) },
          'Access-Control-Allow-Headers': headerRef('AccessControlAllowHeaders'),
          'Access-Control-Max-Age': headerRef('AccessControlMaxAge'),
          Allow: { description: 'Methods of this path.', required: true, schema: constant(allow) },
          'Cache-Control': headerRef('CacheControlPreflight'),
        },
      },
    },
  };
}

/**
 * An operation's error statuses: its own, then what any request can meet (src/http/problem.ts failedRequest): the one
 * 500, and, for one that reads or writes the database (not a rendered file), a 503 while the operator has it to fix.
 */
const failureStatuses = (own: readonly number[], database = true): number[] =>
  [...new Set([...own, 500, ...(database ? [503] : [])])].sort((a, b) => a - b);

const curl = (source: string): CodeSample[] => [{ lang: 'Shell', label: 'curl', source }];

export function readPath(spec: ReadSpec, base: string): PathItemObject {
  const pathParameters = spec.pathParameter ? [parameterRef(spec.pathParameter)] : [];
  // The RSVP summary (dynamic) is revalidated by its ETag alone (src/server/rsvp-summary.ts).
  const conditional = [parameterRef('IfNoneMatch'), ...(spec.kind === 'artifact' ? [parameterRef('IfModifiedSince')] : [])];
  const parameters = [...pathParameters, ...conditional, ...(spec.kind === 'artifact' ? [parameterRef('AcceptEncoding')] : [])];
  // HEAD reuses the problem responses: the same status and headers, and (HEAD being HEAD) no body.
  const errors = Object.fromEntries(failureStatuses(spec.errors, spec.kind !== 'artifact').map((status) => [String(status), problemRef(status)]));
  const get: OperationObject = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    parameters,
    responses: { '200': readResponse200(spec, true), '304': notModified(spec), ...errors },
    'x-codeSamples': curl(`curl -s ${base}${spec.curlPath}`),
  };
  const head: OperationObject = {
    operationId: `${spec.operationId}Head`,
    tags: [spec.tag],
    summary: `${spec.summary} (headers only)`,
    description: 'The headers the GET would send, without the body. Problem responses carry no body either.',
    parameters,
    responses: { '200': readResponse200(spec, false), '304': notModified(spec), ...errors },
  };
  return {
    summary: spec.summary,
    'x-allow': READ_ALLOW,
    get,
    head,
    options: preflight(READ_ALLOW, pathParameters, `${spec.operationId}Preflight`),
  };
}

export interface WriteSpec {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  request: string;
  requestExamples: Record<string, ExampleObject>;
  success: { status: number; description: string; schema: string; examples: Record<string, ExampleObject> };
  errors: number[];
  idempotent?: boolean;
  /** An HTML form on another site posts here: a person's browser gets its success and its 422 as a page (FORM_PAGE). */
  formPage?: boolean;
  curl: string;
}

/**
 * The page a person's browser gets for an HTML form's post (src/forms/answer-page.ts), documented beside the JSON:
 * the same status, in the organization's language.
 */
export const FORM_PAGE_NOTE =
  'To follow and register, an HTML form posted by a person\'s browser (a navigation: `Sec-Fetch-Mode: navigate`, or, ' +
  'from a browser without it, `Accept` asking for `text/html` first) gets this answer as a page (`text/html`) in the ' +
  'organization\'s language, with the same status (described in the response\'s `x-form-page`, outside `content`: a client ' +
  'generated from this document sees the JSON alone); a script (`fetch`) gets the JSON. A form without `method="post"` (its ' +
  'browser navigates with a GET) gets the 405 as a page saying so; a failure of ours (500), a page in English and Arabic.';

export function writePath(spec: WriteSpec): PathItemObject {
  const successHeaders: Record<string, HeaderObject | Ref> = uncachedHeaders();
  if (spec.idempotent) successHeaders['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
  const form: MediaTypeObject = { schema: schemaRef(spec.request) };
  const post: OperationObject = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    parameters: [...(spec.idempotent ? [parameterRef('IdempotencyKey')] : []), parameterRef('AcceptLanguage')],
    requestBody: {
      required: true,
      description:
        `JSON (\`application/json\` or any \`application/*+json\`), or an HTML form (\`application/x-www-form-urlencoded\`, ` +
        `\`multipart/form-data\`). A field sent twice is refused with 400 naming it, in a form as in JSON (a key twice in one object). ` +
        `At most ${MAX_BODY_BYTES / 1024} KiB.`,
      content: {
        'application/json': { schema: schemaRef(spec.request), examples: spec.requestExamples },
        'application/x-www-form-urlencoded': form,
        'multipart/form-data': form,
      },
    },
    responses: {
      [String(spec.success.status)]: {
        description: spec.formPage ? `${spec.success.description} ${FORM_PAGE_NOTE}` : spec.success.description,
        headers: successHeaders,
        content: { 'application/json': { schema: schemaRef(spec.success.schema), examples: spec.success.examples } },
        ...(spec.formPage ? { 'x-form-page': FORM_PAGE } : {}),
      },
      ...Object.fromEntries(failureStatuses(spec.errors).map((s) => [String(s), spec.formPage ? problemOrPageRef(s) : problemRef(s)])),
    },
    'x-codeSamples': curl(spec.curl),
  };
  return {
    summary: spec.summary,
    'x-allow': WRITE_ALLOW,
    ...(spec.formPage ? { 'x-method-not-allowed': problemOrPageRef(405) } : {}),
    post,
    options: preflight(WRITE_ALLOW, [], `${spec.operationId}Preflight`),
  };
}
