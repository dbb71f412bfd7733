// Members invited to a match are told when it changes after their invitation went out: a new kickoff or venue, a
// postponement, a new date after one, a cancellation, a match put back on after one. The updates job finds the change (src/updates/detect.ts) and
// calls this in the transaction that records it, so each change is told once, however often the job runs.
// Answers are kept: the email gives the member's answer so far and their link to change it.
import type { SyncDb } from '../db/sync.js';
import { queueEmail } from '../mail/outbox.js';
import { asTold, readTold, type ToldMatch } from '../mail/send-time.js';
import type { ChangeKind, SeenMatch } from '../updates/changes.js';
import { localizedName } from '../vocabulary/language.js';
import { invitedAddressCurrent } from './state.js';

/** The changes an invited member is told: when and where the match is played, and whether it is. */
export const INVITEE_CHANGE_KINDS: ReadonlySet<ChangeKind> = new Set(['moved', 'postponed', 'rescheduled', 'cancelled', 'reinstated']);

export interface InviteeChange {
  matchId: string;
  kind: ChangeKind;
  before: SeenMatch | null;
  after: SeenMatch;
  eventName: string;
}

/**
 * Queues one email per standing invitation of the match, to the address the invitation went to; how many. Skipped:
 * an invitation whose member's address changed since, and one whose own email, or an earlier change's, still waits
 * in the outbox: that email shows the match as it is when it leaves (send-time.ts), so one email tells the member
 * where things stand. Whether the change is news to the member is decided when the email leaves, against what they
 * were last told (the invitation's told_json).
 */
export function tellInvitees(store: SyncDb, change: InviteeChange, now: Date): number {
  if (!INVITEE_CHANGE_KINDS.has(change.kind) || change.before === null) return 0;
  const invitations = store.all(
    store.q.selectFrom('rsvp_invitations as i')
      .innerJoin('team_members as tm', 'tm.id', 'i.member_id')
      .innerJoin('matches as m', 'm.id', 'i.match_id').innerJoin('events as e', 'e.id', 'm.event_id')
      .innerJoin('leagues as l', 'l.id', 'e.league_id').innerJoin('organizations as o', 'o.id', 'l.org_id')
      .select(['i.id', 'i.email', 'i.response', 'i.told_json', 'tm.email as member_email', 'tm.name', 'tm.name_ar', 'o.name as org_name', 'o.name_ar as org_name_ar', 'o.language', 'o.timezone'])
      .where('i.match_id', '=', change.matchId)
      .where('i.email', 'is not', null)
      .orderBy('i.id'),
  );
  if (invitations.length === 0) return 0;
  // Read through the outbox's due index: only waiting rows are scanned.
  const waiting = new Set(
    store.all(
      store.q.selectFrom('email_outbox')
        .select((eb) => eb.fn<string | null>('json_extract', ['data_json', eb.val('$.invitationId')]).as('invitation_id'))
        .where('status', '=', 'pending')
        .where('template', 'in', ['rsvp-invite', 'rsvp-change']),
    ).map((r) => r.invitation_id),
  );
  const { before, after } = change;
  const found: ToldMatch = { state: after.status === 'cancelled' ? 'cancelled' : after.status === 'postponed' ? 'postponed' : 'open', kickoffAt: after.kickoff_at, venue: after.venue };
  let queued = 0;
  for (const i of invitations) {
    // An address corrected or removed since the invitation (a typo sent it to a stranger) is told nothing more;
    // `npm run invite` moves the invitation to the new one.
    if (waiting.has(i.id) || !invitedAddressCurrent(i.email, i.member_email)) continue;
    // Already told the match as it is now (invited right after the change): no news. Decided again when it leaves.
    const told = readTold(i.told_json);
    if (told !== null && asTold(told, found)) continue;
    queueEmail(store, {
      to: i.email!,
      template: 'rsvp-change',
      tag: 'rsvp-change',
      createdAt: now,
      data: {
        invitationId: i.id,
        language: i.language,
        organizationName: localizedName(i.org_name, i.org_name_ar, i.language),
        memberName: localizedName(i.name, i.name_ar, i.language),
        homeName: after.home,
        awayName: after.away,
        eventName: change.eventName,
        timeZone: i.timezone,
        before: { kickoffAt: before.kickoff_at, venue: before.venue, postponed: before.status === 'postponed', cancelled: before.status === 'cancelled' },
        // As found; the worker sets them to the match as it is when the email leaves.
        ...found,
        response: i.response,
      },
    });
    queued++;
  }
  return queued;
}
