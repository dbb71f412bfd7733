// Endpoint 8: POST /api/v0/register — a player registration request, no account needed.
import { checkIdempotencyKey } from '../../../db/idempotency.js';
import { otherMethods, writeEndpoint } from '../../../http/endpoint.js';
import { jsonResponse } from '../../../http/respond.js';
import { registrationRequestSchema } from '../../../registrations/schema.js';
import { problemsBesideRefused, submitRegistration } from '../../../registrations/service.js';

export const prerender = false;

export const POST = writeEndpoint('register', registrationRequestSchema, ({ input, app, request, client, now }) => {
  const idempotencyKey = checkIdempotencyKey(request.headers.get('idempotency-key'));
  const answer = submitRegistration(app.store, input, {
    idempotencyKey, client, now,
    receiptsPerDay: app.config.receiptsPerAddressPerDay,
    noticesPerDay: app.config.registrationNoticesPerAddressPerDay,
  });
  return jsonResponse(answer.status, answer.body, answer.replayed ? { 'Idempotent-Replayed': 'true' } : {});
}, { page: 'register', moreProblems: (fields, app, now) => problemsBesideRefused(app.store, fields, now) });

export const { OPTIONS, ALL } = otherMethods(['POST'], { page: 'register' });
