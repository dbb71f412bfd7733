// The floor of POST /api/v0/register for `npm run bench -- write`: node:http and better-sqlite3 and nothing else
// (no Astro, Kysely or zod), doing the same transaction on the same database file as the real server, so that
// the real endpoint's requests/s can be read as a fraction of what the transaction alone allows.
//
//   DATABASE_PATH=… PORT=… node --import tsx bench/reference/register-server.ts
//
// WHAT IT MIRRORS (re-read these when they change, and change this file with them):
//   src/db/connect.ts openSqlite (called): WAL, synchronous=FULL, foreign_keys=ON, busy_timeout=10000, secure_delete=ON.
//   src/registrations/service.ts submitRegistration + src/db/idempotency.ts idempotent: ONE `BEGIN IMMEDIATE`
//   transaction (better-sqlite3 `.immediate()`, as SyncDb.transaction), committed (fsync) before answering:
//     1. SELECT idempotency_keys (the client's address; answerKey, called: with an Idempotency-Key header, checked
//        by checkIdempotencyKey, called, the key in scope 'register', else the request's hash in 'register:repeat');
//        a stored answer younger than its window (windowOf, called) is replayed (same request hash) or refused (422,
//        another hash); none: SELECT the same key and hash from any client (the oldest), replayed when found;
//     2. SELECT the organization, and check the date of birth against its day (src/registrations/rules.ts
//        dateOfBirthProblem, called); SELECT the division within it when division_id is sent (and its league
//        public, if it has one), and check its window and guardian rule (src/registrations/rules.ts, called);
//     3. INSERT the registrations row (newId('reg'), optional fields NULL when absent, created_at now, name_key the
//        folded name: src/text/fold.ts foldName, called);
//     4. for each of the organization's registration_emails, and for the contact address: COUNT its mailbox's
//        emails of that tag in the last 24 hours (recentEmails in src/mail/outbox.ts: the per-mailbox caps,
//        at the service's defaults) and, under the cap, INSERT an email_outbox row … RETURNING id (past the notices'
//        cap: SELECT a pending summary for that mailbox, and INSERT one, due in an hour, when there is none): the rows (their
//        columns and values) come from noticeRow() and receiptRow() below, the one function to change when the
//        outbox row shape changes (today: the name of the email and its data as JSON, a random Message-ID key and
//        the recipient's mailbox, as src/mail/outbox.ts queueEmail writes it; the INSERT follows the columns it
//        returns);
//     5. INSERT idempotency_keys with the answer (an expired row of the key replaced).
//   src/pages/api/v0/register.ts + src/http/respond.ts: 201, body {"status":"submitted","id":"reg_…"},
//   WRITE_HEADERS (+ Idempotent-Replayed: true on a replay), chunked as Astro sends it.
// LEFT OUT, on purpose (not the transaction): zod validation and the form/multipart body formats (the JSON body
// is trusted: a missing required field fails the INSERT with a 500), the rate limiter, the outbox's checks of
// the address and of the data against its template (src/mail/outbox.ts queueEmail). The request hash is taken over the JSON body as sent,
// not over zod's output: a key used on the real server and then here would not replay.
// NOT MIRRORED: the real server's group commit (src/db/group-commit.ts), which shares one commit among the writes
// that arrive together. The floor is the issue's: one request, one transaction, one fsync.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Database from 'better-sqlite3';
import type { Selectable } from 'kysely';
import type { RegistrationsTable } from '../../src/db/schema.js';
import { answerKey, checkIdempotencyKey, requestHash, windowOf } from '../../src/db/idempotency.js';
import { InvalidFieldError } from '../../src/errors.js';
import crypto from 'node:crypto';
import { CORS_HEADERS } from '../../src/http/headers.js';
import { sendProblem } from '../../src/http/problem.js';
import { WRITE_HEADERS } from '../../src/http/respond.js';
import { mailboxOf } from '../../src/mail/mailbox.js';
import { dateOfBirthProblem, guardianProblems, windowProblem, type DivisionTerms } from '../../src/registrations/rules.js';
import { newId } from '../../src/security/tokens.js';
import { foldName } from '../../src/text/fold.js';
import { localDate } from '../../src/time/local-time.js';
import { localizedName, type Language } from '../../src/vocabulary/language.js';
import { openDatabase, pragmas, readJson, sendJson, serve } from './serve.js';

/** A registrations row as the service writes it (status is the column's default). */
type Registration = Omit<Selectable<RegistrationsTable>, 'status'>;
interface Organization {
  id: string; name: string; name_ar: string | null; language: Language; timezone: string; registration_emails: string;
}
interface Division extends DivisionTerms { name: string; name_ar: string | null }

