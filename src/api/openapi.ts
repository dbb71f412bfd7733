// The OpenAPI 3.1 document of /api/v0/, generated from the zod schemas the code validates and encodes with
// (request bodies: input side; response bodies: output side) and the values decided in shared/contract.md.
// Rendered into ARTIFACTS_DIR by the regeneration job (served at /api/v0/openapi.json like the other reads),
// rendered as HTML by src/pages/docs.astro, and checked against every response of the HTTP tests.
import { z } from 'zod';
import {
  publicBracketSchema,
  publicBracketSlotSchema,
  publicEventListSchema,
  publicEventSchema,
  publicStandingsRowSchema,
  publicStandingsSchema,
} from '../competitions/public-schemas.js';
import { followRequestSchema, followResponseSchema } from '../follows/schema.js';
import { MAX_BODY_BYTES } from '../http/body.js';
import { CORS_HEADERS } from '../http/cors.js';
import { fieldErrorSchema, PROBLEM_KINDS, problemBody, problemSchema } from '../http/problem.js';
import { ID_PATTERN } from '../vocabulary/ids.js';
import { registrationRequestSchema, registrationResponseSchema } from '../registrations/schema.js';
import { rsvpRespondResponseSchema, rsvpRespondSchema, rsvpSummarySchema } from '../rsvp/schema.js';
import * as ex from './examples.js';

// ---------------------------------------------------------------------------------------------------------
// The subset of OpenAPI 3.1 this document uses (also what src/api/docs-view.ts reads).

export type JsonSchema = { [keyword: string]: unknown };
export type Ref = { $ref: string };
export interface ExampleObject {
  summary?: string;
  description?: string;
  value: unknown;
}
export interface MediaTypeObject {
  schema: JsonSchema;
  examples?: Record<string, ExampleObject>;
}
export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Ref>;
  content?: Record<string, MediaTypeObject>;
}
export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  description?: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}
export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content: Record<string, MediaTypeObject>;
}
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
export interface OperationObject {
  operationId: string;
  tags?: string[];
  summary: string;
  description?: string;
  parameters?: (ParameterObject | Ref)[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | Ref>;
  'x-codeSamples'?: CodeSample[];
}
export const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'] as const;
export type Method = (typeof METHODS)[number];
export type PathItemObject = { summary?: string; description?: string; 'x-allow': string } & Partial<Record<Method, OperationObject>>;
export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, HeaderObject>;
  };
  /** Any path under /api/v0/ that `paths` does not list: 404; OPTIONS there is a preflight, so the browser gets to see the 404. */
  'x-unknown-route': { description: string; 'x-allow': string; responses: Record<string, Ref>; options: OperationObject };
}

export interface OpenApiOptions {
  /** The public base URL (PUBLIC_BASE_URL); without it the document names the host that serves it. */
  serverUrl?: string;
}

/** Where curl examples point when the document is built without a server URL (`npm start`). */
export const DEFAULT_EXAMPLE_BASE = 'http://localhost:4321';

// ---------------------------------------------------------------------------------------------------------
// Values decided in shared/contract.md, written here as the contract states them: the HTTP tests check the
// code against this document, so the code cannot quietly move away from the contract.

const READ_CACHE = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';
const NO_STORE = 'no-store';
const PREFLIGHT_CACHE = 'public, max-age=86400';
const ALLOW_HEADERS = 'Content-Type, Idempotency-Key';
const READ_ALLOW = 'GET, HEAD, OPTIONS';
const WRITE_ALLOW = 'POST, OPTIONS';
const UNKNOWN_ROUTE_ALLOW = 'GET, HEAD, POST, OPTIONS';

// ---------------------------------------------------------------------------------------------------------
// Schemas: zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1).

const schemaRef = (name: string): Ref => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string): Ref => ({ $ref: `#/components/responses/${name}` });
const parameterRef = (name: string): Ref => ({ $ref: `#/components/parameters/${name}` });
const headerRef = (name: string): Ref => ({ $ref: `#/components/headers/${name}` });

