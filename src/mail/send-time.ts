// What an email queued earlier may still say when it leaves. An outbox row can wait a long time before it is sent
// (Postmark down or refusing our setup: sending paused, for as long as that lasts; the server stopped), and
// meanwhile a follower may unsubscribe with one click or an organizer make a competition private. The checks done when the email was queued (src/updates/run.ts
// tells only public competitions to active follows) are therefore done again by the worker, just before it renders:
// the rules here are pure (the facts come from the database, read by the catalog's `atSend`), and an email with
// nothing left to say is cancelled, never sent.
//
// A cancelled email's reason goes to the outbox row and the worker's log: it is one of the fixed sentences below,
// never a name, an address or anything else from the row.
import { z } from 'zod';
import type { RsvpState } from '../rsvp/state.js';
import type { FollowStatus, RsvpAnswer } from '../vocabulary/enums.js';
import { parseMailbox } from './headers.js';
import { deliveryMatcher } from './mailbox.js';

/** The data to send now (possibly less than was queued), or why the email is no longer sent. */
export type AtSend<D> = { send: D } | { cancel: string };

export const CANCEL_REASONS = {
  noRegistrationsLeft: 'the registrations it counted are no longer kept',
  followNotActive: 'the follow is no longer active',
  followNotPending: 'the follow is no longer waiting for its confirmation',
  nothingPublic: 'none of its competitions is public any more',
  leagueNotPublic: 'its league has no public competition any more',
  matchNotPublic: 'its match is no longer in a public competition',
  invitationWithdrawn: 'its invitation was withdrawn (the member\'s address changed or was removed, or their team no longer plays the match)',
  addressChanged: 'its member\'s address changed or was removed since its invitation',
  matchCancelled: 'its match will not be played (cancelled, or its competition is)',
  matchStarted: 'its match has kicked off or been played (answers are closed)',
  matchAsBefore: 'its match is as its member was last told',
  invitedAgain: 'its member is invited to the match again',
  teamPlaysAgain: 'its member\'s team plays the match again',
  memberReaddressed: 'its member was removed, or their address changed, since',
  matchRemoved: 'its match was removed',
  registrationGone: 'the registration is no longer kept',
  notRegistrationAddress: 'its address is no longer one of its organization\'s registration_emails',
} as const;

/**
 * The competition a follower's calendar link names. The updates job builds it as
 * `${PUBLIC_BASE_URL}/api/v0/calendar/${eventId}` (ids are URL-safe, so never encoded); rows queued before the
 * job recorded the id itself have no other trace of the event: the id is read back from the link's last path
 * segment (PUBLIC_BASE_URL may carry a path of its own). Anything else is undefined, and a competition without a
 * readable id is dropped, never sent.
 */
export function eventIdOfCalendarUrl(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  return /\/api\/v0\/calendar\/([A-Za-z0-9][A-Za-z0-9_-]{0,63})$/.exec(pathname)?.[1];
}

/** The competition a digest's entry is about: its recorded id, or, in a row queued before ids were recorded, its link's. */
export function competitionEventId(c: { eventId?: string | undefined; calendarUrl: string }): string | undefined {
  return c.eventId ?? eventIdOfCalendarUrl(c.calendarUrl);
}

interface FollowUpdatesLike<C extends { calendarUrl: string }> {
  competitions: C[];
}

/**
 * A follower's digest or alert: only to a follow still active (an unsubscribe since it was queued stops it), and
 * only about competitions still public (README: nothing about a private competition, ever). When no competition
 * is left, nothing is sent.
 */
export function followUpdatesAtSend<C extends { eventId?: string | undefined; calendarUrl: string }, D extends FollowUpdatesLike<C>>(
  data: D,
  facts: { followStatus: FollowStatus | undefined; isPublic: (eventId: string) => boolean },
): AtSend<D> {
  if (facts.followStatus !== 'active') return { cancel: CANCEL_REASONS.followNotActive };
  const competitions = data.competitions.filter((c) => {
    const id = competitionEventId(c);
    return id !== undefined && facts.isPublic(id);
  });
  if (competitions.length === 0) return { cancel: CANCEL_REASONS.nothingPublic };
  return { send: competitions.length === data.competitions.length ? data : { ...data, competitions } };
}

/**
 * A follow's confirmation: only while the follow still waits for it. Once it is active (confirmed through an
 * earlier email) the email would only say so; once unsubscribed, its owner said stop, and its confirm link would
 * not work anyway. A league follow whose league has no public competition any more is, to the public, a follow of
 * an unknown id (README, decisions): the email would name a private league, so it is not sent (the follow stays
 * pending, and a new request for it is refused like any unknown league).
 */
