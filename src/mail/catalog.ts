// Every email the platform sends, by name: the data its outbox row records (a zod schema, checked when it is
// queued and again when it is sent), the links it carries (minted by the worker at send time, so no raw token is
// ever stored), what must still hold when it leaves (send-time.ts), and how it renders. Services queue a name and
// its data; only the mail worker renders.
import { z } from 'zod';
import { leagueIsPublic } from '../competitions/visibility.js';
import type { LinkPurpose } from '../db/schema.js';
import type { SyncDb } from '../db/sync.js';
import { adjustmentToldSchema, CHANGE_KINDS, seenMatchSchema } from '../updates/changes.js';
import { rsvpAnswerSchema } from '../vocabulary/enums.js';
import { languageSchema, localizedName, type Language } from '../vocabulary/language.js';
import { matchSides } from '../rsvp/match-sides.js';
import { repeatOf } from '../registrations/repeat-of.js';
import { invitedAddressCurrent, rsvpState } from '../rsvp/state.js';
import { isOneAddress, listUnsubscribeHeaders, type Sender } from './headers.js';
import { withoutStrangersTag } from './mailbox.js';
import { competitionEventId, followConfirmAtSend, followUpdatesAtSend, isRegistrationAddress, readTold, registrationNoticeAtSend, registrationOverflowAtSend, registrationReceiptAtSend, rsvpChangeAtSend, rsvpInviteAtSend, rsvpWithdrawnAtSend, toldMatch, toldStateSchema, type AtSend, type InvitationFacts } from './send-time.js';
import { followConfirmationEmail } from './templates/follow-confirmation.js';
import { followUpdatesEmail } from './templates/follow-updates.js';
import type { RenderedEmail } from './templates/layout.js';
import { registrationNoticeEmail } from './templates/registration-notice.js';
import { registrationOverflowEmail } from './templates/registration-overflow.js';
import { registrationReceiptEmail } from './templates/registration-receipt.js';
import { rsvpChangeEmail } from './templates/rsvp-change.js';
import { rsvpInviteEmail } from './templates/rsvp-invite.js';
import { rsvpWithdrawnEmail } from './templates/rsvp-withdrawn.js';

export interface LinkSpec<D> {
  purpose: LinkPurpose;
  /** The row the link opens (a follow, an invitation). */
  subject: (data: D) => string;
  /** Path of the page under PUBLIC_BASE_URL; the token goes in its `token` parameter. */
  path: string;
  /** How long the link works; absent: as long as its subject exists. */
  ttlMs?: number;
  /** Whether the email (its data at send time) carries the link; absent: always. A link not carried is not minted. */
  when?: (data: D) => boolean;
}

export interface SentEmail extends RenderedEmail {
  headers: Record<string, string>;
  /** Where a reply goes; absent: to the From. */
  replyTo?: string;
  /** The organization the email is sent for, named in its From (headers.ts fromFor); absent: MAIL_FROM as it is. */
  sender?: Sender;
}

export interface EmailKind<S extends z.ZodType> {
  schema: S;
  links: Record<string, LinkSpec<z.output<S>>>;
  /**
   * Called by the worker just before it renders (inside the transaction that mints the links), at its clock's `now`:
   * what of the queued data may still be sent, or why nothing is. `to`: the outbox row's address, as queued. Absent:
   * the email is sent as it was queued.
   */
  atSend?: (store: SyncDb, data: z.output<S>, now: Date, to: string) => AtSend<z.output<S>>;
  /**
   * Sent to an address nobody has shown is theirs (anyone can type anyone's): its To: leaves out a +tag a stranger
   * could have chosen (mailbox.ts withoutStrangersTag). The outbox row keeps the address as typed.
   */
  unasked?: true;
  /**
   * The follow the email is sent for, which ends when the provider refuses its address for good (the mail worker:
   * src/follows/service.ts endUndeliverableFollow). Absent: the email is no follow's.
   */
  followOf?: (data: z.output<S>) => string;
  /**
   * The organization whose registration_emails the email goes to: the worker names it when the email fails for good,
   * since no one else learns of a notice lost (src/mail/worker.ts). Absent: the email is no registration notice.
   */
  noticeOf?: (data: z.output<S>) => string;
  /**
   * The organization the email is sent for, read at send time: its `contact_email` (migration 0026) is the email's
   * Reply-To, and `contact` in the render's context. Absent: the email is no organization's to the public (a
   * registration notice goes to the organization itself, and its reply to the family).
   */
  organizationOf?: (store: SyncDb, data: z.output<S>) => string | undefined;
  render(data: z.output<S>, links: Record<string, string>, context: RenderContext): SentEmail;
}

