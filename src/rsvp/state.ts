// Where a match stands for its invitations: a pure rule, read by the invite command, the answer, the RSVP page and
// the invitation email when it leaves (src/mail/send-time.ts), so that none of them asks or answers for a match the
// others call closed.
import { publicMatchStatus } from '../competitions/match-status.js';
import type { EventStatus, MatchStatus } from '../vocabulary/enums.js';

/**
 * By the one rule the calendar feed has too (publicMatchStatus: a match of a competition cancelled as a whole is
 * cancelled). `open`: invitations can go out and answers can change.
 * A postponed match has no kickoff that holds (the feed shows it TENTATIVE, "Postponed: new date to follow"): nobody
 * is asked to play at the old date, and answers wait for the new kickoff (the organizer sets it: the match is
 * scheduled again). Answers given before are kept.
 */
export type RsvpState = 'open' | 'cancelled' | 'competition_cancelled' | 'played' | 'postponed' | 'kicked_off';

export interface MatchForState {
  status: MatchStatus;
  event_status: EventStatus;
  kickoff_at: string | null;
}

export function rsvpState(match: MatchForState, now: Date): RsvpState {
  const status = publicMatchStatus(match.status, match.event_status);
  if (status === 'cancelled') return match.status === 'cancelled' ? 'cancelled' : 'competition_cancelled';
  if (status === 'completed' || status === 'in_progress') return 'played';
  if (status === 'postponed') return 'postponed';
  if (match.kickoff_at !== null && Date.parse(match.kickoff_at) <= now.getTime()) return 'kicked_off';
  return 'open';
}

/**
 * The instant a match's invitations are over from, for how long they are kept (src/jobs/retention.ts): once the match
 * has been played, has kicked off (a result need not be entered) or will not be played (cancelled, or its competition),
 * its kickoff, or, without one, its last change (matches.updated_at: when it was played or cancelled at the latest);
 * null while it is still to come (open, or postponed: its answers wait for the new kickoff).
 */
export function invitationsOverFrom(match: MatchForState & { updated_at: string }, now: Date): string | null {
  return stillToCome(match, now) ? null : (match.kickoff_at ?? match.updated_at);
}

/** Whether a match's invitations are still to come: open, or postponed (its answers wait for the new kickoff). */
export function stillToCome(match: MatchForState, now: Date): boolean {
  const state = rsvpState(match, now);
  return state === 'open' || state === 'postponed';
}

/**
 * Whether an invitation still stands for its member's address: the address its email went to is the member's now, as
 * the organizer typed it twice (the import keeps the domain in lower-case ASCII, so case aside). An address corrected
 * (a typo sent the link to a stranger) or removed since leaves the invitation to the old one: nothing more is sent
 * there, and `npm run invite` moves it.
 */
export function invitedAddressCurrent(invited: string | null, member: string | null): boolean {
  return invited !== null && member !== null && invited.toLowerCase() === member.toLowerCase();
}

/**
 * Whether an invitation to a match still to come no longer has a place in it: its member's team plays neither side
 * now (an import moved the member to another team, or a corrected result gave the slot another team). The import
 * withdraws it (src/import/load.ts): an RSVP review found the member still told of the match's changes and their
 * answer still counted. Not while a side is undecided: their team may yet play it, and their answer stands.
 */
export function invitationOutOfMatch(memberTeam: string, match: { home: string | null; away: string | null }): boolean {
  return match.home !== null && match.away !== null && memberTeam !== match.home && memberTeam !== match.away;
}

/**
 * How the outbox ended one email of an invitation (its invite, or a change told): taken by the provider, its address
 * refused by the provider for good (outbox.ts addressRefused: Postmark's 406 inactive recipient, a 300 naming the
 * recipient), or anything else (waiting, cancelled at send time, given up after a day of retries), which says nothing
 * of the address.
 */
export type InvitationEmailOutcome = 'sent' | 'address_refused' | 'other';

/**
 * The invitations whose address the provider refuses: their latest email that went to the provider was refused for
 * good, and nothing since was taken. `emails` in the order they were queued. The mail review found such members shown as
 * invited, not answered, by `npm run rsvp` and `npm run invite` alike: unreachable, as one with no address is, and
 * named to the organizer so that they phone them. An email taken after the refusal (the address reactivated at the
 * provider) makes the invitation plain again.
 */
export function undeliverableInvitations(emails: ReadonlyArray<{ invitationId: string; outcome: InvitationEmailOutcome }>): Set<string> {
  const refused = new Set<string>();
  for (const e of emails) {
    if (e.outcome === 'address_refused') refused.add(e.invitationId);
    else if (e.outcome === 'sent') refused.delete(e.invitationId);
  }
  return refused;
}