/** What the receipt and the notices share: the organization's words, the reference and the date. */
function common(r: Registration, at: string, org: Organization, division: Division | undefined) {
  return {
    language: org.language,
    organizationName: localizedName(org.name, org.name_ar, org.language),
    divisionName: division ? localizedName(division.name, division.name_ar, org.language) : null,
    registrationId: r.id,
    submittedAt: at,
    timeZone: org.timezone,
  };
}

/**
 * An outbox row as submitRegistration → queueEmail (src/mail/outbox.ts) writes it: the email's name and its data
 * (in the organization's language) as JSON; the worker renders it later.
 */
function outboxRow(to: string, template: string, data: object, at: string) {
  return {
    message_key: crypto.randomBytes(16).toString('hex'),
    to_address: to,
    mailbox: mailboxOf(to),
    template,
    data_json: JSON.stringify(data),
    tag: template,
    created_at: at,
    next_attempt_at: at,
  };
}

function receiptRow(r: Registration, at: string, org: Organization, division: Division | undefined) {
  return outboxRow(r.email.trim(), 'registration-receipt', common(r, at, org, division), at);
}

function noticeRow(to: string, r: Registration, at: string, org: Organization, division: Division | undefined) {
  const { language, ...rest } = common(r, at, org, division);
  // In the order of the catalog's schema, as queueEmail stores zod's output.
  return outboxRow(to, 'registration-notice', {
    language,
    organizationId: org.id,
    ...rest,
    playerName: r.name,
    playerNameAr: r.name_ar,
    email: r.email,
    phone: r.phone,
    dateOfBirth: r.date_of_birth,
    guardianName: r.guardian_name,
    guardianPhone: r.guardian_phone,
    hasNotes: r.notes !== null,
  }, at);
}

/** A summary past the notices' cap (src/registrations/service.ts queueOverflowSummary), due an hour later. */
function overflowRow(to: string, org: Organization, at: string) {
  const row = outboxRow(to, 'registration-overflow', {
    language: org.language, organizationId: org.id, organizationName: localizedName(org.name, org.name_ar, org.language),
    timeZone: org.timezone, since: at, count: 1, cap: CAPS['registration-notice'],
  }, at);
  const due = new Date(Date.parse(at) + 3600_000).toISOString();
  return { ...row, created_at: due, next_attempt_at: due };
}

const DAY_MS = 24 * 3600_000;
/** The service's default caps (src/config.ts RECEIPTS_PER_ADDRESS_PER_DAY, REGISTRATION_NOTICES_PER_ADDRESS_PER_DAY). */
const CAPS: Record<string, number> = { 'registration-receipt': 3, 'registration-notice': 200 };

const db = openDatabase();
// The statements Kysely compiles for the real service (SyncDb caches its prepared statements the same way).
const sql = {
  previous: db.prepare(
    `select "request_hash", "response_status", "response_body", "created_at" from "idempotency_keys" where "scope" = ? and "key" = ? and "created_at" >= ? and "client" = ? limit ?`,
  ),
  anyClient: db.prepare(
    `select "request_hash", "response_status", "response_body", "created_at" from "idempotency_keys" where "scope" = ? and "key" = ? and "created_at" >= ? and "request_hash" = ? order by "created_at" limit ?`,
  ),
  overflowWaiting: db.prepare(`select "id" from "email_outbox" where "mailbox" = ? and "tag" = ? and "status" = ? and "created_at" > ? limit ?`),
  organization: db.prepare(`select "id", "name", "name_ar", "language", "timezone", "registration_emails" from "organizations" where "id" = ?`),
  division: db.prepare(
    `select "name", "name_ar", "opens_at", "closes_at", "guardian_required_under" from "divisions" where "id" = ? and "org_id" = ?
     and ("league_id" is null or exists (select 1 from events where events.league_id = "divisions"."league_id" and events.is_public = 1))`,
  ),
  recent: db.prepare(
    `select count(*) as "count", min("created_at") as "oldest" from "email_outbox" where "mailbox" = ? and "tag" = ? and "created_at" > ?`,
  ),
  registration: db.prepare(
    `insert into "registrations" ("id", "org_id", "division_id", "name", "name_ar", "email", "phone", "date_of_birth", "guardian_name", "guardian_phone", "notes", "created_at", "name_key")
     values (@id, @org_id, @division_id, @name, @name_ar, @email, @phone, @date_of_birth, @guardian_name, @guardian_phone, @notes, @created_at, @name_key)`,
  ),
  key: db.prepare(
    `insert into "idempotency_keys" ("scope", "client", "key", "request_hash", "response_status", "response_body", "created_at") values (?, ?, ?, ?, ?, ?, ?)
     on conflict ("scope", "client", "key") do update set "request_hash" = ?, "response_status" = ?, "response_body" = ?, "created_at" = ?`,
  ),
};