export interface RenderContext {
  /** PUBLIC_BASE_URL, for links that need no token (a competition's calendar). */
  baseUrl: string;
  /** When it is rendered, just before it is sent (an invitation's subject names a far-off match's year). */
  now: Date;
  /** The organization's contact_email (organizationOf), or null. */
  contact?: string | null;
}

const kind = <S extends z.ZodType>(k: EmailKind<S>): EmailKind<S> => k;

/** The organization an email is sent for, in the email's language. */
const senderOf = (data: { organizationName?: string | undefined; language: Language }): { sender?: Sender } =>
  data.organizationName ? { sender: { name: data.organizationName, language: data.language } } : {};

/**
 * An invitation and its match now, for the send-time checks of the emails to invitees, its teams named in `language`
 * (the email's, queued with it: an import that changed the member's language meanwhile does not make an English email
 * name the teams in Arabic); undefined once withdrawn.
 */
function invitationFacts(store: SyncDb, invitationId: string, now: Date, language: Language): InvitationFacts | undefined {
  const match = store.first(
    store.q.selectFrom('rsvp_invitations as i').innerJoin('team_members as tm', 'tm.id', 'i.member_id')
      .innerJoin('matches as m', 'm.id', 'i.match_id').innerJoin('events as e', 'e.id', 'm.event_id')
      .innerJoin('leagues as l', 'l.id', 'e.league_id').innerJoin('organizations as o', 'o.id', 'l.org_id')
      .select(['i.response', 'i.email as invited_email', 'i.told_json', 'tm.email as member_email', 'e.is_public', 'e.status as event_status', 'm.id', 'm.event_id', 'm.status', 'm.kickoff_at', 'm.venue', 'e.venue_city', 'o.name as org_name', 'o.name_ar as org_name_ar', 'o.language'])
      .where('i.id', '=', invitationId),
  );
  return match && {
    matchIsPublic: match.is_public === 1,
    state: rsvpState(match, now),
    kickoffAt: match.kickoff_at,
    venue: match.venue,
    venueOrCity: match.venue ?? match.venue_city,
    organizationName: localizedName(match.org_name, match.org_name_ar, match.language),
    response: match.response,
    addressCurrent: invitedAddressCurrent(match.invited_email, match.member_email),
    told: readTold(match.told_json),
    // What they are told next is compared by team, not name (send-time.ts sameTeams).
    teams: matchSides(store, match, language),
  };
}

/**
 * The send-time check of an email to an invitee, and, when it is sent, what it tells the member of the match
 * recorded on the invitation (in the transaction that renders it): the next change email compares with that.
 * Recorded as it is rendered, before the transport has it: an email Postmark then refuses for good (an inactive
 * address) still counts as told, which at worst leaves out a change that mailbox could not have received either.
 */
function atSendToInvitee<D>(
  store: SyncDb,
  data: { invitationId: string; language: Language },
  now: Date,
  check: (facts: InvitationFacts | undefined) => AtSend<D>,
): AtSend<D> {
  const { invitationId } = data;
  const facts = invitationFacts(store, invitationId, now, data.language);
  const decision = check(facts);
  const told = facts && toldMatch(facts);
  if ('send' in decision && told) {
    store.run(store.q.updateTable('rsvp_invitations').set({ told_json: JSON.stringify(told) }).where('id', '=', invitationId));
  }
  return decision;
}

/** Whether `to` is still one of the organization's registration_emails (none: the organization is gone). */
function listedForRegistrations(store: SyncDb, organizationId: string, to: string): boolean {
  const org = store.first(store.q.selectFrom('organizations').select('registration_emails').where('id', '=', organizationId));
  return org !== undefined && isRegistrationAddress(to, JSON.parse(org.registration_emails) as string[]);
}

/** Whether the registration is still kept (not past its retention, not erased). */
const registrationKept = (store: SyncDb, id: string) =>
  store.first(store.q.selectFrom('registrations').select('id').where('id', '=', id)) !== undefined;

const followOf = (store: SyncDb, id: string) =>
  store.first(store.q.selectFrom('follows').select(['status', 'league_id']).where('id', '=', id));

/** The organization of a follow, of an invitation's match, of a registration (organizationOf). */
const followOrganization = (store: SyncDb, data: { followId: string }) =>
  store.first(store.q.selectFrom('follows').select('org_id').where('id', '=', data.followId))?.org_id;
