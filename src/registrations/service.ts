// Player registration requests: validated against the organization's divisions, stored, acknowledged by
// a receipt email written in the same transaction.
import type { SyncDb } from '../db/sync.js';
import { idempotent, requestHash, type StoredAnswer } from '../db/idempotency.js';
import { InvalidFieldError } from '../errors.js';
import { leagueIsPublic } from '../competitions/visibility.js';
import { queueEmail } from '../mail/outbox.js';
import { newId } from '../security/tokens.js';
import type { RegistrationRequest, RegistrationResponse } from './schema.js';
import { localizedName } from '../vocabulary/language.js';

export function submitRegistration(
  store: SyncDb,
  input: RegistrationRequest,
  request: { idempotencyKey?: string; client: string; now: Date },
): StoredAnswer<RegistrationResponse> {
  const id = { scope: 'register', client: request.client, key: request.idempotencyKey, now: request.now };
  return store.transaction(() =>
    idempotent(store, id, requestHash(input), () => {
      const org = store.first(
        store.q.selectFrom('organizations').select(['id', 'name', 'name_ar', 'language']).where('id', '=', input.org_id),
      );
      if (!org) throw new InvalidFieldError('org_id', 'no organization has this id');
      let division: { name: string; name_ar: string | null } | undefined;
      if (input.division_id !== undefined) {
        division = store.first(
          store.q.selectFrom('divisions').select(['name', 'name_ar'])
            .where('id', '=', input.division_id).where('org_id', '=', org.id)
            // A division of a league the public cannot see is, to the public, no division at all.
            .where((eb) => eb.or([eb('league_id', 'is', null), leagueIsPublic(eb.ref('divisions.league_id'))])),
        );
        if (!division) throw new InvalidFieldError('division_id', 'is not a division of this organization');
      }
      const id = newId('reg');
      store.run(
        store.q.insertInto('registrations').values({
          id,
          org_id: org.id,
          division_id: input.division_id ?? null,
          name: input.name,
          name_ar: input.name_ar ?? null,
          email: input.email,
          phone: input.phone ?? null,
          date_of_birth: input.date_of_birth ?? null,
          guardian_name: input.guardian_name ?? null,
          guardian_phone: input.guardian_phone ?? null,
          notes: input.notes ?? null,
        }),
      );
      queueEmail(store, {
        to: input.email,
        template: 'registration-receipt',
        tag: 'registration-receipt',
        data: {
          language: org.language,
          playerName: localizedName(input.name, input.name_ar, org.language),
          organizationName: localizedName(org.name, org.name_ar, org.language),
          divisionName: division ? localizedName(division.name, division.name_ar, org.language) : null,
          registrationId: id,
        },
      });
      return { status: 201, body: { status: 'submitted' as const, id } };
    }),
  );
}
