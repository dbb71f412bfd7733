// The floor of GET /api/v0/rsvp/[matchId] for `npm run bench -- write`: node:http and better-sqlite3 and nothing
// else, running the same SQL on the same database file as the real server and answering the same response.
//
//   DATABASE_PATH=… PORT=… node --import tsx bench/reference/rsvp-summary-server.ts
//
// WHAT IT MIRRORS (re-read these when they change, and change this file with them):
//   src/db/connect.ts openSqlite (called): the same connection settings as the real server.
//   src/rsvp/service.ts rsvpSummary: the three statements Kysely compiles there, in the same order:
//     the match with its event's is_public (404 unless public), the last change (for Last-Modified), and the
//     counts grouped by the invited member's team and response (NULL = pending), in team order.
//   src/http/conditional.ts conditionalJson: 200, body {"match_id":…,"summary":{"yes","no","maybe","pending"},
//   "teams":[{"team_id","summary"}]},
//   CORS_HEADERS, Content-Type, Cache-Control READ_CACHE_CONTROL, nosniff, ETag (sha256 of the body, base64url,
//   27 characters, quoted), Last-Modified (whole seconds), Content-Length (as the node server answers it: src/server/
//   rsvp-summary.ts, outside Astro). 404 problem for an unknown match.
// LEFT OUT, on purpose: 304 answers to If-None-Match / If-Modified-Since (the load never sends them), HEAD, and
// the rate limiter.
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CORS_HEADERS, READ_CACHE_CONTROL } from '../../src/http/headers.js';
import { sendProblem } from '../../src/http/problem.js';
import { openDatabase, pragmas, serve } from './serve.js';

const db = openDatabase();
const sql = {
  match: db.prepare(
    `select "m"."id", "m"."event_id", "m"."kickoff_at", "m"."status", "m"."updated_at", "e"."is_public" from "matches" as "m" inner join "events" as "e" on "e"."id" = "m"."event_id" where "m"."id" = ?`,
  ),
  lastChange: db.prepare(`select max(coalesce("responded_at", "created_at")) as "at" from "rsvp_invitations" where "match_id" = ?`),
  counts: db.prepare(
    `select "tm"."team_id", "i"."response", count(*) as "n" from "rsvp_invitations" as "i" inner join "team_members" as "tm" on "tm"."id" = "i"."member_id" where "i"."match_id" = ? group by "tm"."team_id", "i"."response" order by "tm"."team_id"`,
  ),
};

const PREFIX = '/api/v0/rsvp/';

function handle(req: IncomingMessage, res: ServerResponse): void {
  const pathname = req.url?.split('?')[0] ?? '';
  let matchId = '';
  try {
    matchId = req.method === 'GET' && pathname.startsWith(PREFIX) ? decodeURIComponent(pathname.slice(PREFIX.length)) : '';
  } catch {
    /* a malformed escape: no such match */
  }
  const match = matchId ? (sql.match.get(matchId) as { id: string; updated_at: string; is_public: number } | undefined) : undefined;
  if (!match || match.is_public !== 1) return sendProblem(res, 404, `No match "${matchId}".`, { headers: CORS_HEADERS });
  const last = sql.lastChange.get(match.id) as { at: string | null } | undefined;
  const summary = { yes: 0, no: 0, maybe: 0, pending: 0 };
  const teams: Array<{ team_id: string; summary: typeof summary }> = [];
  for (const r of sql.counts.all(match.id) as Array<{ team_id: string; response: 'yes' | 'no' | 'maybe' | null; n: number }>) {
    if (teams.at(-1)?.team_id !== r.team_id) teams.push({ team_id: r.team_id, summary: { yes: 0, no: 0, maybe: 0, pending: 0 } });
    summary[r.response ?? 'pending'] += r.n;
    teams.at(-1)!.summary[r.response ?? 'pending'] += r.n;
  }

  const body = JSON.stringify({ match_id: match.id, summary, teams });
  const lastModified = last?.at ?? match.updated_at;
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': READ_CACHE_CONTROL,
    'X-Content-Type-Options': 'nosniff',
    ETag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
  if (lastModified) headers['Last-Modified'] = new Date(Math.floor(Date.parse(lastModified) / 1000) * 1000).toUTCString();
  headers['Content-Length'] = String(Buffer.byteLength(body));
  res.writeHead(200, headers);
  res.end(body);
}

serve('reference rsvp summary', pragmas(db), handle);