export function followConfirmAtSend<D>(
  data: D,
  facts: { followStatus: FollowStatus | undefined; leagueIsPublic: boolean | null },
): AtSend<D> {
  if (facts.followStatus !== 'pending') return { cancel: CANCEL_REASONS.followNotPending };
  if (facts.leagueIsPublic === false) return { cancel: CANCEL_REASONS.leagueNotPublic };
  return { send: data };
}

/**
 * A match invitation: only while it stands (`npm run invite` withdraws one whose member's address changed: this
 * email would carry a working link to the old address) and its match is in a public competition (README, RSVP: a
 * competition made private takes its matches out of public hands; its link would answer 404). An invitation whose
 * match is gone is gone with it, and one whose member's address was corrected or removed since sends nothing more to
 * the old address (src/rsvp/state.ts invitedAddressCurrent). Where the match stands (`state`, src/rsvp/state.ts) decides the rest: a match
 * cancelled since (or of a competition cancelled since) will not be played, and one that has kicked off or been
 * played since (an email waits a day of retries, or through an outage) can no longer be answered: nobody is asked.
 * Otherwise the email shows the match as it is now, not as it was when queued: its kickoff and venue, and, postponed, no kickoff at all but that it
 * is postponed (the old one no longer holds). The sender is the organization (rows queued before it was recorded get
 * it here).
 */
export function rsvpInviteAtSend<D extends RsvpInviteLike>(
  data: D,
  facts: { invitation: Omit<InvitationFacts, 'response' | 'venueOrCity' | 'told'> | undefined },
): AtSend<D> {
  const { invitation } = facts;
  if (!invitation) return { cancel: CANCEL_REASONS.invitationWithdrawn };
  if (!invitation.addressCurrent) return { cancel: CANCEL_REASONS.addressChanged };
  if (!invitation.matchIsPublic) return { cancel: CANCEL_REASONS.matchNotPublic };
  switch (invitation.state) {
    case 'cancelled':
    case 'competition_cancelled':
      return { cancel: CANCEL_REASONS.matchCancelled };
    case 'kicked_off':
    case 'played':
      return { cancel: CANCEL_REASONS.matchStarted };
    case 'open':
    case 'postponed':
      return {
        send: {
          ...data,
          kickoffAt: invitation.kickoffAt,
          venue: invitation.venue,
          postponed: invitation.state === 'postponed',
          // Who plays it now: a corrected result may have put another team in the slot since the row was queued.
          homeName: invitation.teams.homeName,
          awayName: invitation.teams.awayName,
          organizationName: data.organizationName ?? invitation.organizationName,
        },
      };
  }
}

/** Where a match stood as an email to its invitee showed it: the RSVP states (src/rsvp/state.ts) an email is sent in. */
export const toldStateSchema = z.enum(['open', 'postponed', 'cancelled', 'competition_cancelled']);

/**
 * The match as an email to its invitee showed it: where it stood, its kickoff and venue, and who played it (each
 * side's team and name as told; absent in what was recorded before teams were, which is then no news of teams).
 */
export interface ToldMatch {
  state: z.output<typeof toldStateSchema>;
  kickoffAt: string | null;
  venue: string | null;
  teams?: ToldTeams | undefined;
}

const toldTeamsSchema = z.object({
  homeId: z.string().nullable(),
  awayId: z.string().nullable(),
  homeName: z.string(),
  awayName: z.string(),
});
export type ToldTeams = z.output<typeof toldTeamsSchema>;

const toldMatchSchema = z.object({
  state: toldStateSchema,
  kickoffAt: z.string().nullable(),
  venue: z.string().nullable(),
  teams: toldTeamsSchema.optional(),
});

/** An invitation's told_json read back; null when nothing was told yet, or when it cannot be read (as nothing told). */
export function readTold(json: string | null): ToldMatch | null {
  if (json === null) return null;
  try {
    return toldMatchSchema.safeParse(JSON.parse(json)).data ?? null;
  } catch {
    return null;
  }
}