const invitationOrganization = (store: SyncDb, data: { invitationId: string }) =>
  store.first(
    store.q.selectFrom('rsvp_invitations as i').innerJoin('matches as m', 'm.id', 'i.match_id').innerJoin('events as e', 'e.id', 'm.event_id')
      .innerJoin('leagues as l', 'l.id', 'e.league_id').select('l.org_id').where('i.id', '=', data.invitationId),
  )?.org_id;
const registrationOrganization = (store: SyncDb, data: { registrationId: string }) =>
  store.first(store.q.selectFrom('registrations').select('org_id').where('id', '=', data.registrationId))?.org_id;

/** An organization's contact_email, when it has one an email's Reply-To can carry (checked as the .eml builder would). */
export function organizationContact(store: SyncDb, organizationId: string | undefined): string | null {
  if (organizationId === undefined) return null;
  const contact = store.first(store.q.selectFrom('organizations').select('contact_email').where('id', '=', organizationId))?.contact_email ?? null;
  return contact !== null && isOneAddress(contact) ? contact : null;
}

/** A follow's confirm link works for 7 days. */
export const CONFIRM_LINK_TTL_MS = 7 * 24 * 3600_000;
/**
 * An unsubscribe link works for a year after its email. RFC 8058 wants it to keep working a reasonable time after
 * the email (a person unsubscribes from an old one), and every email mints one: without an end, a follower of a
 * daily digest left 365 live credentials a year, for good. The retention job deletes it 30 days after it expired
 * (src/jobs/retention.ts), and every link of a follow 30 days after it unsubscribed.
 */
export const UNSUBSCRIBE_LINK_TTL_MS = 365 * 24 * 3600_000;

const name = z.string().min(1).max(400);
const instant = z.string().nullable();
/** What an email to an invitee about their match says of it: whose it is and for whom, and its teams, competition and clock. */
const toInvitee = {
  language: languageSchema,
  organizationName: name,
  memberName: name,
  homeName: name,
  awayName: name,
  eventName: name.nullable(),
  timeZone: z.string(),
};

