// Every operation of /api/v0/: the catalogue the document, /docs and the contract tests read.
import * as ex from '../examples.js';
import { RETIRED_CALENDAR_NAME } from '../../publish/retired-feeds.js';
import { readPath, writePath, type ReadSpec, type WriteSpec } from './operations.js';
import { PARAMETERS } from './parameters.js';
import type { ExampleObject, PathItemObject } from './types.js';

const BODY_ERRORS = [400, 413, 415, 422, 429];
const one = (value: unknown, summary?: string): Record<string, ExampleObject> => ({ demo: summary ? { summary, value } : { value } });

/** The same feed at its address with `.ics` added (people and calendar apps add it), documented as its own path. */
function icsAddress(feed: ReadSpec, what: string): ReadSpec {
  return {
    ...feed,
    path: `${feed.path}.ics`,
    operationId: `${feed.operationId}Ics`,
    summary: `Calendar of ${what}, as a .ics address`,
    description: `The same feed as \`${feed.path}\`, byte for byte: people and calendar apps add \`.ics\` to the address.`,
    examples: {},
    curlPath: `${feed.curlPath}.ics`,
  };
}

export function paths(base: string): Record<string, PathItemObject> {
  const reads: ReadSpec[] = [
    {
      path: '/api/v0/events',
      operationId: 'listEvents',
      tag: 'Competitions',
      summary: 'List public competitions',
      description:
        'Every public competition of every organization (a private one never appears in any read), newest `starts_at` first, then `event_id`. A bare array. ' +
        "Each names its organization (`org_id`, which following and registering take) and that organization's time zone (`timezone`), in which its people read the UTC kickoffs.",
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
        "Rows ordered by rank: points (the competition's win/draw/loss points, default 3/1/0, plus its point adjustments), then " +
        "the competition's tie-break order. By default: goal difference, goals for, head-to-head among the clubs still tied, then " +
        'club name; a competition may follow its regulation instead (FIFA World Cup, UEFA, Premier League, LaLiga, Serie A, ' +
        'Bundesliga: UEFA, LaLiga and Serie A look at the matches between the clubs level first), with its organizer\'s recorded ' +
        'decisions (lots, fair play, a play-off) for clubs nothing else separates. A competition with point adjustments (such as ' +
        'a deduction) gives every row its `adjustment_points`; without any, it is null. A hybrid competition has one table per group (`group_name`). ' +
        "Each row's `team_id` is the club's team: `/api/v0/teams/{teamId}/calendar` is its calendar. " +
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
        'Two slots per match, ordered by bracket_role, round_ordinal, match, side. A fed slot names its source match and outcome, ' +
        "or in a hybrid competition the place in a group's final table (`source_group`, `source_position`), or a slot among the " +
        'best-placed teams of several groups (`source_best_placed`, `source_slot`, `source_position`, `source_groups`: EURO 2020\'s ' +
        'four best third-placed teams); its `team_id` is null until that match, group or ranking across groups is decided. A two-legged tie is two matches whose slots carry `leg` (1, 2) and ' +
        '`first_leg_match_id`: the second leg decides the tie (aggregate, then away goals where the competition counts them, then ' +
        "its penalties), feeds name it, and both legs' slots carry the tie's winner. Each slot also carries its team's name (`team_name`, as " +
        "`club_name` gives it), the match's kickoff, and its side's `score` and `penalties` once recorded. A league-only competition gives `[]`.",
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
        'A postponed match is `STATUS:TENTATIVE`, a cancelled one `STATUS:CANCELLED`, and its SUMMARY begins "Postponed: " or ' +
        '"Cancelled: " (Outlook ignores STATUS); in a cancelled competition every match not completed is cancelled. ' +
        'A result says when it came after extra time; ' +
        'a leg of a two-legged tie says which leg it is, and a played second leg gives the aggregate. A slot not decided yet reads ' +
        '"Winner of Semi-final 1" or "Winner Group A". The same data gives the same bytes. ' +
        'A competition whose feed was published and is no longer public (made private, deleted) answers a calendar with no event, ' +
        `named "${RETIRED_CALENDAR_NAME}", so that subscribed apps clear its matches at their next poll (a 404 is "try again later" to them); ` +
        'public again, its matches come back under the same UIDs. 404 for an id never published.',
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
      path: '/api/v0/teams/{teamId}/calendar',
      operationId: 'getTeamCalendar',
      tag: 'Calendar',
      summary: 'Calendar of a team, across its competitions (iCalendar)',
      description:
        'Every match of the team in a public competition, in time order, each VEVENT exactly as in its competition\'s feed ' +
        '(the same UID and bytes, so the two never disagree; SEQUENCE, CANCELLED, folding and escaping alike; an app subscribed to both shows it in each calendar). ' +
        'A slot fed by an earlier match counts once that match decided the team. A team whose feed was published and has no ' +
        'public match left answers a calendar with no event, as a competition\'s does; 404 for a team never published. ' +
        'To offer it to a person: `webcal://` (calendar apps), ' +
        '`https://`, and Google Calendar\'s `https://calendar.google.com/calendar/render?cid=` + the webcal URL, encoded.',
      kind: 'artifact',
      pathParameter: 'teamId',
      contentType: 'text/calendar',
      schema: 'Calendar',
      examples: {},
      calendar: true,
      errors: [404],
      curlPath: '/api/v0/teams/rsl-rovers/calendar',
    },
    {
      path: '/api/v0/rsvp/{matchId}',
      operationId: 'getRsvpSummary',
      tag: 'RSVP',
      summary: 'RSVP counts of a match',
      description:
        'Answers to the invitations of a match; `pending` counts invitations not answered yet. Cached like the other reads, ' +
        'revalidated by `If-None-Match` only: the counts can change twice within the second a date can tell, and a withdrawn ' +
        'invitation changes them with no new answer, so `If-Modified-Since` alone is answered in full.',
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
        'A follow of the same scope unsubscribed less than 30 days ago, from this address or another spelling its provider ' +
        'delivers alike (case, a `+tag` where the provider takes them, Gmail\'s dots), answers `confirm_email_sent` too, but ' +
        'nothing is sent and nothing changes: its mailbox said stop, and the answer does not tell whoever asks that it did (the request counts ' +
        'toward the daily cap as a confirmation sent would). Its owner follows again from the ' +
        'unsubscribe page of any of its emails ("Follow again"), at once and without a new email. ' +
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
      formPage: true,
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
        'after that: 409. Also 409 while the match is postponed (answers reopen once its new kickoff is set), and when it is ' +
        'cancelled or its competition is (every match of a cancelled competition not completed is cancelled, as in the calendar ' +
        'feed); the `detail` says which. An unknown token: 404.',
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
      description:
        'No account needed. Each of the organization\'s registration addresses is sent the request (player, division, contact, ' +
        'date of birth and guardian where given, its `id`); the contact email gets a receipt naming the organization, the ' +
        'division, the `id` and the date, and nothing the submitter typed. At most 3 receipts per mailbox in 24 hours ' +
        '(`RECEIPTS_PER_ADDRESS_PER_DAY`): past that the request is still taken and answered 201, without a receipt.\n\n' +
        '422 names the field that does not fit: `org_id` (no such organization), `division_id` (sent empty where the organization ' +
        'has divisions, not a division of it, or ' +
        'outside its registration window: before `opens_at` or from `closes_at`), `date_of_birth` (the division requires a ' +
        'guardian under an age, or takes players born between two days, so it needs the date; or the player was born ' +
        'outside those days: "must be on or after 2012-01-01 for this division"), `guardian_name` and `guardian_phone` (the player is younger than the ' +
        'division\'s `guardian_required_under` on the day of the request, in the organization\'s time zone).',
      request: 'RegistrationRequest',
      requestExamples: one(ex.REGISTRATION_REQUEST_EXAMPLE),
      success: { status: 201, description: 'Submitted.', schema: 'RegistrationResult', examples: one(ex.REGISTRATION_RESULT_EXAMPLE) },
      errors: BODY_ERRORS,
      idempotent: true,
      formPage: true,
      curl:
        `curl -s -X POST ${base}/api/v0/register -H 'Content-Type: application/json' \\\n` +
        `  -H 'Idempotency-Key: ${PARAMETERS.IdempotencyKey!.example}' \\\n` +
        `  -d '${JSON.stringify(ex.REGISTRATION_REQUEST_EXAMPLE)}'`,
    },
  ];
  const feedOf: Record<string, string> = { getCalendar: 'a competition', getTeamCalendar: 'a team' };
  const withIcs = reads.flatMap((r) => (r.calendar ? [r, icsAddress(r, feedOf[r.operationId] ?? 'this feed')] : [r]));
  const out: Record<string, PathItemObject> = {};
  for (const spec of withIcs) out[spec.path] = readPath(spec, base);
  for (const spec of writes) out[spec.path] = writePath(spec);
  return out;
}
