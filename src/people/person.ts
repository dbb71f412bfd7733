// What the service holds about one person, found by their email address, and its erasure (npm run person): a data
// protection review found that an operator could answer neither "what do you hold about me" nor "erase this person"
// (a parent, for their child) without writing SQL. The person is the mailbox (spellings.ts: case, a +tag, Gmail's
// dots), found wherever an address is kept:
// - follows.email (a follow and, hanging off it, its links and the emails about it);
// - registrations.email, the contact address, the player's or their guardian's (the registration, its links: none,
//   the emails about it, the organization's notice included, and the stored answer to its submit, idempotency_keys);
// - rsvp_invitations.email and team_members.email (the invitations of a member with that address, their links and
//   emails). The member is the organization's, from its import file (src/import/load.ts writes each member with its
//   address at every import): the row stays, its address is cleared, and the organization must remove it from its
//   file, or the next import brings it back;
// - organizations.registration_emails (the organization's, from its import file too: removed, said the same way);
// - email_outbox.to_address, in any status: a queued email erased is never sent;
// - the .eml files the file transport wrote under MAIL_DIR (their To: header).
// Nothing else holds an address: the other tables are competitions, teams, links (hashes) and change tracking.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Selectable } from 'kysely';
import { chunks } from '../collections.js';
import type { RegistrationsTable } from '../db/schema.js';
import type { SyncDb } from '../db/sync.js';
import { deliveryKey, deliveryMatcher } from '../mail/mailbox.js';
import { FOLLOW_LINK_PURPOSES } from '../security/link-tokens.js';
import type { FollowStatus, OutboxStatus, RsvpAnswer } from '../vocabulary/enums.js';
import type { Language } from '../vocabulary/language.js';
import { emlBodyText, emlMessageKey, emlRecipient } from './spellings.js';

export interface HeldFollow {
  org_id: string;
  org_name: string;
  league_id: string | null;
  league_name: string | null;
  email: string;
  status: FollowStatus;
  created_at: string;
  last_confirmation_sent_at: string | null;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  /** The language its request asked its emails in; null: its organization's. */
  language: Language | null;
}

export interface HeldRegistration {
  id: string;
  org_id: string;
  org_name: string;
  division_id: string | null;
  division_name: string | null;
  created_at: string;
  /** Every field as submitted (the JSON output shows them; the text names the registration only). */
  fields: Pick<Selectable<RegistrationsTable>, 'name' | 'name_ar' | 'email' | 'phone' | 'date_of_birth' | 'guardian_name' | 'guardian_phone' | 'notes'>;
}

export interface HeldInvitation {
  match_id: string;
  team_id: string;
  team_name: string;
  member_id: string;
  member_name: string;
  /** The address the invitation went to. */
  email: string | null;
  answer: RsvpAnswer | null;
  answered_at: string | null;
  created_at: string;
}

/** A team member whose address it is: the organization's import data. */
export interface HeldMember {
  id: string;
  name: string;
  team_id: string;
  team_name: string;
  org_id: string;
  email: string;
  /** The language the import gives them; null: their organization's. */
  language: Language | null;
}

/** An organization that sends its registration notices to the address (its import file's registration_emails). */
export interface HeldRegistrationAddress {
  org_id: string;
  org_name: string;
  address: string;
}

/** An outbox email, never its content. `about`: for one to another address, what of the person's it carries. */
export interface HeldEmail {
  id: number;
  kind: string;
  to: string;
  status: OutboxStatus;
  created_at: string;
  sent_at: string | null;
  about?: string;
}

export interface PersonHeld {
  /** As asked. */
  email: string;
  /** The mailbox it reaches (deliveryKey): what every spelling below shares. */
  mailbox: string;
  /** The addresses found that are spellings of it, sorted. */
  spellings: string[];
  follows: HeldFollow[];
  registrations: HeldRegistration[];
  invitations: HeldInvitation[];
  members: HeldMember[];
  registrationAddresses: HeldRegistrationAddress[];
  /** Outbox emails to the address. */
  emails: HeldEmail[];
  /** Outbox emails to others that carry its data: an organization's notice of its registration. */
  emailsAbout: HeldEmail[];
  /**
   * The .eml files under MAIL_DIR to it or about it (an organization's notice of its registration), by name; null when
   * MAIL_TRANSPORT is not file.
   */
  files: string[] | null;
}