export const CATALOG = {
  /** Rendered before it was queued: rows from before emails were rendered at send time, and tests. */
  prerendered: kind({
    schema: z.object({ subject: z.string(), text: z.string(), html: z.string(), headers: z.record(z.string(), z.string()).default({}) }),
    links: {},
    render: (data) => data,
  }),
  'follow-confirm': kind({
    unasked: true,
    schema: z.object({ followId: z.string(), language: languageSchema, organizationName: name, leagueName: name.nullable() }),
    links: {
      confirm: { purpose: 'follow-confirm', subject: (d) => d.followId, path: '/follow/confirm', ttlMs: CONFIRM_LINK_TTL_MS },
      unsubscribe: { purpose: 'follow-unsubscribe', subject: (d) => d.followId, path: '/follow/unsubscribe', ttlMs: UNSUBSCRIBE_LINK_TTL_MS },
    },
    atSend: (store, data) => {
      const follow = followOf(store, data.followId);
      const leaguePublic = follow?.league_id
        ? store.first(store.q.selectFrom('leagues').select('id').where('id', '=', follow.league_id).where((eb) => leagueIsPublic(eb.ref('leagues.id')))) !== undefined
        : null;
      return followConfirmAtSend(data, { followStatus: follow?.status, leagueIsPublic: leaguePublic });
    },
    organizationOf: followOrganization,
    render: (data, links) => ({
      ...followConfirmationEmail({ ...data, confirmUrl: links.confirm!, unsubscribeUrl: links.unsubscribe! }),
      headers: listUnsubscribeHeaders(links.unsubscribe!),
      ...senderOf(data),
    }),
  }),
  /** A follower's digest or alert: the changes in its scope (src/updates/). */
  'follow-updates': kind({
    schema: z.object({
      followId: z.string(),
      language: languageSchema,
      timeZone: z.string(),
      kind: z.enum(['digest', 'alert']),
      organizationName: name,
      leagueName: name.nullable(),
      competitions: z.array(z.object({
        name,
        /** Absent from rows queued before it was recorded: their link names it (competitionEventId). */
        eventId: z.string().optional(),
        calendarUrl: z.url(),
        changes: z.array(z.object({
          kind: z.enum(CHANGE_KINDS),
          before: seenMatchSchema.nullable(),
          after: seenMatchSchema.nullable(),
          champion: z.string().nullable().optional(),
          /** A new competition: its matches, and the next one's kickoff (absent from changes recorded before). */
          matches: z.number().int().min(0).optional(),
          nextKickoff: z.string().nullable().optional(),
          /** A team's points added or deducted. */
          adjustment: adjustmentToldSchema.optional(),
        })).min(1),
      })).min(1),
    }),
    links: {
      unsubscribe: { purpose: 'follow-unsubscribe', subject: (d) => d.followId, path: '/follow/unsubscribe', ttlMs: UNSUBSCRIBE_LINK_TTL_MS },
    },
    followOf: (data) => data.followId,
    organizationOf: followOrganization,
    atSend: (store, data) => {
      const ids = data.competitions.map(competitionEventId).filter((id) => id !== undefined);
      const publicIds = new Set(
        ids.length === 0 ? [] : store.all(store.q.selectFrom('events').select('id').where('id', 'in', ids).where('is_public', '=', 1)).map((e) => e.id),
      );
      return followUpdatesAtSend(data, { followStatus: followOf(store, data.followId)?.status, isPublic: (id) => publicIds.has(id) });
    },
    // The calendar links are made at send time from PUBLIC_BASE_URL, like the invitation's: the calendarUrl a row
    // holds is the base of whatever queued it (`npm run updates` from a shell without the server's PUBLIC_BASE_URL,
    // a server since moved to its public address), kept only for rows queued before eventId was recorded.
    render: (data, links, { baseUrl }) => ({
      ...followUpdatesEmail({
        ...data,
        competitions: data.competitions.map((c) =>
          c.eventId === undefined ? c : { ...c, calendarUrl: `${baseUrl}/api/v0/calendar/${encodeURIComponent(c.eventId)}` },
        ),
        unsubscribeUrl: links.unsubscribe!,
      }),
      headers: listUnsubscribeHeaders(links.unsubscribe!),
      ...senderOf(data),
    }),
  }),
  'rsvp-invite': kind({
    schema: z.object({
      invitationId: z.string(),
      language: languageSchema,
      memberName: name,
      eventName: name.nullable(),
      homeName: name,
      awayName: name,
      kickoffAt: instant,
      /** Rows queued before time zones: UTC. */
      timeZone: z.string().default('UTC'),
      venue: name.nullable(),
      /** The match's competition: the email offers its calendar. Absent in rows queued before it was recorded. */
      eventId: z.string().optional(),
      /**
       * The member's team in the match: the email offers the team's calendar rather than the competition's (a
       * player subscribed to every club's matches; a calendar user's review). Absent in rows queued before it was.
       */
      teamId: z.string().optional(),
      /** The sender the email names. Absent in rows queued before it was recorded: the send-time check reads it. */
      organizationName: name.optional(),
      /** Set at send time (never queued: invite refuses a postponed match): the match is postponed since. */
      postponed: z.boolean().optional(),
    }),
    links: { rsvp: { purpose: 'rsvp', subject: (d) => d.invitationId, path: '/rsvp' } },
    atSend: (store, data, now) => atSendToInvitee(store, data, now, (invitation) => rsvpInviteAtSend(data, { invitation })),
    organizationOf: invitationOrganization,
    render: (data, links, { baseUrl, now }) => ({
      ...rsvpInviteEmail({
        ...data,
        sentAt: now,
        rsvpUrl: links.rsvp!,
        ...(data.teamId !== undefined
          ? { calendarUrl: `${baseUrl}/api/v0/teams/${encodeURIComponent(data.teamId)}/calendar`, calendarOf: 'team' as const }
          : { calendarUrl: data.eventId === undefined ? null : `${baseUrl}/api/v0/calendar/${encodeURIComponent(data.eventId)}` }),
      }),
      headers: {},
      ...senderOf(data),
    }),
  }),
  /**
   * To an invited member whose match changed after their invitation went out (src/rsvp/tell-invitees.ts). Queued
   * with the change; `state`, `kickoffAt`, `venue` and `response` are the match and answer as they are when it leaves.
   */
  'rsvp-change': kind({
    schema: z.object({
      invitationId: z.string(),
      ...toInvitee,
      /**
       * The match as the member knew it; `postponed`: they were told it was (its stored kickoff did not hold);
       * `cancelled`: they were told it would not be played (it is back on); `teams`: who was to play it, when others
       * do now (set at send time, or queued by the import that changed them).
       */
      before: z.object({
        kickoffAt: instant, venue: name.nullable(), postponed: z.boolean().default(false), cancelled: z.boolean().default(false),
        teams: z.object({ homeId: z.string().nullable(), awayId: z.string().nullable(), homeName: name, awayName: name }).optional(),
      }),
      state: toldStateSchema,
      kickoffAt: instant,
      venue: name.nullable(),
      /** The teams' ids as it leaves (set at send time; null: a slot still to be decided). */
      homeId: z.string().nullable().optional(),
      awayId: z.string().nullable().optional(),
      response: rsvpAnswerSchema.nullable(),
    }),
    // A match that will not be played has nothing left to answer: its email carries no link.
    links: { rsvp: { purpose: 'rsvp', subject: (d) => d.invitationId, path: '/rsvp', when: (d) => d.state === 'open' || d.state === 'postponed' } },
    atSend: (store, data, now) => atSendToInvitee(store, data, now, (invitation) => rsvpChangeAtSend(data, { invitation })),
    organizationOf: invitationOrganization,
    render: (data, links, { now }) => ({ ...rsvpChangeEmail({ ...data, rsvpUrl: links.rsvp ?? null, sentAt: now }), headers: {}, ...senderOf(data) }),
  }),
  /**
   * To a member whose invitation the import withdrew because their team no longer plays the match (src/rsvp/
   * tell-invitees.ts tellWithdrawn): the match as they were invited to it, and their answer, which no longer counts.
   * No link: the invitation and its links are gone.
   */
  'rsvp-withdrawn': kind({
    schema: z.object({
      memberId: z.string(),
      matchId: z.string(),
      ...toInvitee,
      /** The member's team now; `moved`: they moved to it (else it lost its place in the match). */
      teamName: name,
      moved: z.boolean(),
      /** They were told it was postponed: no kickoff held. */
      postponed: z.boolean().default(false),
      kickoffAt: instant,
      venue: name.nullable(),
      response: rsvpAnswerSchema.nullable(),
    }),
    links: {},
    atSend: (store, data, now, to) => {
      const member = store.first(store.q.selectFrom('team_members').select(['email', 'team_id']).where('id', '=', data.memberId));
      const invitedAgain = store.first(
        store.q.selectFrom('rsvp_invitations').select('id').where('member_id', '=', data.memberId).where('match_id', '=', data.matchId),
      ) !== undefined;
      const match = store.first(
        store.q.selectFrom('matches as m').innerJoin('events as e', 'e.id', 'm.event_id')
          .select(['m.id', 'm.event_id', 'm.status', 'm.kickoff_at', 'm.updated_at', 'e.status as event_status']).where('m.id', '=', data.matchId),
      );
      // Their team back in the match (a correction undone before this left): not to be told to stay away.
      const sides = match && member && matchSides(store, match, data.language);
      return rsvpWithdrawnAtSend(data, {
        addressCurrent: member !== undefined && invitedAddressCurrent(to, member.email),
        invitedAgain,
        teamPlays: sides !== undefined && (sides.homeId === member!.team_id || sides.awayId === member!.team_id),
        state: match && rsvpState(match, now),
      });
    },
    organizationOf: (store, data) =>
      store.first(store.q.selectFrom('team_members as tm').innerJoin('teams as t', 't.id', 'tm.team_id').select('t.org_id').where('tm.id', '=', data.memberId))?.org_id,
    render: (data, _links, { now, contact }) => ({
      ...rsvpWithdrawnEmail({ ...data, contact: contact ?? null, sentAt: now }),
      headers: {},
      ...senderOf(data),
    }),
  }),
  /** To the contact address: nothing the submitter typed (see the template). */
  'registration-receipt': kind({
    unasked: true,
    schema: z.object({
      language: languageSchema,
      organizationName: name,
      divisionName: name.nullable(),
      registrationId: z.string(),
      submittedAt: instant.default(null),
      timeZone: z.string().default('UTC'),
    }),
    links: {},
    atSend: (store, data) => registrationReceiptAtSend(data, { registrationKept: registrationKept(store, data.registrationId) }),
    organizationOf: registrationOrganization,
    render: (data, _links, { contact }) => ({ ...registrationReceiptEmail({ ...data, contact: contact ?? null }), headers: {}, ...senderOf(data) }),
  }),
  /**
   * To a registration address past its daily cap of notices, at most one waiting at a time, due an hour after the
   * first registration it covers (src/registrations/service.ts): how many arrived since, counted as it leaves.
   */
  'registration-overflow': kind({
    schema: z.object({
      language: languageSchema,
      organizationId: z.string(),
      organizationName: name,
      timeZone: z.string(),
      since: z.string(),
      count: z.number().int().nonnegative(),
      cap: z.number().int().positive(),
    }),
    links: {},
    atSend: (store, data, now, to) => {
      const listed = registrationNoticeAtSend(data, { addressListed: listedForRegistrations(store, data.organizationId, to) });
      if ('cancel' in listed) return listed;
      const counted = store.first(
        store.q.selectFrom('registrations').select((eb) => eb.fn.countAll<number>().as('count'))
          .where('org_id', '=', data.organizationId).where('created_at', '>=', data.since).where('created_at', '<=', now.toISOString()),
      );
      return registrationOverflowAtSend(data, counted?.count ?? 0);
    },
    noticeOf: (data) => data.organizationId,
    render: (data) => ({ ...registrationOverflowEmail(data), headers: {} }),
  }),
  /** To each of the organization's registration_emails. */
  'registration-notice': kind({
    schema: z.object({
      language: languageSchema,
      organizationId: z.string(),
      organizationName: name,
      divisionName: name.nullable(),
      registrationId: z.string(),
      submittedAt: z.string(),
      timeZone: z.string(),
      playerName: name,
      playerNameAr: name.nullable(),
      email: z.string(),
      phone: z.string().nullable(),
      dateOfBirth: z.string().nullable(),
      guardianName: name.nullable(),
      guardianPhone: z.string().nullable(),
      hasNotes: z.boolean(),
      /** The last notice before the address's daily cap, which this is (registration-notice.ts). */
      lastBeforeCap: z.number().int().positive().optional(),
      /** The earlier registration this one repeats (src/registrations/repeat-of.ts), set at send time; null: none. */
      repeatOf: z.object({ id: z.string(), submittedAt: z.string(), by: z.enum(['date_of_birth', 'email']) }).nullable().optional(),
    }),
    links: {},
    atSend: (store, data, _now, to) =>
      registrationNoticeAtSend({ ...data, repeatOf: repeatOf(store, data.registrationId) }, {
        registrationKept: registrationKept(store, data.registrationId),
        addressListed: listedForRegistrations(store, data.organizationId, to),
      }),
    noticeOf: (data) => data.organizationId,
    // The organization's reply reaches the person who registered, not no-reply@ (a review). That address is the
    // submitter's own word, as the notice says; the organization decides whether to write to it. One it cannot carry
    // (checked as the .eml builder would) leaves the reply to the From rather than failing the notice.
    render: (data) => ({ ...registrationNoticeEmail(data), headers: {}, ...(isOneAddress(data.email) ? { replyTo: data.email } : {}) }),
  }),
} as const;

