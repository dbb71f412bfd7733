// Endpoint 6: GET /api/v0/rsvp/[matchId] — RSVP counts of a match, cached like the other reads.
import { otherMethods, readEndpoint } from '../../../../http/endpoint.js';
import { conditionalJson } from '../../../../http/conditional.js';
import { NotFoundError } from '../../../../errors.js';
import { rsvpSummary } from '../../../../rsvp/service.js';

export const prerender = false;

export const GET = readEndpoint('rsvp-summary', ({ app, params, request }) => {
  const matchId = params.matchId;
  if (!matchId) throw new NotFoundError('No match id.');
  const { summary, lastModified } = rsvpSummary(app.store, matchId);
  return conditionalJson(request, summary, lastModified);
});

export const HEAD = GET;
export const { OPTIONS, ALL } = otherMethods(['GET', 'HEAD']);
