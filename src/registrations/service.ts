// Player registration requests: checked against the organization's divisions (their window and guardian rule),
// stored, and told in the same transaction to the organization (a notice to each of its registration_emails) and
// to the contact address (a receipt carrying nothing the submitter typed). Both emails are capped per mailbox;
// the registration itself is taken whatever the caps say.
import { prepared } from '../db/prepared.js';
import type { SyncDb } from '../db/sync.js';
import { idempotent, requestHash, type StoredAnswer } from '../db/idempotency.js';
import { InvalidFieldError, InvalidFieldsError } from '../errors.js';
import { leagueIsPublic } from '../competitions/visibility.js';
import { queueEmail, recentEmails } from '../mail/outbox.js';
import { newId } from '../security/tokens.js';
import { localDate } from '../time/local-time.js';
import { localizedName } from '../vocabulary/language.js';
import { dateOfBirthProblem, guardianProblems, windowProblem } from './rules.js';
import type { RegistrationRequest, RegistrationResponse } from './schema.js';

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
  q.selectFrom('divisions').select(['name', 'name_ar', 'opens_at', 'closes_at', 'guardian_required_under'])
    .where('id', '=', p.divisionId).where('org_id', '=', p.orgId)
    // A division of a league the public cannot see is, to the public, no division at all.
    .where((eb) => eb.or([eb('league_id', 'is', null), leagueIsPublic(eb.ref('divisions.league_id'))])),
);

/**
 * How many more emails tagged `tag` `address` may be sent now, this one included: `perDay` less those of the last 24
 * hours; Infinity without a limit (perDay 0).
 */
function leftUnderDailyCap(store: SyncDb, address: string, tag: string, perDay: number, now: Date): number {
  if (perDay === 0) return Number.POSITIVE_INFINITY;
  return perDay - recentEmails(store, { address, tag, since: new Date(now.getTime() - DAY_MS) }).count;
}

export function submitRegistration(
  store: SyncDb,
  input: RegistrationRequest,
  ctx: RegistrationContext,
): StoredAnswer<RegistrationResponse> {
  const scope = { scope: 'register', client: ctx.client, key: ctx.idempotencyKey, now: ctx.now };
  return store.transaction(() =>
    idempotent(store, scope, requestHash(input), () => {
      const org = store.first(ORGANIZATION.bind({ orgId: input.org_id }));
      if (!org) throw new InvalidFieldError('org_id', 'no organization has this id');
      const today = localDate(ctx.now, org.timezone);
      const born = dateOfBirthProblem(input.date_of_birth, today);
      if (born) throw new InvalidFieldError(born.field, born.message);
      let division: { name: string; name_ar: string | null } | undefined;
      if (input.division_id !== undefined) {
        const row = store.first(DIVISION.bind({ divisionId: input.division_id, orgId: org.id }));
        if (!row) throw new InvalidFieldError('division_id', 'is not a division of this organization');
        const closed = windowProblem(row, ctx.now, org.timezone);
        if (closed) throw new InvalidFieldError(closed.field, closed.message);
        const missing = guardianProblems(input, row.guardian_required_under, today);
        if (missing.length > 0) throw new InvalidFieldsError(missing, 'This division needs more about the player.');
        division = row;
      }
      const id = newId('reg');
      const submittedAt = ctx.now.toISOString();
      // The row as stored: every optional field absent is NULL.
      const row = {
        id, org_id: org.id, division_id: input.division_id ?? null, name: input.name, name_ar: input.name_ar ?? null,
        email: input.email, phone: input.phone ?? null, date_of_birth: input.date_of_birth ?? null,
        guardian_name: input.guardian_name ?? null, guardian_phone: input.guardian_phone ?? null, notes: input.notes ?? null,
        created_at: submittedAt,
      };
      store.run(store.q.insertInto('registrations').values(row));
      const language = org.language;
      const organizationName = localizedName(org.name, org.name_ar, language);
      const divisionName = division ? localizedName(division.name, division.name_ar, language) : null;
      const common = { language, organizationName, divisionName, registrationId: id, submittedAt, timeZone: org.timezone };
      for (const address of JSON.parse(org.registration_emails) as string[]) {
        // Past the cap the organization still has every registration: the export command lists them, and the last
        // notice before it says so.
        const left = leftUnderDailyCap(store, address, NOTICE_TAG, ctx.noticesPerDay, ctx.now);
        if (left <= 0) continue;
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
      // Anyone can type anyone's address: past the cap the registration is still taken and answered, silently.
      if (leftUnderDailyCap(store, input.email, RECEIPT_TAG, ctx.receiptsPerDay, ctx.now) > 0) {
        queueEmail(store, { to: input.email, template: 'registration-receipt', tag: RECEIPT_TAG, createdAt: ctx.now, data: common });
      }
      return { status: 201, body: { status: 'submitted' as const, id } };
    }),
  );
}