/** What the zod schemas cannot say: descriptions and formats of the request fields (spec 2.4, 2.6, 2.7). */
const REQUEST_FIELD_NOTES: Record<string, Record<string, JsonSchema>> = {
  FollowRequest: {
    org_id: { description: 'Organization to follow (`riverside-sfl`).' },
    league_id: { description: 'Follow only this league of the organization (`rsl-premier`); all of it when absent.' },
    email: { format: 'email', description: 'Address to subscribe; trimmed and lower-cased. A confirmation link is sent there.' },
  },
  RsvpRespondRequest: {
    token: { description: 'Token from the invite email (the `token` parameter of its link). Identifies the invitation.' },
    status: { description: 'The answer: `yes`, `no` or `maybe`. It can be changed until kickoff.' },
  },
  RegistrationRequest: {
    org_id: { description: 'Organization the player registers with (`amman-yfa`).' },
    division_id: { description: 'Division of that organization (`amm-reg-u12`).' },
    name: { description: 'Player name; no control characters.' },
    name_ar: { description: 'Player name in Arabic.' },
    email: { format: 'email', description: 'Contact email; trimmed and lower-cased. A receipt is sent there.' },
    phone: { description: 'Phone number: digits, spaces, `+ ( ) . -`.' },
    date_of_birth: { format: 'date', description: 'Date of birth, `YYYY-MM-DD`: a real day between 1900-01-01 and today.' },
    guardian_name: { description: 'Guardian name (for a minor).' },
    guardian_phone: { description: "Guardian's phone number: digits, spaces, `+ ( ) . -`." },
    notes: { description: 'Free-text notes; line breaks allowed.' },
  },
};

/** Descriptions the write side's response schemas (src/follows, src/rsvp, src/registrations) leave out. */
const RESPONSE_FIELD_NOTES: Record<string, Record<string, string>> = {
  FollowResult: { status: '`confirm_email_sent`: a confirmation link was emailed (or was, minutes ago). `already_following`: confirmed before; nothing sent.' },
  RsvpSummary: { match_id: 'The match.', summary: 'Counts of the answers; `pending` counts invitations not answered yet.' },
  RsvpRespondResult: { match_id: 'The match of the invitation.', status: 'The answer recorded.', summary: 'The counts after this answer.' },
  RegistrationResult: { status: 'Always `submitted`.', id: 'Identifier of the registration request (named in the receipt email).' },
};

const BLANK_NOTE = 'Optional: an empty string (or `null` in JSON) counts as absent.';

function stripIds(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** Every component schema: responses from the encoders' and write endpoints' output side, requests from the input side. */
function componentSchemas(): Record<string, JsonSchema> {
  const responses = z.registry<{ id: string }>();
  responses.add(publicEventSchema, { id: 'Event' });
  responses.add(publicEventListSchema, { id: 'EventList' });
  responses.add(publicStandingsRowSchema, { id: 'StandingsRow' });
  responses.add(publicStandingsSchema, { id: 'Standings' });
  responses.add(publicBracketSlotSchema, { id: 'BracketSlot' });
  responses.add(publicBracketSchema, { id: 'Bracket' });
  responses.add(followResponseSchema, { id: 'FollowResult' });
  responses.add(rsvpSummarySchema, { id: 'RsvpSummary' });
  responses.add(rsvpRespondResponseSchema, { id: 'RsvpRespondResult' });
  responses.add(registrationResponseSchema, { id: 'RegistrationResult' });
  responses.add(problemSchema, { id: 'Problem' });
  responses.add(fieldErrorSchema, { id: 'FieldError' });
  const requests = z.registry<{ id: string }>();
  requests.add(followRequestSchema, { id: 'FollowRequest' });
  requests.add(rsvpRespondSchema, { id: 'RsvpRespondRequest' });
  requests.add(registrationRequestSchema, { id: 'RegistrationRequest' });

  const uri = (id: string) => `#/components/schemas/${id}`;
  const out = z.toJSONSchema(responses, { target: 'draft-2020-12', io: 'output', uri }).schemas;
  const in_ = z.toJSONSchema(requests, { target: 'draft-2020-12', io: 'input', uri }).schemas;

  const schemas: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(out)) {
    const s = stripIds(schema as JsonSchema);
    const properties = s.properties as Record<string, JsonSchema> | undefined;
    for (const [field, description] of Object.entries(RESPONSE_FIELD_NOTES[id] ?? {})) {
      if (!properties?.[field]) throw new Error(`openapi: ${id} has no field ${field}`);
      properties[field] = { ...properties[field], description };
    }
    schemas[id] = s;
  }
  for (const [id, schema] of Object.entries(in_)) {
    const s = stripIds(schema as JsonSchema);
    const properties = s.properties as Record<string, JsonSchema>;
    const required = new Set(s.required as string[]);
    for (const [field, notes] of Object.entries(REQUEST_FIELD_NOTES[id] ?? {})) {
      const property = properties[field];
      if (!property) throw new Error(`openapi: ${id} has no field ${field}`);
      const description = [notes.description, required.has(field) ? null : BLANK_NOTE].filter(Boolean).join(' ');
      properties[field] = { ...property, ...notes, description };
    }
    schemas[id] = {
      ...s,
      description: 'Strings are trimmed; unknown fields are ignored. Form bodies carry the same fields as text.',
    };
  }
  schemas.Calendar = {
    type: 'string',
    description:
      'An RFC 5545 iCalendar stream: CRLF line ends, lines folded at 75 octets, one VEVENT per match with a kickoff ' +
      '(UID stable forever, DTSTAMP, DTSTART/DTEND in UTC, SUMMARY, DESCRIPTION, LOCATION, SEQUENCE, STATUS).',
    pattern: '^BEGIN:VCALENDAR\\r\\n[\\s\\S]*\\r\\nEND:VCALENDAR\\r\\n$',
  };
  schemas.OpenApiDocument = {
    type: 'object',
    description: 'This document: OpenAPI 3.1.',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string', const: '3.1.0' } },
  };
  return schemas;
}