/** What the send-time checks of a match's emails to its invitees read: the invitation and its match now. */
export interface InvitationFacts {
  matchIsPublic: boolean;
  state: RsvpState;
  kickoffAt: string | null;
  venue: string | null;
  /** The venue as the updates job compares it (src/updates/detect.ts): the match's own, else its event's city. */
  venueOrCity: string | null;
  organizationName: string;
  response: RsvpAnswer | null;
  /** The invitation's address is still its member's (src/rsvp/state.ts invitedAddressCurrent). */
  addressCurrent: boolean;
  /** Who plays the match now, as its members read it (src/rsvp/match-sides.ts). */
  teams: ToldTeams;
  /** What the member was last told (recorded as each email leaves, toldMatch); null before the first. */
  told: ToldMatch | null;
}

/** What an email about to leave tells the member of their match (it becomes the invitation's told_json). */
export function toldMatch(invitation: Pick<InvitationFacts, 'state' | 'kickoffAt' | 'venueOrCity' | 'teams'>): ToldMatch | null {
  const { state } = invitation;
  if (state !== 'open' && state !== 'postponed' && state !== 'cancelled' && state !== 'competition_cancelled') return null;
  return { state, kickoffAt: invitation.kickoffAt, venue: invitation.venueOrCity, teams: invitation.teams };
}

/**
 * Whether the teams told still play the match: by team, not by name (a team renamed is not a new opponent). Nothing
 * told of teams (recorded before they were) is taken as them.
 */
export const sameTeams = (told: ToldTeams | undefined, now: ToldTeams | undefined): boolean =>
  told === undefined || now === undefined || (told.homeId === now.homeId && told.awayId === now.awayId);

/**
 * Whether the match now is what the member was told: the same state, the same teams and, open, the same kickoff and
 * venue. A match that will not be played is as told once they were told so, whoever was to play it.
 */
export function asTold(told: ToldMatch, now: ToldMatch): boolean {
  const cancelled = (s: ToldMatch['state']) => s === 'cancelled' || s === 'competition_cancelled';
  if (cancelled(told.state) || cancelled(now.state)) return cancelled(told.state) && cancelled(now.state);
  if (told.state !== now.state || !sameTeams(told.teams, now.teams)) return false;
  return now.state === 'postponed' || (told.kickoffAt === now.kickoffAt && told.venue === now.venue);
}

/**
 * A member told their match changed (src/rsvp/tell-invitees.ts): only while the invitation stands for the member's
 * address and its match is public, as for the invitation, and not once the match has kicked off or been played
 * (nothing is left to answer). It compares the match as it is when the email leaves with what the member was last
 * told (the invitation's `told`; for invitations from before that was recorded, the change's own `before`): the
 * same is no news and nothing is sent (moved and moved back; invited right after the move, so shown the new
 * kickoff already). Otherwise it shows the match now beside what they were told, and their answer then: one email
 * waits per invitation, so the member is told where things stand, once.
 */
export function rsvpChangeAtSend<D extends RsvpChangeLike>(data: D, facts: { invitation: InvitationFacts | undefined }): AtSend<D> {
  const { invitation } = facts;
  if (!invitation) return { cancel: CANCEL_REASONS.invitationWithdrawn };
  if (!invitation.addressCurrent) return { cancel: CANCEL_REASONS.addressChanged };
  if (!invitation.matchIsPublic) return { cancel: CANCEL_REASONS.matchNotPublic };
  const now = toldMatch(invitation);
  if (now === null) return { cancel: CANCEL_REASONS.matchStarted };
  // Recorded before teams were: the teams the change was queued with (the import that gave the slot another team).
  const told: ToldMatch = invitation.told ? { ...invitation.told, teams: invitation.told.teams ?? data.before.teams } : {
    state: data.before.postponed ? 'postponed' : data.before.cancelled ? 'cancelled' : 'open',
    kickoffAt: data.before.kickoffAt,
    venue: data.before.venue,
    teams: data.before.teams,
  };
  if (asTold(told, now)) return { cancel: CANCEL_REASONS.matchAsBefore };
  // The teams told, only when others play it now: the email then says who the member plays instead.
  const teamsBefore = sameTeams(told.teams, now.teams) ? {} : { teams: told.teams };
  return {
    send: {
      ...data,
      before: { kickoffAt: told.kickoffAt, venue: told.venue, postponed: told.state === 'postponed', cancelled: told.state === 'cancelled' || told.state === 'competition_cancelled', ...teamsBefore },
      state: now.state,
      kickoffAt: now.kickoffAt,
      venue: now.venue,
      homeName: invitation.teams.homeName,
      awayName: invitation.teams.awayName,
      homeId: invitation.teams.homeId,
      awayId: invitation.teams.awayId,
      response: invitation.response,
    },
  };
}

