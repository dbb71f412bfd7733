// Player registration requests: checked against the organization's divisions (their window and guardian rule),
// stored, and told in the same transaction to the organization (a notice to each of its registration_emails) and
// to the contact address (a receipt carrying nothing the submitter typed). Both emails are capped per mailbox;
// the registration itself is taken whatever the caps say.
import { prepared } from '../db/prepared.js';
import type { SyncDb } from '../db/sync.js';
import { idempotent, requestHash, type StoredAnswer } from '../db/idempotency.js';
import { InvalidFieldsError, NO_SUCH_ORGANIZATION, NOT_ITS_DIVISION } from '../errors.js';
import { noLeagueOrPublic } from '../competitions/visibility.js';
import { mailboxOf } from '../mail/mailbox.js';
import { queueEmail, recentEmails } from '../mail/outbox.js';
import { newId } from '../security/tokens.js';
import { foldName } from '../text/fold.js';
import { localizedName, type Language } from '../vocabulary/language.js';
import { blankDivisionProblem, registrationProblems, type FieldProblem, type RegistrantFacts } from './rules.js';
import { registrationRequestSchema, type RegistrationRequest, type RegistrationResponse } from './schema.js';

export const RECEIPT_TAG = 'registration-receipt';
export const NOTICE_TAG = 'registration-notice';
const DAY_MS = 24 * 3600_000;

export interface RegistrationContext {
  idempotencyKey?: string;
  client: string;
  now: Date;
  /** Receipts one mailbox is sent in 24 hours; 0 = no limit. */
  receiptsPerDay: number;
  /** Notices one organization mailbox is sent in 24 hours; 0 = no limit. */
  noticesPerDay: number;
}

// Prepared (src/db/prepared.ts), like the RSVP summary's queries: a registration's reads are on a path measured
// under load, and Kysely need not build the same SQL for every request.
const ORGANIZATION = prepared((q, p: { orgId: string }) =>
  q.selectFrom('organizations')
    .select(['id', 'name', 'name_ar', 'language', 'timezone', 'registration_emails'])
    .where('id', '=', p.orgId),
);
const DIVISION = prepared((q, p: { divisionId: string; orgId: string }) =>
  q.selectFrom('divisions').select(['name', 'name_ar', 'opens_at', 'closes_at', 'guardian_required_under', 'born_from', 'born_until'])
    .where('id', '=', p.divisionId).where('org_id', '=', p.orgId)
    // A division of a league the public cannot see is, to the public, no division at all.
    .where((eb) => noLeagueOrPublic(eb.ref('divisions.league_id'))),
);

/** Whether the organization has a division the public may register into: then a division sent blank is refused. */
const ANY_PUBLIC_DIVISION = prepared((q, p: { orgId: string }) =>
  q.selectFrom('divisions').select('id').where('org_id', '=', p.orgId)
    .where((eb) => noLeagueOrPublic(eb.ref('divisions.league_id')))
    .limit(1),
);

/** A division of the organization as the public may register into it (its league public, or none), or undefined. */
export function publicDivision(store: SyncDb, divisionId: string, orgId: string) {
  return store.first(DIVISION.bind({ divisionId, orgId }));
}

/** Every division of the organization the public may register into, with its terms, by id (an answer page's offer). */
export function publicDivisions(store: SyncDb, orgId: string) {
  return store.all(
    store.q.selectFrom('divisions')
      .select(['id', 'name', 'name_ar', 'opens_at', 'closes_at', 'guardian_required_under', 'born_from', 'born_until'])
      .where('org_id', '=', orgId).where((eb) => noLeagueOrPublic(eb.ref('divisions.league_id')))
      .orderBy('id'),
  );
}

/**
 * How many more emails tagged `tag` `address` may be sent now, this one included: `perDay` less those of the last 24
 * hours; Infinity without a limit (perDay 0).
 */
