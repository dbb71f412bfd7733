// Members invited to a match are told when it changes after their invitation went out: a new kickoff or venue, a
// postponement, a new date after one, a cancellation, a match put back on after one. The updates job finds the change (src/updates/detect.ts) and
// calls this in the transaction that records it, so each change is told once, however often the job runs.
// Answers are kept: the email gives the member's answer so far and their link to change it.
import type { SyncDb } from '../db/sync.js';
import { INVITATION_EMAILS, type TemplateData } from '../mail/catalog.js';
import { queueEmail } from '../mail/outbox.js';
import { asTold, readTold, type ToldMatch } from '../mail/send-time.js';
import { seenIn, type ChangeKind, type SeenMatch } from '../updates/changes.js';
import { localizedName, type Language } from '../vocabulary/language.js';
import type { MatchSides } from './match-sides.js';
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
  const invitations = store.all(invitationsWithMatch(store).where('i.match_id', '=', change.matchId).orderBy('i.id'));
  if (invitations.length === 0) return 0;
  const waiting = waitingInvitationEmails(store);
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
    queueChange(store, i.email!, now, {
      invitationId: i.id,
      language: i.language,
      organizationName: localizedName(i.org_name, i.org_name_ar, i.language),
      memberName: localizedName(i.name, i.name_ar, i.language),
      // As found, in the member's language; the worker names the teams that play it when the email leaves.
      ...teamsIn(after, i.language),
      eventName: change.eventName,
      timeZone: i.timezone,
      before: { kickoffAt: before.kickoff_at, venue: before.venue, postponed: before.status === 'postponed', cancelled: before.status === 'cancelled' },
      // As found; the worker sets them to the match as it is when the email leaves.
      ...found,
      response: i.response,
    });
    queued++;
  }
  return queued;
}

/** The match's teams as a member reading `language` is told them. */
function teamsIn(match: SeenMatch, language: Language): { homeName: string; awayName: string } {
  const { home, away } = seenIn(match, language);
  return { homeName: home, awayName: away };
}

/** Queues an rsvp-change email to an invitee. */
const queueChange = (store: SyncDb, to: string, now: Date, data: TemplateData<'rsvp-change'>) =>
  queueEmail(store, { to, template: 'rsvp-change', tag: 'rsvp-change', createdAt: now, data });

/** The invitations with an email still waiting in the outbox (read through its due index: only waiting rows). */
function waitingInvitationEmails(store: SyncDb): Set<string | null> {
  return new Set(
    store.all(
      store.q.selectFrom('email_outbox')
        .select((eb) => eb.fn<string | null>('json_extract', ['data_json', eb.val('$.invitationId')]).as('invitation_id'))
        .where('status', '=', 'pending')
        .where('template', 'in', INVITATION_EMAILS),
    ).map((r) => r.invitation_id),
  );
}

/** Invitations sent to an address, with their member and team, their match, its competition and organization. */
function invitationsWithMatch(store: SyncDb) {
  return store.q.selectFrom('rsvp_invitations as i')
    .innerJoin('team_members as tm', 'tm.id', 'i.member_id').innerJoin('teams as t', 't.id', 'tm.team_id')
    .innerJoin('matches as m', 'm.id', 'i.match_id').innerJoin('events as e', 'e.id', 'm.event_id')
    .innerJoin('leagues as l', 'l.id', 'e.league_id').innerJoin('organizations as o', 'o.id', 'l.org_id')
    .select([
      'i.id', 'i.email', 'i.response', 'i.told_json', 'tm.id as member_id', 'tm.email as member_email', 'tm.name', 'tm.name_ar',
      'tm.team_id', 't.name as team_name', 't.name_ar as team_name_ar',
      'm.id as match_id', 'e.name as event_name', 'e.name_ar as event_name_ar',
      'o.name as org_name', 'o.name_ar as org_name_ar', 'o.timezone',
      // The member's language (the import's), else the organization's: as their invitation (src/rsvp/service.ts).
      (eb) => eb.fn.coalesce('tm.language', 'o.language').as('language'),
    ])
    .where('i.email', 'is not', null);
}

/**
 * invitationsWithMatch, of those that told their member something: an invitation whose email never left (withdrawn,
 * or waiting) told the member nothing to undo or correct.
 */
