// Every problem type the service answers with, in one table: its status, the slug of its `/docs#problem-<slug>`
// section (the problem's `type`), its fixed title, the name of its response in the OpenAPI document, when it
// happens, and an example detail. The responses (problem.ts), the API document and /docs all read it.
import { MAX_BODY_BYTES } from './limits.js';

export interface ProblemKind {
  status: number;
  slug: string;
  title: string;
  /** The OpenAPI response component. */
  name: string;
  when: string;
  example: string;
  exampleErrors?: { field: string; message: string }[];
}

/** The detail of every 500: nothing internal, one text wherever the failure happened. */
export const INTERNAL_ERROR_DETAIL = 'The server could not answer this request.';
/** A database failure the operator fixes (src/http/request-failure.ts): the same request will do later. */
export const UNAVAILABLE_DETAIL = 'The service cannot answer this right now, and nothing was recorded. Try again after Retry-After seconds.';

export const PROBLEM_KINDS: readonly ProblemKind[] = [
  {
    status: 400,
    slug: 'malformed-body',
    title: 'Request body cannot be parsed',
    name: 'MalformedBody',
    when:
      "The request body cannot be parsed: malformed JSON, text that is not UTF-8 (raw bytes, a form's percent-escapes, a multipart field, " +
      'a JSON `\\u` escape that is half a character), a JSON key twice in one object, a form (urlencoded or multipart) naming a field twice, ' +
      'a broken multipart body; ' +
      'or the request itself is malformed (bad framing, no `Host`, a request target that is neither a path nor an http URL).',
    example: 'The body is not valid JSON: Expected double-quoted property name in JSON at position 27.',
  },
  {
    status: 404,
    slug: 'not-found',
    title: 'Not found',
    name: 'NotFound',
    when: 'Unknown or private event, unknown match, unknown RSVP token, or unknown route.',
    example: 'No public event "no-such-event".',
  },
  {
    status: 405,
    slug: 'method-not-allowed',
    title: 'Method not allowed',
    name: 'MethodNotAllowed',
    when: 'The method is not one the path serves; `Allow` lists those it does.',
    example: 'POST is not allowed here; use GET.',
  },
  {
    status: 408,
    slug: 'request-timeout',
    title: 'Request timeout',
    name: 'RequestTimeout',
    when: 'The request did not arrive in time (its headers within 15 s, the whole of it within 30 s); the connection is closed.',
    example: 'The request could not be read.',
  },
  {
    status: 409,
    slug: 'conflict',
    title: 'Conflict',
    name: 'Conflict',
    when: 'An RSVP answer after the match kicked off, while it is postponed (until its new kickoff is set), or once it will not be played (it, or its competition, is cancelled).',
    example: 'Answers close when the match kicks off; this one can no longer change.',
  },
  {
    status: 413,
    slug: 'body-too-large',
    title: 'Request body too large',
    name: 'BodyTooLarge',
    when: `The request body is over ${MAX_BODY_BYTES / 1024} KiB.`,
    example: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`,
  },
  {
    status: 415,
    slug: 'unsupported-media-type',
    title: 'Unsupported content type',
    name: 'UnsupportedMediaType',
    when:
      'The body is not `application/json`, `application/x-www-form-urlencoded` or `multipart/form-data` (or the content type is missing), ' +
      'or it is compressed (a `Content-Encoding` other than `identity`: the answer says `Accept-Encoding: identity`).',
    example: 'Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data, not text/plain.',
  },
  {
    status: 417,
    slug: 'expectation-failed',
    title: 'Expectation failed',
    name: 'ExpectationFailed',
    when: 'The request has an `Expect` header other than `100-continue` (RFC 9110 10.1.1): nothing of it is done; the connection is closed.',
    example: 'This server meets no expectation but 100-continue: send the request without this Expect header.',
  },
  {
    status: 422,
    slug: 'validation-failed',
    title: 'Fields fail validation',
    name: 'ValidationFailed',
    when:
      'A field breaks its rules, or refers to something that does not fit (unknown `org_id`, a `league_id` or `division_id` of another organization, ' +
      'an `Idempotency-Key` reused for another body). `errors` lists each field.',
    example: 'Some fields need fixing.',
    exampleErrors: [
      { field: 'email', message: 'must be an email address' },
      { field: 'date_of_birth', message: 'is not a real date' },
    ],
  },
  {
    status: 429,
    slug: 'rate-limited',
    title: 'Too many requests',
    name: 'RateLimited',
    when:
      'Too many requests from one address to one route in a minute, or too many confirmation emails to one address in a day. ' +
      'Wait `Retry-After` seconds.',
    example: 'Too many requests from your address; try again later.',
  },
  {
    status: 431,
    slug: 'headers-too-large',
    title: 'Request header fields too large',
    name: 'HeadersTooLarge',
    when: "The request's headers are larger than the server reads (16 KiB in all); the connection is closed.",
    example: 'The request could not be read.',
  },
  {
    status: 500,
    slug: 'internal-error',
    title: 'Internal server error',
    name: 'InternalError',
    when: 'The server failed; nothing internal is in the body, and nothing was recorded unless said so.',
    example: INTERNAL_ERROR_DETAIL,
  },
  {
    status: 503,
    slug: 'unavailable',
    title: 'Service unavailable',
    name: 'Unavailable',
    when:
      'The first rendering of the reads has not finished yet (right after a fresh start), or the database cannot be used right now ' +
      '(its disk full, locked by another process, made read-only: the operator is told). Nothing was recorded; ' +
      'send the same request again after `Retry-After` seconds.',
    example: 'The event list has not been rendered yet.',
  },
];

const BY_STATUS = new Map(PROBLEM_KINDS.map((k) => [k.status, k]));

/** The kind of a status; any status without one of its own is reported as the 500 kind. */
export function problemKind(status: number): ProblemKind {
  return BY_STATUS.get(status) ?? BY_STATUS.get(500)!;
}