export interface PersonErased {
  follows: number;
  registrations: number;
  invitations: number;
  links: number;
  emails: number;
  /** Stored answers to a registration's submit (idempotency_keys). */
  answers: number;
  membersCleared: number;
  registrationAddressesRemoved: number;
  files: string[];
  /** Files listed that could not be deleted, with the error's code. */
  filesLeft: Array<{ name: string; error: string }>;
}

export interface PersonOptions {
  /** MAIL_DIR when MAIL_TRANSPORT=file, else null (no file holds an email then). */
  mailDir: string | null;
}

/** Internal: the ids the erasure deletes, beside what is shown. */
interface Found {
  held: PersonHeld;
  followIds: string[];
  invitationIds: string[];
  registrationIds: string[];
  emailIds: number[];
}

/**
 * Every address column is read whole and matched here: SQL cannot compute deliveryKey, and email_outbox.mailbox
 * (mailboxOf, as it was when each row was queued) cannot be trusted to narrow it: a row queued before mailboxOf
 * learned a provider's spellings would be missed, and sent after the erasure. The outbox keeps 30 days; the rest
 * is an operator's command, run rarely.
 */
function find(store: SyncDb, email: string, options: PersonOptions): Found {
  const matches = deliveryMatcher(email);
  const spellings = new Set<string>();
  const mine = (address: string | null | undefined): boolean => {
    if (!matches(address)) return false;
    spellings.add(address!);
    return true;
  };
  const ids = <R extends { id: string | number; email: string | null }>(rows: R[]) => rows.filter((r) => mine(r.email)).map((r) => r.id);

  const followIds = ids(store.all(store.q.selectFrom('follows').select(['id', 'email']))) as string[];
  const follows = chunks(followIds).flatMap((chunk) =>
    store.all(
      store.q.selectFrom('follows as f')
        .innerJoin('organizations as o', 'o.id', 'f.org_id')
        .leftJoin('leagues as l', 'l.id', 'f.league_id')
        .select(['f.org_id', 'o.name as org_name', 'f.league_id', 'l.name as league_name', 'f.email', 'f.status', 'f.created_at',
          'f.last_confirmation_sent_at', 'f.confirmed_at', 'f.unsubscribed_at', 'f.language'])
        .where('f.id', 'in', chunk)
        .orderBy('f.created_at').orderBy('f.id'),
    ),
  );

  const registrationIds = ids(store.all(store.q.selectFrom('registrations').select(['id', 'email']))) as string[];
  const registrations: HeldRegistration[] = chunks(registrationIds).flatMap((chunk) =>
    store.all(
      store.q.selectFrom('registrations as r')
        .innerJoin('organizations as o', 'o.id', 'r.org_id')
        .leftJoin('divisions as d', 'd.id', 'r.division_id')
        .select(['r.id', 'r.org_id', 'o.name as org_name', 'r.division_id', 'd.name as division_name', 'r.created_at', 'r.name', 'r.name_ar',
          'r.email', 'r.phone', 'r.date_of_birth', 'r.guardian_name', 'r.guardian_phone', 'r.notes'])
        .where('r.id', 'in', chunk)
        .orderBy('r.created_at').orderBy('r.id'),
    ),
  ).map(({ id, org_id, org_name, division_id, division_name, created_at, ...fields }) => ({ id, org_id, org_name, division_id, division_name, created_at, fields }));

  const memberRows = store.all(
    store.q.selectFrom('team_members as tm').innerJoin('teams as t', 't.id', 'tm.team_id')
      .select(['tm.id', 'tm.name', 'tm.team_id', 't.name as team_name', 't.org_id', 'tm.email', 'tm.language'])
      .where('tm.email', 'is not', null)
      .orderBy('t.org_id').orderBy('tm.team_id').orderBy('tm.id'),
  );
  const members = memberRows.filter((m) => mine(m.email)) as HeldMember[];
  const memberIds = new Set(members.map((m) => m.id));

  // A member's invitations, and any invitation whose email went to the address (the member's address corrected since:
  // `npm run invite` has not moved it yet).
  const invitationRows = store.all(
    store.q.selectFrom('rsvp_invitations as i')
      .innerJoin('team_members as tm', 'tm.id', 'i.member_id').innerJoin('teams as t', 't.id', 'tm.team_id')
      .select(['i.id', 'i.match_id', 't.id as team_id', 't.name as team_name', 'tm.id as member_id', 'tm.name as member_name', 'i.email',
        'i.response as answer', 'i.responded_at as answered_at', 'i.created_at'])
      .orderBy('i.match_id').orderBy('t.id').orderBy('tm.id'),
  ).filter((i) => mine(i.email) || memberIds.has(i.member_id));
  const invitationIds = invitationRows.map((i) => i.id);
  const invitations: HeldInvitation[] = invitationRows.map(({ id: _id, ...rest }) => rest);

  const registrationAddresses: HeldRegistrationAddress[] = store
    .all(store.q.selectFrom('organizations').select(['id', 'name', 'registration_emails']).orderBy('id'))
    .flatMap((o) => (JSON.parse(o.registration_emails) as string[]).filter(mine).map((address) => ({ org_id: o.id, org_name: o.name, address })));

  const outbox = store.all(store.q.selectFrom('email_outbox').select(['id', 'to_address as email']));
  const toIds = new Set(ids(outbox) as number[]);
  const emailColumns = ['id', 'template as kind', 'to_address as to', 'status', 'created_at', 'sent_at'] as const;
  const emails: HeldEmail[] = chunks([...toIds]).flatMap((chunk) =>
    store.all(store.q.selectFrom('email_outbox').select(emailColumns).where('id', 'in', chunk)),
  ).sort((a, b) => a.id - b.id);
  // To others: what carries the person's data under an id (a registration's notice to its organization, which names
  // the player, their contact address and phone; an email about a follow or invitation whose address was another
  // spelling). Erased with what they are about.
  const carried: Array<[string, readonly string[], string]> = [
    ['$.registrationId', registrationIds, 'registration'],
    ['$.followId', followIds, 'follow'],
    ['$.invitationId', invitationIds, 'invitation'],
  ];
  const emailsAbout: HeldEmail[] = carried.flatMap(([key, list, what]) =>
    chunks(list).flatMap((chunk) =>
      store.all(
        store.q.selectFrom('email_outbox').select(emailColumns).select(sql<string>`json_extract(data_json, ${key})`.as('subject'))
          .where(sql<string>`json_extract(data_json, ${key})`, 'in', chunk),
      ),
    ).filter((e) => !toIds.has(e.id)).map(({ subject, ...e }) => ({ ...e, about: what === 'registration' ? `registration ${subject}` : `its ${what}` })),
  ).sort((a, b) => a.id - b.id);

  // The files of those emails: by their Message-ID's key while the outbox keeps the row (a notice to an organization
  // names the registrant; the diff review's erasure left two), and by To or Reply-To (the notice's Reply-To is the
  // registrant's address when it can carry it) once retention has dropped the row.
  const keys = new Set(
    chunks([...toIds, ...emailsAbout.map((e) => e.id)]).flatMap((chunk) =>
      store.all(store.q.selectFrom('email_outbox').select('message_key').where('id', 'in', chunk)).map((r) => r.message_key),
    ),
  );
  const files = options.mailDir === null ? null : emlFilesOf(options.mailDir, mine, keys);
  return {
    held: {
      email, mailbox: deliveryKey(email), spellings: [...spellings].sort(),
      follows, registrations, invitations, members, registrationAddresses, emails, emailsAbout, files,
    },
    followIds, invitationIds, registrationIds,
    emailIds: [...emails, ...emailsAbout].map((e) => e.id),
  };
}

