// What `npm run person` prints (src/people/person.ts finds it): each kind of thing held, said even when there is none,
// so that an access request is answered whole; never an email's content nor a link. Text names a registration only
// (organization, division, when); JSON adds its fields, for the person who asked. Pure.
import { plural } from '../text/plural.js';
import type { HeldEmail, PersonErased, PersonHeld } from './person.js';
import type { Language } from '../vocabulary/language.js';

/** A language as the operator's report names it. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ar: 'Arabic' };

const named = (id: string, name: string | null) => (name === null ? id : `${name} (${id})`);

/** Whether anything at all is held. */
export function holdsAnything(held: PersonHeld): boolean {
  return (
    held.follows.length + held.registrations.length + held.invitations.length + held.members.length +
      held.registrationAddresses.length + held.emails.length + held.emailsAbout.length + (held.files?.length ?? 0) > 0
  );
}

function who(held: PersonHeld): string {
  const spellings = held.spellings.length === 0 ? '' : `; spellings found: ${held.spellings.join(', ')}`;
  return `${held.email} (the mailbox ${held.mailbox}${spellings})`;
}

function emailLine(e: HeldEmail): string {
  const about = e.about === undefined ? '' : `, about ${e.about}`;
  const sent = e.sent_at === null ? '' : `, sent ${e.sent_at}`;
  return `  #${e.id} ${e.kind}${about}: ${e.status}; queued ${e.created_at}${sent}`;
}

function section<T>(title: string, rows: readonly T[], line: (row: T) => string): string[] {
  return rows.length === 0 ? [`${title}: none`] : [`${title} (${rows.length}):`, ...rows.map(line)];
}

/** The listing: everything held, by kind. */
export function heldText(held: PersonHeld): string {
  if (!holdsAnything(held)) {
    return `nothing is held about ${held.email} (the mailbox ${held.mailbox}): no follow, registration, RSVP invitation, team member, ` +
      `organization's registration address, outbox email${held.files === null ? '' : ' or .eml file'}\n`;
  }
  const lines = [
    `held about ${who(held)}:`,
    ...section('follows', held.follows, (f) =>
      `  ${named(f.org_id, f.org_name)}${f.league_id === null ? '' : `, league ${named(f.league_id, f.league_name)}`}: ${f.status}; ` +
      `asked ${f.created_at}${f.confirmed_at ? `, confirmed ${f.confirmed_at}` : ''}${f.unsubscribed_at ? `, unsubscribed ${f.unsubscribed_at}` : ''}` +
      `${f.language ? `; emails in ${LANGUAGE_NAMES[f.language]}` : ''}`),
    ...section('registrations where it is the contact address (the player\'s, or their guardian\'s; --format json shows their fields)', held.registrations, (r) =>
      `  ${r.id}: ${named(r.org_id, r.org_name)}${r.division_id === null ? '' : `, division ${named(r.division_id, r.division_name)}`}, created ${r.created_at}`),
    ...section('RSVP invitations', held.invitations, (i) =>
      `  match ${i.match_id}, team ${named(i.team_id, i.team_name)}, member ${named(i.member_id, i.member_name)}: ` +
      `${i.answer === null ? 'not answered' : `answered ${i.answer} ${i.answered_at}`}`),
    ...section('team members with this address (their organization\'s import file)', held.members, (m) =>
      `  ${named(m.id, m.name)}, team ${named(m.team_id, m.team_name)}, organization ${m.org_id}${m.language ? `; emails in ${LANGUAGE_NAMES[m.language]}` : ''}`),
    ...section('organizations sending their registration notices to it (their import file\'s registration_emails)', held.registrationAddresses, (a) =>
      `  ${named(a.org_id, a.org_name)}: ${a.address}`),
    ...section('outbox emails to it (never their content)', held.emails, emailLine),
    ...section('outbox emails to others about it', held.emailsAbout, emailLine),
    ...(held.files === null
      ? ['.eml files: none (MAIL_TRANSPORT is not file)']
      : section('.eml files under MAIL_DIR to it or about it', held.files, (name) => `  ${name}`)),
  ];
  return `${lines.join('\n')}\n`;
}

/** What the erasure did, and what the organizations must still do. */
export function erasedText(held: PersonHeld, erased: PersonErased): string {
  if (!holdsAnything(held)) return `nothing is held about ${held.email} (the mailbox ${held.mailbox}): nothing erased\n`;
  const pending = [...held.emails, ...held.emailsAbout].filter((e) => e.status === 'pending').length;
  const lines = [
    `erased what was held about ${who(held)}:`,
    `  ${plural(erased.follows, 'follow')}`,
    `  ${plural(erased.registrations, 'registration')}${held.registrations.length === 0 ? '' : ` (${held.registrations.map((r) => r.id).join(', ')})`}` +
      `, and ${plural(erased.answers, 'stored answer')} to their submit`,
    `  ${plural(erased.invitations, 'RSVP invitation')}${held.invitations.length === 0 ? '' : ` (${held.invitations.map((i) => `match ${i.match_id}`).join(', ')})`}`,
    `  ${plural(erased.links, 'link')} of those (their hashes)`,
    `  ${plural(erased.emails, 'outbox email')}${pending === 0 ? '' : ` (${pending} still queued: never sent)`}`,
    ...(held.files === null ? [] : [`  ${plural(erased.files.length, '.eml file')} under MAIL_DIR${erased.files.length === 0 ? '' : `: ${erased.files.join(', ')}`}`]),
    ...erased.filesLeft.map((f) => `  NOT deleted: ${f.name} (${f.error}): delete it by hand`),
    ...held.members.map((m) =>
      `  the address of member ${named(m.id, m.name)} of team ${m.team_id} cleared: organization ${m.org_id} must also remove it from its ` +
      'import file, else its next import brings it back'),
    ...held.registrationAddresses.map((a) =>
      `  ${a.address} removed from organization ${a.org_id}'s registration_emails: it gets no registration notice there now, and must ` +
      'also remove it from its import file, else its next import brings it back'),
  ];
  return `${lines.join('\n')}\n`;
}

/** Both, as JSON: the registrations with their fields; `erased` when something was. */
export function personJson(held: PersonHeld, erased?: PersonErased): string {
  const doc = {
    email: held.email,
    mailbox: held.mailbox,
    spellings: held.spellings,
    follows: held.follows,
    registrations: held.registrations,
    invitations: held.invitations,
    members: held.members,
    registration_addresses: held.registrationAddresses,
    emails: held.emails,
    emails_about: held.emailsAbout,
    eml_files: held.files,
    ...(erased === undefined
      ? {}
      : {
          erased: {
            follows: erased.follows, registrations: erased.registrations, invitations: erased.invitations, links: erased.links,
            emails: erased.emails, answers: erased.answers, members_cleared: erased.membersCleared,
            registration_addresses_removed: erased.registrationAddressesRemoved, eml_files: erased.files, eml_files_left: erased.filesLeft,
          },
        }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