// ---------------------------------------------------------------------------------------------------------
// Headers and parameters.

const constant = (value: string): JsonSchema => ({ type: 'string', const: value });

const HEADERS: Record<string, HeaderObject> = {
  CacheControlRead: {
    description: 'Reads are cached for 60 s, then served stale while revalidating (10 min) or on error (1 day).',
    required: true,
    schema: constant(READ_CACHE),
  },
  CacheControlNoStore: { description: 'Writes and every error are never cached.', required: true, schema: constant(NO_STORE) },
  CacheControlPreflight: { description: 'Preflight answers may be cached for a day.', required: true, schema: constant(PREFLIGHT_CACHE) },
  ETag: {
    description: 'Strong validator of the bytes sent (each encoding has its own). Send it back in `If-None-Match`.',
    required: true,
    schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{27}"$' },
  },
  LastModified: {
    description: 'When the resource last changed (HTTP date). Send it back in `If-Modified-Since`.',
    required: true,
    schema: { type: 'string', pattern: '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$' },
  },
  Vary: { description: 'The body depends on `Accept-Encoding`.', required: true, schema: constant('Accept-Encoding') },
  ContentEncoding: {
    description: 'Present when a compressed variant is sent: brotli, else gzip, as `Accept-Encoding` allows.',
    schema: { type: 'string', enum: ['br', 'gzip'] },
  },
  ContentDisposition: {
    description: 'Names the file for calendar apps and browsers.',
    required: true,
    schema: { type: 'string', pattern: `^inline; filename="${ID_PATTERN.source.slice(1, -1)}\\.ics"$` },
  },
  AccessControlAllowOrigin: {
    description: 'Every response under /api/v0/, errors and preflights included, is readable from any origin.',
    required: true,
    schema: constant('*'),
  },
  AccessControlExposeHeaders: {
    description: 'Headers browser code may read.',
    schema: constant(CORS_HEADERS['Access-Control-Expose-Headers']!),
  },
  XContentTypeOptions: { description: 'Never sniffed.', required: true, schema: constant('nosniff') },
  AccessControlAllowHeaders: {
    description: 'Request headers a cross-origin request may send.',
    required: true,
    schema: constant(ALLOW_HEADERS),
  },
  AccessControlMaxAge: {
    description: 'Seconds a browser may cache this preflight.',
    required: true,
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  },
  RateLimit: {
    description:
      'Present when rate limits are on (writes and the RSVP summary): the policy name, requests left (`r`) and seconds until the window resets (`t`).',
    schema: { type: 'string', pattern: '^"(reads|writes)";r=[0-9]+;t=[0-9]+$' },
  },
  RateLimitPolicy: {
    description: 'Present when rate limits are on: the policy name, its quota (`q`) per window of `w` seconds.',
    schema: { type: 'string', pattern: '^"(reads|writes)";q=[0-9]+;w=[0-9]+$' },
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
  IdempotentReplayed: {
    description: 'Present (`true`) when this is the stored answer to an earlier request with the same `Idempotency-Key`.',
    schema: constant('true'),
  },
};

const PARAMETERS: Record<string, ParameterObject> = {
  eventId: {
    name: 'eventId',
    in: 'path',
    required: true,
    description: 'Identifier of a public competition (`event_id` of the event list). Anything else answers 404.',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    example: 'rsl-prem-2026-27',
  },
  matchId: {
    name: 'matchId',
    in: 'path',
    required: true,
    description: 'Identifier of a match of a public competition (`match_id` of the bracket). Anything else answers 404.',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    example: 'rsl-prem-r07-2',
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description: 'ETags from earlier responses (`*` matches any; `W/` prefixes are ignored): 304 when one still matches.',
    schema: { type: 'string' },
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    description: 'An HTTP date from `Last-Modified`: 304 when the resource has not changed since. Ignored with `If-None-Match`.',
    schema: { type: 'string' },
  },
  AcceptEncoding: {
    name: 'Accept-Encoding',
    in: 'header',
    description: 'Brotli (`br`) is sent when accepted, else gzip, else the identity bytes.',
    schema: { type: 'string' },
    example: 'br, gzip',
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes a retried submit return the first answer (with `Idempotent-Replayed: true`) instead of creating a second request. ' +
      'The same key with a different body: 422.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7E]{1,255}$' },
    example: '6f1c2a9e-3b7d-4c1a-9f0e-2d5b8a7c4e11',
  },
  AccessControlRequestMethod: {
    name: 'Access-Control-Request-Method',
    in: 'header',
    description: 'Sent by browsers in a preflight.',
    schema: { type: 'string' },
  },
  AccessControlRequestHeaders: {
    name: 'Access-Control-Request-Headers',
    in: 'header',
    description: 'Sent by browsers in a preflight.',
    schema: { type: 'string' },
  },
};

