// Endpoint 4: POST /api/v0/follow — double opt-in follow of an organization or one of its leagues.
import { followRequestSchema } from '../../../follows/schema.js';
import { requestFollow } from '../../../follows/service.js';
import { otherMethods, writeEndpoint } from '../../../http/endpoint.js';
import { jsonResponse } from '../../../http/respond.js';

export const prerender = false;

export const POST = writeEndpoint(
  'follow',
  followRequestSchema,
  ({ input, app, now }) => jsonResponse(200, requestFollow(app.store, input, { now, emailsPerDay: app.config.followEmailsPerDay })),
  { page: 'follow' },
);

export const { OPTIONS, ALL } = otherMethods(['POST'], { page: 'follow' });