/**
 * The .eml files directly under `dir` (a missing folder holds none), by name, that are the person's: To: or Reply-To:
 * theirs, written for one of the outbox rows of `keys` (their message keys), or whose text (decoded:
 * src/people/spellings.ts emlBodyText) `about` recognises (a removed registration's emails, whose rows may be gone).
 */
export function emlFilesOf(dir: string, mine: (address: string | undefined) => boolean, keys: ReadonlySet<string>, about?: (text: string) => boolean): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  // Dot names are the transport's files being written (src/mail/transports/file.ts).
  return names.filter((n) => n.endsWith('.eml') && !n.startsWith('.')).sort().filter((name) => {
    const file = path.join(dir, name);
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return false;
    const eml = fs.readFileSync(file, 'utf8');
    const key = emlMessageKey(eml);
    if (mine(emlRecipient(eml)) || mine(emlRecipient(eml, 'Reply-To')) || (key !== undefined && keys.has(key))) return true;
    return about !== undefined && about(emlBodyText(eml));
  });
}

/** Everything held about the mailbox `email` reaches. Reads only. */
export function personHeld(store: SyncDb, email: string, options: PersonOptions): PersonHeld {
  return find(store, email, options).held;
}

/**
 * Erases what personHeld finds, in one transaction: the follows, registrations and invitations with their links, the
 * outbox emails to the address (in any status: nothing queued leaves after) and about it, the stored answers to the
 * registrations' submits; the address cleared from the members and organizations that list it (their import files
 * still do). Then the .eml files. Returns what was held and what went.
 */