function leftUnderDailyCap(store: SyncDb, address: string, tag: string, perDay: number, now: Date): number {
  if (perDay === 0) return Number.POSITIVE_INFINITY;
  return perDay - recentEmails(store, { address, tag, since: new Date(now.getTime() - DAY_MS) }).count;
}

/** `division_id` null: sent blank (a form's list left on its empty entry). */
type Checked = RegistrantFacts & { org_id: string; division_id?: string | null | undefined };

/**
 * The organization and division a registration names, and every problem they find in it (registrationProblems):
 * an unknown organization is the one problem (nothing else can be told without its day), a division it does not
 * have another, beside the date of birth's range. `refused`: the fields the request schema refused.
 */
function checkAgainstDivision(store: SyncDb, facts: Checked, now: Date, refused?: ReadonlySet<string>) {
  const org = store.first(ORGANIZATION.bind({ orgId: facts.org_id }));
  if (!org) return { org, division: undefined, problems: [{ field: 'org_id', message: NO_SUCH_ORGANIZATION }] };
  const named = facts.division_id ?? undefined;
  const division = named === undefined ? undefined : publicDivision(store, named, org.id);
  const problems = registrationProblems(facts, division ?? null, now, org.timezone, refused);
  if (named !== undefined && !division) problems.unshift({ field: 'division_id', message: NOT_ITS_DIVISION });
  const blank = facts.division_id === null ? blankDivisionProblem(null, store.first(ANY_PUBLIC_DIVISION.bind({ orgId: org.id })) !== undefined) : null;
  if (blank) problems.unshift(blank);
  return { org, division, problems };
}

/** The fields the division's rules read, beside the organization and division that decide them. */
const CHECKED_FIELDS = ['org_id', 'division_id', 'date_of_birth', 'guardian_name', 'guardian_phone'] as const;

/**
 * For a registration the request schema refused: what the organization and division would also find in the fields
 * it accepted (the problems of a field it refused are its own), so that a form without script gets every problem in
 * one answer. Nothing when its organization or division cannot be read.
 */
export function problemsBesideRefused(store: SyncDb, fields: Record<string, unknown>, now: Date): FieldProblem[] {
  const facts: Partial<Record<Exclude<(typeof CHECKED_FIELDS)[number], 'division_id'>, string>> & { division_id?: string | null } = {};
  const refused = new Set<string>();
  for (const name of CHECKED_FIELDS) {
    const parsed = registrationRequestSchema.shape[name].safeParse(fields[name]);
    if (!parsed.success) refused.add(name);
    else if (parsed.data !== undefined) (facts as Record<string, string | null>)[name] = parsed.data;
  }
  const { org_id } = facts;
  if (org_id === undefined || refused.has('division_id')) return [];
  return checkAgainstDivision(store, { ...facts, org_id }, now, refused).problems;
}

/** How long after the first registration it covers a summary past the cap leaves: at most one an hour. */
export const OVERFLOW_DELAY_MS = 3600_000;
export const OVERFLOW_TAG = 'registration-overflow';

/**
 * A summary for a registration address past its daily cap, unless one is waiting already (it will count this
 * registration too: it counts as it leaves). Due OVERFLOW_DELAY_MS after the first registration it covers. One already
 * due may be leaving, its count taken (a review: a registration while it was being sent was in no summary), so it
 * does not count as waiting: at worst a registration is counted in two summaries, never in none.
 */
function queueOverflowSummary(
  store: SyncDb,
  address: string,
  about: { language: Language; organizationId: string; organizationName: string; timeZone: string; cap: number },
  now: Date,
): void {
  const waiting = store.first(
    store.q.selectFrom('email_outbox').select('id')
      .where('mailbox', '=', mailboxOf(address)).where('tag', '=', OVERFLOW_TAG).where('status', '=', 'pending')
      // Stamped as queued when due (below): one not due yet.
      .where('created_at', '>', now.toISOString()).limit(1),
  );
  if (waiting) return;
  const since = now.toISOString();
  const due = new Date(now.getTime() + OVERFLOW_DELAY_MS);
  queueEmail(store, {
    to: address,
    template: 'registration-overflow',
    tag: OVERFLOW_TAG,
    // Stamped as queued when it is due: /healthz measures how long the oldest pending email has waited (created_at),
    // and an hour's planned wait is no backlog.
    createdAt: due,
    notBefore: due,
    data: { ...about, since, count: 1 },
  });
}