const invitationsTold = (store: SyncDb) => invitationsWithMatch(store).where('i.told_json', 'is not', null);

/**
 * Tells a member their invitation is withdrawn, the organization's import having found their team no longer plays
 * the match (src/import/load.ts): called before it is withdrawn, in the import's transaction, so `--check` tells
 * nobody. Only a member who was told of the match (an invitation email left) and is still at the address it went
 * to. `before`: who played the match before the import, for an invitation told before teams were recorded; `moved`:
 * the member moved to another team (else their team lost its place in the match). Whether it was queued.
 */
export function tellWithdrawn(store: SyncDb, invitationId: string, before: MatchSides | undefined, moved: boolean, now: Date): boolean {
  const i = store.first(invitationsTold(store).where('i.id', '=', invitationId));
  const told = i && readTold(i.told_json);
  if (!i || !told || !invitedAddressCurrent(i.email, i.member_email)) return false;
  const teams = told.teams ?? before;
  if (teams === undefined) return false;
  const { language } = i;
  queueEmail(store, {
    to: i.email!,
    template: 'rsvp-withdrawn',
    tag: 'rsvp-withdrawn',
    createdAt: now,
    data: {
      memberId: i.member_id,
      matchId: i.match_id,
      language,
      organizationName: localizedName(i.org_name, i.org_name_ar, language),
      memberName: localizedName(i.name, i.name_ar, language),
      teamName: localizedName(i.team_name, i.team_name_ar, language),
      moved,
      homeName: teams.homeName,
      awayName: teams.awayName,
      eventName: localizedName(i.event_name, i.event_name_ar, language),
      timeZone: i.timezone,
      // As they were told it: a postponed match's stored kickoff no longer held.
      postponed: told.state === 'postponed',
      kickoffAt: told.state === 'postponed' ? null : told.kickoffAt,
      venue: told.venue,
      response: i.response,
    },
  });
  return true;
}

/**
 * Tells the members invited to a match whose opponent is another now (the import: a corrected result gave the other
 * slot another team, decided it, or left it undecided again): an rsvp-change email to each who was told of the match,
 * still at its address, whose own team held its side before and still does, with no email of the invitation waiting
 * (that one shows the teams as they are when it leaves). A member whose own side changed is not told of an opponent
 * (a review's players read their own team named as the opponent they no longer had). `before`: who played it before
 * the import. How many were queued; whether each is news is decided as it leaves (send-time.ts rsvpChangeAtSend).
 */
export function tellNewTeams(store: SyncDb, matchId: string, before: MatchSides, after: MatchSides, now: Date): number {
  const waiting = waitingInvitationEmails(store);
  const opponent = (sides: MatchSides, team: string) => (sides.homeId === team ? sides.awayId : sides.awayId === team ? sides.homeId : undefined);
  let queued = 0;
  for (const i of store.all(invitationsTold(store).select(['m.kickoff_at', 'm.venue']).where('i.match_id', '=', matchId).orderBy('i.id'))) {
    const told = readTold(i.told_json);
    if (!told || waiting.has(i.id) || !invitedAddressCurrent(i.email, i.member_email)) continue;
    const was = opponent(before, i.team_id);
    const is = opponent(after, i.team_id);
    if (was === undefined || is === undefined || was === is) continue;
    const { language } = i;
    queueChange(store, i.email!, now, {
      invitationId: i.id,
      language,
      organizationName: localizedName(i.org_name, i.org_name_ar, language),
      memberName: localizedName(i.name, i.name_ar, language),
      homeName: after.homeName,
      awayName: after.awayName,
      eventName: localizedName(i.event_name, i.event_name_ar, language),
      timeZone: i.timezone,
      before: {
        kickoffAt: told.kickoffAt, venue: told.venue, postponed: told.state === 'postponed',
        cancelled: told.state === 'cancelled' || told.state === 'competition_cancelled', teams: told.teams ?? before,
      },
      // As found; the worker sets them to the match as it is when the email leaves.
      state: told.state, kickoffAt: i.kickoff_at, venue: i.venue,
      response: i.response,
    });
    queued++;
  }
  return queued;
}