export function erasePerson(store: SyncDb, email: string, options: PersonOptions): { held: PersonHeld; erased: PersonErased } {
  const { found, erased } = store.transaction(() => {
    const found = find(store, email, options);
    const { held, followIds, invitationIds, registrationIds, emailIds } = found;
    const erased: PersonErased = {
      follows: 0, registrations: 0, invitations: 0, links: 0, emails: 0, answers: 0,
      membersCleared: 0, registrationAddressesRemoved: 0, files: [], filesLeft: [],
    };
    for (const chunk of chunks(followIds)) {
      erased.links += store.run(store.q.deleteFrom('link_tokens').where('purpose', 'in', FOLLOW_LINK_PURPOSES).where('subject_id', 'in', chunk));
      erased.follows += store.run(store.q.deleteFrom('follows').where('id', 'in', chunk));
    }
    for (const chunk of chunks(invitationIds)) {
      erased.links += store.run(store.q.deleteFrom('link_tokens').where('purpose', '=', 'rsvp').where('subject_id', 'in', chunk));
      erased.invitations += store.run(store.q.deleteFrom('rsvp_invitations').where('id', 'in', chunk));
    }
    for (const chunk of chunks(registrationIds)) {
      // The answer a retried submit would get again names the registration (src/db/idempotency.ts): `{"id": …}`.
      erased.answers += store.run(
        store.q.deleteFrom('idempotency_keys').where('scope', 'in', ['register', 'register:repeat'])
          .where(sql<string>`json_extract(response_body, '$.id')`, 'in', chunk),
      );
      erased.registrations += store.run(store.q.deleteFrom('registrations').where('id', 'in', chunk));
    }
    for (const chunk of chunks(emailIds)) erased.emails += store.run(store.q.deleteFrom('email_outbox').where('id', 'in', chunk));
    for (const chunk of chunks(held.members.map((m) => m.id))) {
      erased.membersCleared += store.run(store.q.updateTable('team_members').set({ email: null }).where('id', 'in', chunk));
    }
    const matches = deliveryMatcher(email);
    for (const orgId of new Set(held.registrationAddresses.map((a) => a.org_id))) {
      const row = store.first(store.q.selectFrom('organizations').select('registration_emails').where('id', '=', orgId))!;
      const before = JSON.parse(row.registration_emails) as string[];
      const after = before.filter((a) => !matches(a));
      erased.registrationAddressesRemoved += before.length - after.length;
      store.run(store.q.updateTable('organizations').set({ registration_emails: JSON.stringify(after) }).where('id', '=', orgId));
    }
    return { found, erased };
  });
  // After the commit: a file cannot be put back if the transaction failed.
  for (const name of found.held.files ?? []) {
    try {
      fs.rmSync(path.join(options.mailDir!, name), { force: true });
      erased.files.push(name);
    } catch (error) {
      erased.filesLeft.push({ name, error: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
    }
  }
  return { held: found.held, erased };
}