export function submitRegistration(
  store: SyncDb,
  input: RegistrationRequest,
  ctx: RegistrationContext,
): StoredAnswer<RegistrationResponse> {
  const scope = { scope: 'register', client: ctx.client, key: ctx.idempotencyKey, now: ctx.now };
  return store.transaction(() =>
    idempotent(store, scope, requestHash(input), () => {
      const { org, division, problems } = checkAgainstDivision(store, input, ctx.now);
      if (!org || problems.length > 0) throw new InvalidFieldsError(problems);
      const id = newId('reg');
      const submittedAt = ctx.now.toISOString();
      // The row as stored: every optional field absent is NULL.
      const row = {
        id, org_id: org.id, division_id: input.division_id ?? null, name: input.name, name_ar: input.name_ar ?? null,
        email: input.email, phone: input.phone ?? null, date_of_birth: input.date_of_birth ?? null,
        guardian_name: input.guardian_name ?? null, guardian_phone: input.guardian_phone ?? null, notes: input.notes ?? null,
        created_at: submittedAt, name_key: foldName(input.name),
      };
      store.run(store.q.insertInto('registrations').values(row));
      // What the emails name, in a language: the organization's notices, and the receipt in the one the form asked for.
      const namedIn = (language: Language) => ({
        language,
        organizationName: localizedName(org.name, org.name_ar, language),
        divisionName: division ? localizedName(division.name, division.name_ar, language) : null,
      });
      const { language, organizationName } = namedIn(org.language);
      const common = { ...namedIn(org.language), registrationId: id, submittedAt, timeZone: org.timezone };
      for (const address of JSON.parse(org.registration_emails) as string[]) {
        // Past the cap the organization still has every registration: the export command lists them, the last notice
        // before it says so, and a summary an hour says how many came since (an attacker's review used up the cap with
        // junk, and the club heard of none of its real registrations that day).
        const left = leftUnderDailyCap(store, address, NOTICE_TAG, ctx.noticesPerDay, ctx.now);
        if (left <= 0) {
          queueOverflowSummary(store, address, { language, organizationId: org.id, organizationName, timeZone: org.timezone, cap: ctx.noticesPerDay }, ctx.now);
          continue;
        }
        queueEmail(store, {
          to: address,
          template: 'registration-notice',
          tag: NOTICE_TAG,
          createdAt: ctx.now,
          data: {
            ...common,
            organizationId: org.id,
            playerName: row.name, playerNameAr: row.name_ar, email: row.email, phone: row.phone, dateOfBirth: row.date_of_birth,
            guardianName: row.guardian_name, guardianPhone: row.guardian_phone, hasNotes: row.notes !== null,
            ...(left === 1 ? { lastBeforeCap: ctx.noticesPerDay } : {}),
          },
        });
      }
      // Anyone can type anyone's address: past the cap the registration is still taken and answered, silently. In the
      // language the form asked for (its names in it too), else the organization's.
      if (leftUnderDailyCap(store, input.email, RECEIPT_TAG, ctx.receiptsPerDay, ctx.now) > 0) {
        const receipt = { ...common, ...namedIn(input.language ?? org.language) };
        queueEmail(store, { to: input.email, template: 'registration-receipt', tag: RECEIPT_TAG, createdAt: ctx.now, data: receipt });
      }
      return { status: 201, body: { status: 'submitted' as const, id } };
    }),
  );
}