// ---------------------------------------------------------------------------------------------------------
// Problem responses (RFC 9457), one per problem type of src/http/problem.ts.

const PROBLEM_WHEN: Record<number, { name: string; when: string }> = {
  400: { name: 'MalformedBody', when: 'The request body cannot be parsed: malformed JSON, invalid UTF-8, a broken multipart body.' },
  404: { name: 'NotFound', when: 'Unknown or private event, unknown match, unknown RSVP token, or unknown route.' },
  405: { name: 'MethodNotAllowed', when: 'The method is not one the path serves; `Allow` lists those it does.' },
  409: { name: 'Conflict', when: 'An RSVP answer after the match kicked off (or once it will not be played).' },
  413: { name: 'BodyTooLarge', when: `The request body is over ${MAX_BODY_BYTES / 1024} KiB.` },
  415: {
    name: 'UnsupportedMediaType',
    when: 'The body is not `application/json`, `application/x-www-form-urlencoded` or `multipart/form-data` (or the content type is missing).',
  },
  422: {
    name: 'ValidationFailed',
    when:
      'A field breaks its rules, or refers to something that does not fit (unknown `org_id`, a `league_id` or `division_id` of another organization, ' +
      'an `Idempotency-Key` reused for another body). `errors` lists each field.',
  },
  429: {
    name: 'RateLimited',
    when:
      'Too many requests from one address to one route in a minute, or too many confirmation emails to one address in a day. ' +
      'Wait `Retry-After` seconds.',
  },
  500: { name: 'InternalError', when: 'The server failed; nothing internal is in the body, and nothing was recorded unless said so.' },
  503: { name: 'Unavailable', when: 'The first rendering of the reads has not finished yet (right after a fresh start). Wait `Retry-After` seconds.' },
};