export type TemplateName = keyof typeof CATALOG;

/**
 * The emails whose data names an invitation (`invitationId`): its invitation, and a change of its match. Not
 * rsvp-withdrawn, whose invitation is deleted as it is queued: it names the member and the match.
 */
export const INVITATION_EMAILS = ['rsvp-invite', 'rsvp-change'] as const satisfies readonly TemplateName[];
export type TemplateData<N extends TemplateName> = z.input<(typeof CATALOG)[N]['schema']>;

export function isTemplateName(value: string): value is TemplateName {
  return Object.hasOwn(CATALOG, value);
}

/** The follow an outbox row's email was sent for (its kind's followOf), or null: none, or data that does not read. */
export function followOfRow(row: { template: string; data_json: string }): string | null {
  return ofRow(row, 'followOf');
}

/** The organization an outbox row's registration notice was sent for (its kind's noticeOf), or null. */
export function noticeOfRow(row: { template: string; data_json: string }): string | null {
  return ofRow(row, 'noticeOf');
}

function ofRow(row: { template: string; data_json: string }, reader: 'followOf' | 'noticeOf'): string | null {
  if (!isTemplateName(row.template)) return null;
  const kind = CATALOG[row.template] as EmailKind<z.ZodType>;
  const read = kind[reader];
  if (!read) return null;
  try {
    const parsed = kind.schema.safeParse(JSON.parse(row.data_json));
    return parsed.success ? read(parsed.data) : null;
  } catch {
    return null;
  }
}

/** The To: of an outbox row's email: the address as queued, or, for an email nobody asked for, without a stranger's tag. */
export function recipientOf(row: { template: string; to_address: string }): string {
  const unasked = isTemplateName(row.template) && (CATALOG[row.template] as EmailKind<z.ZodType>).unasked === true;
  return unasked ? withoutStrangersTag(row.to_address) : row.to_address;
}
