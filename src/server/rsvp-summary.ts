// GET /api/v0/rsvp/[matchId] (endpoint 6): the RSVP counts of a match, answered by the node server itself like the
// other reads, with the same validators (src/http/conditional.ts), headers, rate limit and problems. Not through
// Astro: a profile under wrk (32 connections) put most of a summary's time in Astro's per-request pipeline
// (request and context objects, middleware, the page module's dynamic import), against three indexed reads.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Application } from '../app/application.js';
import { NotFoundError } from '../errors.js';
import { nodeClientAddress } from '../http/client-address.js';
import { conditionalJson } from '../http/conditional.js';
import { answerNonReadMethods, sendProblem } from '../http/problem.js';
import { takeRate } from '../http/rate-check.js';
import { rsvpSummary } from '../rsvp/service.js';
import { ID_PATTERN, isReservedId } from '../vocabulary/ids.js';

/** The route, as src/pages/api/ would name it: the reserved ids test reads it. */
export const RSVP_SUMMARY_ROUTE = 'api/v0/rsvp/[matchId]';
const PATH = /^\/api\/v0\/rsvp\/([^/]+)$/;
const ALLOW = ['GET', 'HEAD', 'OPTIONS'];

export function rsvpSummaryHandler(app: Application) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const match = PATH.exec(q === -1 ? url : url.slice(0, q));
    if (!match) return false;
    let id: string;
    try {
      id = decodeURIComponent(match[1]!);
    } catch {
      id = '';
    }
    // /api/v0/rsvp/respond is the answer endpoint (Astro's): no match can be called that (RESERVED_IDS).
    if (isReservedId('match', id)) return false;
    if (answerNonReadMethods(req.method, res, ALLOW)) return true;
    const head = req.method === 'HEAD';
    const rate = takeRate(app.limits.reads, 'rsvp-summary', nodeClientAddress(req, app.config.trustProxy));
    if (!rate.allowed) {
      sendProblem(res, 429, 'Too many requests from your address; try again later.', { headers: rate.headers, head });
      return true;
    }
    let found;
    try {
      if (!ID_PATTERN.test(id)) throw new NotFoundError('No public match has this id.');
      found = rsvpSummary(app.store, id);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      sendProblem(res, 404, error.message, { head });
      return true;
    }
    // If-Modified-Since alone is not enough here: answers change the counts several times within the second that
    // Last-Modified can tell, and a withdrawn invitation changes them without a new answer. A review got 304 with
    // stale counts 5 times in 5. Only the ETag, which is of the counts themselves, revalidates.
    const answer = conditionalJson(
      { method: req.method ?? 'GET', ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: null },
      found.summary,
      found.lastModified,
      app.now().getTime(),
    );
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body ?? undefined);
    return true;
  };
}