/**
 * A member told their invitation was withdrawn (the import: their team no longer plays the match): only while the
 * member is still at the address it goes to, not once they are invited to the match again (the organizer undid the
 * change: the new invitation says it all) nor while their team plays it again (undone, not invited again yet: a
 * review's players were told to stay away from a match their team played), and only while the match is still to be
 * answered for: once it kicked off, was played or will not be played, there is nothing to stay home from.
 */
export function rsvpWithdrawnAtSend<D>(
  data: D,
  facts: { addressCurrent: boolean; invitedAgain: boolean; teamPlays: boolean; state: RsvpState | undefined },
): AtSend<D> {
  if (!facts.addressCurrent) return { cancel: CANCEL_REASONS.memberReaddressed };
  if (facts.invitedAgain) return { cancel: CANCEL_REASONS.invitedAgain };
  if (facts.teamPlays) return { cancel: CANCEL_REASONS.teamPlaysAgain };
  if (facts.state === undefined) return { cancel: CANCEL_REASONS.matchRemoved };
  if (facts.state === 'cancelled' || facts.state === 'competition_cancelled') return { cancel: CANCEL_REASONS.matchCancelled };
  if (facts.state !== 'open' && facts.state !== 'postponed') return { cancel: CANCEL_REASONS.matchStarted };
  return { send: data };
}

interface RsvpChangeLike {
  homeName: string;
  awayName: string;
  homeId?: string | null | undefined;
  awayId?: string | null | undefined;
  before: { kickoffAt: string | null; venue: string | null; postponed: boolean; cancelled: boolean; teams?: ToldTeams | undefined };
  state: ToldMatch['state'];
  kickoffAt: string | null;
  venue: string | null;
  response: RsvpAnswer | null;
}

interface RsvpInviteLike {
  homeName: string;
  awayName: string;
  kickoffAt: string | null;
  venue: string | null;
  postponed?: boolean | undefined;
  organizationName?: string | undefined;
}

/**
 * A summary for a registration address past its daily cap (src/registrations/service.ts), with `count`, the
 * registrations of its organization since the first it covers, as it leaves. None left (the retention job, the
 * organization removed): nothing to tell.
 */
export function registrationOverflowAtSend<D extends { count: number }>(data: D, count: number): AtSend<D> {
  return count === 0 ? { cancel: CANCEL_REASONS.noRegistrationsLeft } : { send: { ...data, count } };
}

/**
 * Whether an outbox row's address is still one of an organization's registration_emails. The import keeps them
 * trimmed, the local part lower-cased and the domain in ASCII (src/http/fields.ts emailField), and a notice is queued
 * to one of them as kept; rows queued before that rule, or an address whose provider delivers another spelling to
 * the same mailbox (Gmail without its dots), are compared by the mailbox they reach (mailbox.ts deliveryKey), which
 * merges only the spellings a provider is known to deliver alike: never mailboxOf, whose merging is for counting
 * (john.smith@outlook.com removed must not go on receiving because johnsmith@outlook.com, another person, is kept).
 */
export function isRegistrationAddress(to: string, registrationEmails: readonly string[]): boolean {
  let address: string;
  try {
    address = parseMailbox(to).address;
  } catch {
    return false;
  }
  return registrationEmails.some(deliveryMatcher(address));
}

/**
 * A registration notice: only while its registration is kept (the retention job deletes one past its
 * organization's registration_retention_days, an operator may erase one: a notice still waiting must not send its
 * details after that; a data protection review found it did), and only to an address the organization still lists in
 * its registration_emails (the summary past an address's daily cap too, registrationKept absent: it names nobody).
 * The README's remedy for a wrong address is to correct registration_emails and import again; before this check,
 * notices already waiting (Postmark down, the worker retrying) still went to the address removed, a stranger's
 * perhaps, with a child's date of birth and guardian's phone (the same review).
 */
export function registrationNoticeAtSend<D>(data: D, facts: { registrationKept?: boolean; addressListed: boolean }): AtSend<D> {
  if (facts.registrationKept === false) return { cancel: CANCEL_REASONS.registrationGone };
  if (!facts.addressListed) return { cancel: CANCEL_REASONS.notRegistrationAddress };
  return { send: data };
}

/** A registration's receipt: only while the registration is kept (as its notice). */
export function registrationReceiptAtSend<D>(data: D, facts: { registrationKept: boolean }): AtSend<D> {
  return facts.registrationKept ? { send: data } : { cancel: CANCEL_REASONS.registrationGone };
}