/** INSERT … RETURNING id of an outbox row, its columns those outboxRow() gives (prepared once, like SyncDb's). */
let outboxInsert: Database.Statement | undefined;
/** `org`: a notice's organization, for its summary past the cap. */
function insertOutbox(row: ReturnType<typeof outboxRow>, org?: Organization): void {
  const recent = sql.recent.get(row.mailbox, row.tag, new Date(Date.parse(row.created_at) - DAY_MS).toISOString()) as { count: number };
  if (recent.count >= CAPS[row.tag]!) {
    if (org && !sql.overflowWaiting.get(row.mailbox, 'registration-overflow', 'pending', row.created_at, 1)) write(overflowRow(row.to_address, org, row.created_at));
    return;
  }
  write(row);
}

function write(row: ReturnType<typeof outboxRow>): void {
  const columns = Object.keys(row);
  outboxInsert ??= db.prepare(
    `insert into "email_outbox" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')}) returning "id"`,
  );
  outboxInsert.get(row);
}

interface Answer { status: number; body: string; replayed: boolean }

const submit = db.transaction((fields: Record<string, unknown>, key: string | undefined, client: string): Answer => {
  const hash = requestHash(fields);
  const now = new Date();
  const slot = answerKey('register', key, hash);
  const expiredBefore = new Date(now.getTime() - windowOf(slot.scope)).toISOString();
  const previous = (sql.previous.get(slot.scope, slot.key, expiredBefore, client, 1) ?? sql.anyClient.get(slot.scope, slot.key, expiredBefore, hash, 1)) as
    | { request_hash: string; response_status: number; response_body: string; created_at: string }
    | undefined;
  if (previous) {
    if (previous.request_hash !== hash) throw new InvalidFieldError('Idempotency-Key', 'was already used for a different request');
    return { status: previous.response_status, body: previous.response_body, replayed: true };
  }
  const text = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : null);
  const org = sql.organization.get(text('org_id')) as Organization | undefined;
  if (!org) throw new InvalidFieldError('org_id', 'no organization has this id');
  const today = localDate(now, org.timezone);
  const born = dateOfBirthProblem(text('date_of_birth') ?? undefined, today);
  if (born) throw new InvalidFieldError(born.field, born.message);
  let division: Division | undefined;
  if (text('division_id') !== null) {
    division = sql.division.get(text('division_id'), org.id) as Division | undefined;
    if (!division) throw new InvalidFieldError('division_id', 'is not a division of this organization');
    const closed = windowProblem(division, now, org.timezone);
    if (closed) throw new InvalidFieldError(closed.field, closed.message);
    const facts = { date_of_birth: text('date_of_birth') ?? undefined, guardian_name: text('guardian_name') ?? undefined, guardian_phone: text('guardian_phone') ?? undefined };
    const missing = guardianProblems(facts, division.guardian_required_under, today);
    if (missing.length > 0) throw new InvalidFieldError(missing[0]!.field, missing[0]!.message);
  }
  const registration = {
    id: newId('reg'), org_id: org.id, division_id: text('division_id'), name: text('name')!, name_ar: text('name_ar'),
    email: text('email')!, phone: text('phone'), date_of_birth: text('date_of_birth'), guardian_name: text('guardian_name'),
    guardian_phone: text('guardian_phone'), notes: text('notes'), created_at: now.toISOString(), name_key: foldName(text('name')!),
  };
  sql.registration.run(registration);
  for (const address of JSON.parse(org.registration_emails) as string[]) {
    insertOutbox(noticeRow(address, registration, registration.created_at, org, division), org);
  }
  insertOutbox(receiptRow(registration, registration.created_at, org, division));
  const body = JSON.stringify({ status: 'submitted', id: registration.id });
  const at = now.toISOString();
  sql.key.run(slot.scope, client, slot.key, hash, 201, body, at, hash, 201, body, at);
  return { status: 201, body, replayed: false };
});

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST' || req.url?.split('?')[0] !== '/api/v0/register') {
    return sendProblem(res, 404, `No route for ${req.method} ${req.url} on the reference server.`, { headers: CORS_HEADERS });
  }
  const fields = await readJson(req);
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    return sendProblem(res, 400, 'The body is not a JSON object.', { headers: CORS_HEADERS });
  }
  try {
    const header = req.headers['idempotency-key'];
    const key = checkIdempotencyKey(typeof header === 'string' ? header : null);
    const answer = submit.immediate(fields as Record<string, unknown>, key, req.socket.remoteAddress ?? 'unknown');
    sendJson(res, answer.status, answer.replayed ? { ...WRITE_HEADERS, 'Idempotent-Replayed': 'true' } : WRITE_HEADERS, answer.body);
  } catch (error) {
    if (!(error instanceof InvalidFieldError)) throw error;
    sendProblem(res, 422, `${error.field}: ${error.message}`, { headers: CORS_HEADERS });
  }
}

serve('reference register', pragmas(db), handle);
