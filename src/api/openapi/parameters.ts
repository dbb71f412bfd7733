// The parameters of the document (components.parameters): path ids, validators, encodings, the idempotency key.
import { ID_PATTERN } from '../../vocabulary/ids.js';
import type { ParameterObject } from './types.js';

export const PARAMETERS: Record<string, ParameterObject> = {
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
    description:
      'Identifier of a match of a public competition: a knockout match\'s `match_id` in the bracket; for every match, a ' +
      'league\'s and a group\'s too, the part of its `UID` before the first dot in the competition\'s calendar ' +
      '(`<match id>.<event id>@<domain>`), where an app finds the matches the JSON reads do not list. Anything else answers 404.',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    example: 'rsl-prem-r07-2',
  },
  teamId: {
    name: 'teamId',
    in: 'path',
    required: true,
    description: 'Identifier of a team with at least one match in a public competition. Anything else answers 404.',
    schema: { type: 'string', pattern: ID_PATTERN.source },
    example: 'rsl-rovers',
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
    description:
      'Brotli (`br`) or gzip, whichever has the higher weight (`q`), brotli on a tie; else the identity bytes. A body under 128 bytes (such as `[]`) is always sent as it is: compressed, it would be no smaller.',
    schema: { type: 'string' },
    example: 'br, gzip',
  },
  AcceptLanguage: {
    name: 'Accept-Language',
    in: 'header',
    description:
      'The language of a 422\'s field messages (`errors[].message`, written for the person filling the form): Arabic when ' +
      'the header weighs `ar` (or `ar-*`) above English, else English. `title` and `detail` stay English, for the developer; ' +
      'a message not yet said in Arabic stays English. An Arabic club\'s form sends `Accept-Language: ar` (no preflight needed).',
    schema: { type: 'string' },
    example: 'ar',
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes a retried submit return the first answer (with `Idempotent-Replayed: true`) instead of creating a second request. ' +
      'The same key and body get the first answer for 24 hours from any client address (a phone that retries from another ' +
      'network); after 24 hours the key starts over. A key is kept per client for anything else: the same key with a different ' +
      'body from the client that used it: 422; from another client: that client\'s own request. ' +
      'Without a key, the same body within an hour gets the first answer (a form posted twice). ' +
      'Make one key when the person starts filling the form (`crypto.randomUUID()`) and send it with every retry of that ' +
      'submit: a new key per attempt is a new registration each time, and a keyed and a keyless send of one body are two ' +
      '(an API review got three registrations that way). A 422 does not use the key up: correct the fields and send it again.',
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
