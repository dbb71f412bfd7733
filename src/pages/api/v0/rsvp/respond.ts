// Endpoint 7: POST /api/v0/rsvp/respond — the answer to a match invitation, identified by its token.
import { otherMethods, writeEndpoint } from '../../../../http/endpoint.js';
import { jsonResponse } from '../../../../http/respond.js';
import { rsvpRespondSchema } from '../../../../rsvp/schema.js';
import { respondToInvitation } from '../../../../rsvp/service.js';

export const prerender = false;

export const POST = writeEndpoint('rsvp-respond', rsvpRespondSchema, ({ input, app, now }) =>
  jsonResponse(200, respondToInvitation(app.store, input.token, input.status, now)),
);

export const { OPTIONS, ALL } = otherMethods(['POST']);
