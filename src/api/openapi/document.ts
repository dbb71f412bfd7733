// The OpenAPI 3.1 document of /api/v0/, generated from the zod schemas the code validates and encodes with and
// the values of the contract. Rendered into ARTIFACTS_DIR by the regeneration job (served at /api/v0/openapi.json
// like the other reads), rendered as HTML by src/pages/docs.astro, and checked against every response of the
// HTTP tests (test/support/http.ts).
import { CORS_HEADERS, PREFLIGHT_ALLOW_HEADERS, PREFLIGHT_MAX_AGE_S } from '../../http/headers.js';
import { ID_PATTERN } from '../../vocabulary/ids.js';
import { HEADERS } from './headers.js';
import { preflight } from './operations.js';
import { PARAMETERS } from './parameters.js';
import { paths } from './paths.js';
import { FORM_PAGE_NOTE } from './operations.js';
import { problemOrPageResponses, problemResponses } from './problems.js';
import { DEFAULT_EXAMPLE_BASE, NO_STORE, READ_CACHE, responseRef, UNKNOWN_ROUTE_ALLOW } from './refs.js';
import { componentSchemas } from './schemas.js';
import type { OpenApiDocument } from './types.js';

export interface OpenApiOptions {
  /** The public base URL (PUBLIC_BASE_URL); without it the document names the host that serves it. */
  serverUrl?: string;
}

const DESCRIPTION = `The public interface of the competitions service: competitions, standings, brackets and calendars of every
organization on the platform, and the writes the public makes without an account (follow by email, RSVP, player registration).

- **JSON** is UTF-8, \`Content-Type: application/json; charset=utf-8\`. A field with no value is \`null\`, never left out.
  Identifiers match \`${ID_PATTERN.source}\`. Instants are RFC 3339 in UTC (\`2026-03-07T18:30:00Z\`); dates alone are \`YYYY-MM-DD\`.
  The list endpoints return bare arrays; an empty list is \`[]\`.
- **Caching.** Reads: \`Cache-Control: ${READ_CACHE}\`, a strong \`ETag\`, \`Last-Modified\`, and 304 answers to
  \`If-None-Match\` / \`If-Modified-Since\`. Writes and errors: \`Cache-Control: ${NO_STORE}\` (where a CDN serves the reads
  from a bucket, the 404 of an id not published yet may be cached a few seconds: a new competition's reads answer within a minute
  of its publication).
- **CORS.** Every response carries \`Access-Control-Allow-Origin: *\`, and browser code may read its
  \`${CORS_HEADERS['Access-Control-Expose-Headers']}\` headers. The API has no account: send no credentials (a
  browser gives a script no answer to \`fetch(url, { credentials: 'include' })\`, which \`*\` does not allow). \`OPTIONS\` on any path answers a preflight
  (204) allowing that path's methods and the request headers \`${PREFLIGHT_ALLOW_HEADERS}\`, for ${PREFLIGHT_MAX_AGE_S / 3600} hours.
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
      responses: { ...problemResponses(), ...problemOrPageResponses(FORM_PAGE_NOTE) },
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