const PROBLEM_EXAMPLES: Record<number, ReturnType<typeof problemBody>> = {
  400: problemBody(400, 'The body is not valid JSON: Expected double-quoted property name in JSON at position 27.'),
  404: problemBody(404, 'No public event "no-such-event".'),
  405: problemBody(405, 'POST is not allowed here; use GET.'),
  409: problemBody(409, 'Answers close when the match kicks off; this one can no longer change.'),
  413: problemBody(413, `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`),
  415: problemBody(415, 'Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data, not text/plain.'),
  422: problemBody(422, 'Some fields need fixing.', [
    { field: 'email', message: 'must be an email address' },
    { field: 'date_of_birth', message: 'is not a real date' },
  ]),
  429: problemBody(429, 'Too many requests from your address; try again later.'),
  500: problemBody(500, 'The server could not answer this request.'),
  503: problemBody(503, 'The event list has not been rendered yet.'),
};

/** The documented problem types: status, slug (the `/docs#problem-<slug>` anchor), title, response name, when. */
export function problemTypes() {
  return Object.entries(PROBLEM_WHEN).map(([status, doc]) => {
    const kind = PROBLEM_KINDS[Number(status)]!;
    return { status: Number(status), slug: kind.slug, title: kind.title, type: `/docs#problem-${kind.slug}`, ...doc };
  });
}

const errorHeaders = (): Record<string, HeaderObject | Ref> => ({
  'Cache-Control': headerRef('CacheControlNoStore'),
  'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': headerRef('AccessControlExposeHeaders'),
  'X-Content-Type-Options': headerRef('XContentTypeOptions'),
  RateLimit: headerRef('RateLimit'),
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
});

function problemResponses(): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const p of problemTypes()) {
    const headers = errorHeaders();
    if (p.status === 429 || p.status === 503) headers['Retry-After'] = headerRef('RetryAfter');
    if (p.status === 405) {
      headers.Allow = {
        description: "The methods of this path (its `x-allow`).",
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
          examples: { [p.slug]: { value: PROBLEM_EXAMPLES[p.status] } },
        },
      },
    };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Operations.

type ReadKind = 'artifact' | 'dynamic';

interface ReadSpec {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  kind: ReadKind;
  pathParameter?: 'eventId' | 'matchId';
  contentType: 'application/json' | 'text/calendar';
  schema: string;
  examples: Record<string, ExampleObject>;
  calendar?: boolean;
  errors: number[];
  curlPath: string;
}

function readResponse200(spec: ReadSpec, withBody: boolean): ResponseObject {
  const headers: Record<string, HeaderObject | Ref> = {
    'Cache-Control': headerRef('CacheControlRead'),
    ETag: headerRef('ETag'),
    'Last-Modified': headerRef('LastModified'),
    'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
    'Access-Control-Expose-Headers': headerRef('AccessControlExposeHeaders'),
    'X-Content-Type-Options': headerRef('XContentTypeOptions'),
  };
  if (spec.kind === 'artifact') {
    headers.Vary = headerRef('Vary');
    headers['Content-Encoding'] = headerRef('ContentEncoding');
  } else {
    headers.RateLimit = headerRef('RateLimit');
    headers['RateLimit-Policy'] = headerRef('RateLimitPolicy');
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
    'Last-Modified': headerRef('LastModified'),
    'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
  };
  if (spec.kind === 'artifact') headers.Vary = headerRef('Vary');
  return { description: 'Not modified: the `If-None-Match` or `If-Modified-Since` validator still holds. No body.', headers };
}

function preflight(allow: string, parameters: (ParameterObject | Ref)[], operationId: string): OperationObject {
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

const curl = (source: string): CodeSample[] => [{ lang: 'Shell', label: 'curl', source }];

function readPath(spec: ReadSpec, base: string): PathItemObject {
  const pathParameters = spec.pathParameter ? [parameterRef(spec.pathParameter)] : [];
  const conditional = [parameterRef('IfNoneMatch'), parameterRef('IfModifiedSince')];
  const parameters = [...pathParameters, ...conditional, ...(spec.kind === 'artifact' ? [parameterRef('AcceptEncoding')] : [])];
  // HEAD reuses the problem responses: the same status and headers, and (HEAD being HEAD) no body.
  const errors = Object.fromEntries([...spec.errors, 500].map((status) => [String(status), responseRef(PROBLEM_WHEN[status]!.name)]));
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

interface WriteSpec {
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
  curl: string;
}

function writePath(spec: WriteSpec): PathItemObject {
  const successHeaders: Record<string, HeaderObject | Ref> = {
    'Cache-Control': headerRef('CacheControlNoStore'),
    'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
    'Access-Control-Expose-Headers': headerRef('AccessControlExposeHeaders'),
    'X-Content-Type-Options': headerRef('XContentTypeOptions'),
    RateLimit: headerRef('RateLimit'),
    'RateLimit-Policy': headerRef('RateLimitPolicy'),
  };
  if (spec.idempotent) successHeaders['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
  const form: MediaTypeObject = { schema: schemaRef(spec.request) };
  const post: OperationObject = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    parameters: spec.idempotent ? [parameterRef('IdempotencyKey')] : [],
    requestBody: {
      required: true,
      description:
        `JSON (\`application/json\` or any \`application/*+json\`), or an HTML form (\`application/x-www-form-urlencoded\`, ` +
        `\`multipart/form-data\`; a field sent twice keeps its first value). At most ${MAX_BODY_BYTES / 1024} KiB.`,
      content: {
        'application/json': { schema: schemaRef(spec.request), examples: spec.requestExamples },
        'application/x-www-form-urlencoded': form,
        'multipart/form-data': form,
      },
    },
    responses: {
      [String(spec.success.status)]: {
        description: spec.success.description,
        headers: successHeaders,
        content: { 'application/json': { schema: schemaRef(spec.success.schema), examples: spec.success.examples } },
      },
      ...Object.fromEntries([...spec.errors, 500].map((s) => [String(s), responseRef(PROBLEM_WHEN[s]!.name)])),
    },
    'x-codeSamples': curl(spec.curl),
  };
  return {
    summary: spec.summary,
    'x-allow': WRITE_ALLOW,
    post,
    options: preflight(WRITE_ALLOW, [], `${spec.operationId}Preflight`),
  };
}

const BODY_ERRORS = [400, 413, 415, 422, 429];
const one = (value: unknown, summary?: string): Record<string, ExampleObject> => ({ demo: summary ? { summary, value } : { value } });

function paths(base: string): Record<string, PathItemObject> {
  const reads: ReadSpec[] = [
    {
      path: '/api/v0/events',
      operationId: 'listEvents',
      tag: 'Competitions',
      summary: 'List public competitions',
      description:
        'Every public competition of every organization (a private one never appears in any read), newest `starts_at` first, then `event_id`. A bare array.',
      kind: 'artifact',
      contentType: 'application/json',
      schema: 'EventList',
      examples: one(ex.EVENTS_EXAMPLE, 'Two of the demo competitions'),
      errors: [503],
      curlPath: '/api/v0/events',
    },
    {
      path: '/api/v0/events/{eventId}/standings',
      operationId: 'getStandings',
      tag: 'Competitions',
      summary: 'Standings of a competition',
      description:
        "Rows ordered by rank: points (the competition's win/draw/loss points, default 3/1/0), goal difference, goals for, " +
        'head-to-head among the clubs still tied, then club name. A hybrid competition has one table per group (`group_name`). ' +
        'A knockout-only competition gives `[]`.',
      kind: 'artifact',
      pathParameter: 'eventId',
      contentType: 'application/json',
      schema: 'Standings',
      examples: {
        league: { summary: 'A league: rsl-prem-2026-27', value: ex.STANDINGS_EXAMPLE },
        groups: { summary: 'A hybrid group stage: amm-u14-winter-cup-2026 (first rows)', value: ex.GROUP_STANDINGS_EXAMPLE },
      },
      errors: [404],
      curlPath: '/api/v0/events/rsl-prem-2026-27/standings',
    },
    {
      path: '/api/v0/events/{eventId}/bracket',
      operationId: 'getBracket',
      tag: 'Competitions',
      summary: 'Bracket of a competition',
      description:
        'Two slots per match, ordered by bracket_role, round_ordinal, match, side. A fed slot names its source match and outcome; ' +
        'its `team_id` is null until that match is decided. A league-only competition gives `[]`.',
      kind: 'artifact',
      pathParameter: 'eventId',
      contentType: 'application/json',
      schema: 'Bracket',
      examples: one(ex.BRACKET_EXAMPLE, 'The final of rsl-cup-2026, decided on penalties'),
      errors: [404],
      curlPath: '/api/v0/events/rsl-cup-2026/bracket',
    },
    {
      path: '/api/v0/calendar/{eventId}',
      operationId: 'getCalendar',
      tag: 'Calendar',
      summary: 'Calendar of a competition (iCalendar)',
      description:
        'An iCalendar feed any calendar application can subscribe to: one VEVENT per match with a kickoff (byes excepted). ' +
        'A postponed match is `STATUS:TENTATIVE`, a cancelled one `STATUS:CANCELLED`. The same data gives the same bytes.',
      kind: 'artifact',
      pathParameter: 'eventId',
      contentType: 'text/calendar',
      schema: 'Calendar',
      examples: one(ex.CALENDAR_EXAMPLE, 'rsl-prem-2026-27, its first match only'),
      calendar: true,
      errors: [404],
      curlPath: '/api/v0/calendar/rsl-prem-2026-27',
    },
    {
      path: '/api/v0/rsvp/{matchId}',
      operationId: 'getRsvpSummary',
      tag: 'RSVP',
      summary: 'RSVP counts of a match',
      description: 'Answers to the invitations of a match; `pending` counts invitations not answered yet. Cached like the other reads.',
      kind: 'dynamic',
      pathParameter: 'matchId',
      contentType: 'application/json',
      schema: 'RsvpSummary',
      examples: one(ex.RSVP_SUMMARY_EXAMPLE),
      errors: [404, 429],
      curlPath: '/api/v0/rsvp/rsl-prem-r07-2',
    },
    {
      path: '/api/v0/openapi.json',
      operationId: 'getOpenApiDocument',
      tag: 'Documentation',
      summary: 'This OpenAPI document',
      description: 'The OpenAPI 3.1 document of /api/v0/, served like the other reads. Rendered for people at `/docs`.',
      kind: 'artifact',
      contentType: 'application/json',
      schema: 'OpenApiDocument',
      examples: {},
      errors: [503],
      curlPath: '/api/v0/openapi.json',
    },
  ];
  const writes: WriteSpec[] = [
    {
      path: '/api/v0/follow',
      operationId: 'follow',
      tag: 'Follow',
      summary: 'Follow an organization by email',
      description:
        'Double opt-in. A new or still unconfirmed follow answers `confirm_email_sent` and queues one email whose link activates it ' +
        '(a second request within 10 minutes re-uses that email); a confirmed follow answers `already_following` and sends nothing. ' +
        'Every follow email has an unsubscribe link and RFC 8058 one-click `List-Unsubscribe`.',
      request: 'FollowRequest',
      requestExamples: one(ex.FOLLOW_REQUEST_EXAMPLE),
      success: {
        status: 200,
        description: 'The follow is pending (email sent) or already active.',
        schema: 'FollowResult',
        examples: {
          sent: { summary: 'A new or unconfirmed follow', value: { status: 'confirm_email_sent' } },
          following: { summary: 'Already confirmed', value: { status: 'already_following' } },
        },
      },
      errors: BODY_ERRORS,
      curl:
        `curl -s -X POST ${base}/api/v0/follow -H 'Content-Type: application/json' \\\n` +
        `  -d '${JSON.stringify(ex.FOLLOW_REQUEST_EXAMPLE)}'`,
    },
    {
      path: '/api/v0/rsvp/respond',
      operationId: 'respondToInvitation',
      tag: 'RSVP',
      summary: 'Answer a match invitation',
      description:
        'The invitation is identified by the token of its email, never by a path parameter. An answer can change until kickoff; ' +
        'after that: 409. An unknown token: 404.',
      request: 'RsvpRespondRequest',
      requestExamples: one(ex.RSVP_RESPOND_REQUEST_EXAMPLE),
      success: { status: 200, description: 'Recorded: the answer and the new counts.', schema: 'RsvpRespondResult', examples: one(ex.RSVP_RESPOND_RESULT_EXAMPLE) },
      errors: [400, 404, 409, 413, 415, 422, 429],
      curl:
        `curl -s -X POST ${base}/api/v0/rsvp/respond -H 'Content-Type: application/json' \\\n` +
        `  -d '${JSON.stringify(ex.RSVP_RESPOND_REQUEST_EXAMPLE)}'`,
    },
    {
      path: '/api/v0/register',
      operationId: 'register',
      tag: 'Registration',
      summary: 'Send a player registration request',
      description: 'No account needed. The organization gets the request; the contact email gets a receipt naming its `id`.',
      request: 'RegistrationRequest',
      requestExamples: one(ex.REGISTRATION_REQUEST_EXAMPLE),
      success: { status: 201, description: 'Submitted.', schema: 'RegistrationResult', examples: one(ex.REGISTRATION_RESULT_EXAMPLE) },
      errors: BODY_ERRORS,
      idempotent: true,
      curl:
        `curl -s -X POST ${base}/api/v0/register -H 'Content-Type: application/json' \\\n` +
        `  -H 'Idempotency-Key: ${PARAMETERS.IdempotencyKey!.example}' \\\n` +
        `  -d '${JSON.stringify(ex.REGISTRATION_REQUEST_EXAMPLE)}'`,
    },
  ];
  const out: Record<string, PathItemObject> = {};
  for (const spec of reads) out[spec.path] = readPath(spec, base);
  for (const spec of writes) out[spec.path] = writePath(spec);
  return out;
}

// ---------------------------------------------------------------------------------------------------------

const DESCRIPTION = `The public interface of the competitions service: competitions, standings, brackets and calendars of every
organization on the platform, and the writes the public makes without an account (follow by email, RSVP, player registration).

- **JSON** is UTF-8, \`Content-Type: application/json; charset=utf-8\`. A field with no value is \`null\`, never left out.
  Identifiers match \`${ID_PATTERN.source}\`. Instants are RFC 3339 in UTC (\`2026-03-07T18:30:00Z\`); dates alone are \`YYYY-MM-DD\`.
  The list endpoints return bare arrays; an empty list is \`[]\`.
- **Caching.** Reads: \`Cache-Control: ${READ_CACHE}\`, a strong \`ETag\`, \`Last-Modified\`, and 304 answers to
  \`If-None-Match\` / \`If-Modified-Since\`. Writes and errors: \`Cache-Control: ${NO_STORE}\`.
- **CORS.** Every response carries \`Access-Control-Allow-Origin: *\`; \`OPTIONS\` on any path answers a preflight (204).
- **Errors** are RFC 9457 problem details (\`application/problem+json\`); each \`type\` links to its section of \`/docs\`.
- **Rate limits** per client address and route on the writes and the RSVP summary, plus a daily cap of confirmation emails per
  address (defaults: 20 writes and 600 reads per minute, 3 emails a day; configuration). \`RateLimit\` / \`RateLimit-Policy\` tell the state.
- **Versioning.** The version is in the path; v0 may change as the platform evolves.`;

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const base = (options.serverUrl ?? DEFAULT_EXAMPLE_BASE).replace(/\/+$/, '');
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Competitions: public data service',
      version: '0',
      summary: 'Competitions, standings, brackets, calendars, follows, RSVPs and registrations of the platform, without an account.',
      description: DESCRIPTION,
    },
    servers: options.serverUrl
      ? [{ url: base, description: 'This service' }]
      : [{ url: '/', description: 'The host serving this document' }],
    tags: [
      { name: 'Competitions', description: 'Spec 2.1-2.3: the event list, standings and brackets. Static files, regenerated every minute.' },
      { name: 'Calendar', description: 'Spec 2.8: an iCalendar feed per competition.' },
      { name: 'Follow', description: 'Spec 2.4: email updates about an organization or one of its leagues.' },
      { name: 'RSVP', description: 'Spec 2.5-2.6: answers to match invitations.' },
      { name: 'Registration', description: 'Spec 2.7: player registration requests.' },
      { name: 'Documentation', description: 'This document.' },
      { name: 'CORS', description: 'Preflight answers.' },
    ],
    paths: paths(base),
    components: {
      schemas: componentSchemas(),
      responses: problemResponses(),
      parameters: PARAMETERS,
      headers: HEADERS,
    },
    'x-unknown-route': {
      description: 'Any other path under /api/v0/ answers 404 (any method); OPTIONS there answers a preflight, so a browser gets to see the 404.',
      'x-allow': UNKNOWN_ROUTE_ALLOW,
      responses: { '404': responseRef('NotFound') },
      options: preflight(UNKNOWN_ROUTE_ALLOW, [], 'unknownRoutePreflight'),
    },
  };
}
