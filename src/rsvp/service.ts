// Match invitations (yes / no / maybe): one per team member with an email, answered through a token
// from the invite email. Pending = invited and not answered. Answers can change until kickoff.
import { prepared } from '../db/prepared.js';
import type { SyncDb } from '../db/sync.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { foldName } from '../text/fold.js';
import { mailboxOf } from '../mail/mailbox.js';
import { addressRefused, queueEmail } from '../mail/outbox.js';
import { findLinkToken } from '../security/link-tokens.js';
import { INVITATION_EMAILS } from '../mail/catalog.js';
import { newId } from '../security/tokens.js';
import type { RsvpRespondResponse, RsvpSummary } from './schema.js';
import type { RsvpAnswer } from '../vocabulary/enums.js';
import { matchSides, type MatchSides } from './match-sides.js';
import { answerRows, byTeamThenName, type AnswerRow } from './answers.js';
import { invitedAddressCurrent, rsvpState, undeliverableInvitations, type MatchForState, type RsvpState } from './state.js';
import { localDate } from '../time/local-time.js';
import { localizedName, type Language } from '../vocabulary/language.js';

// Prepared (src/db/prepared.ts): the summary is read under load, and building these with Kysely per request
// cost more than running them.
const PUBLIC_MATCH = prepared((q, p: { matchId: string }) =>
  q.selectFrom('matches as m')
    .innerJoin('events as e', 'e.id', 'm.event_id')
    .select(['m.id', 'm.event_id', 'm.kickoff_at', 'm.status', 'm.updated_at', 'e.is_public', 'e.status as event_status'])
    .where('m.id', '=', p.matchId),
);
const RESPONSE_COUNTS = prepared((q, p: { matchId: string }) =>
  q.selectFrom('rsvp_invitations as i')
    .innerJoin('team_members as tm', 'tm.id', 'i.member_id')
    .select((eb) => ['tm.team_id', 'i.response', eb.fn.countAll<number>().as('n')])
    .where('i.match_id', '=', p.matchId)
    .groupBy(['tm.team_id', 'i.response'])
    .orderBy('tm.team_id'),
);
const LAST_RESPONSE = prepared((q, p: { matchId: string }) =>
  q.selectFrom('rsvp_invitations')
    .select((eb) => eb.fn.max(eb.fn.coalesce('responded_at', 'created_at')).as('at'))
    .where('match_id', '=', p.matchId),
);

/** A match the public may see: it exists and its event is public (else undefined, as for a match that never was). */
function publicMatch(store: SyncDb, matchId: string) {
  const match = store.first(PUBLIC_MATCH.bind({ matchId }));
  return match?.is_public === 1 ? match : undefined;
}

/** The match's counts, in all and by team (in team_id order, as SQLite sorts them). */
function countResponses(store: SyncDb, matchId: string): Pick<RsvpSummary, 'summary' | 'teams'> {
  const summary = { yes: 0, no: 0, maybe: 0, pending: 0 };
  const teams: RsvpSummary['teams'] = [];
  for (const r of store.all(RESPONSE_COUNTS.bind({ matchId }))) {
    if (teams.at(-1)?.team_id !== r.team_id) teams.push({ team_id: r.team_id, summary: { yes: 0, no: 0, maybe: 0, pending: 0 } });
    const answer = r.response ?? 'pending';
    summary[answer] += r.n;
    teams.at(-1)!.summary[answer] += r.n;
  }
  return { summary, teams };
}

/** The counts, and when they last changed (for Last-Modified). */
export function rsvpSummary(store: SyncDb, matchId: string): { summary: RsvpSummary; lastModified: string | null } {
  const match = publicMatch(store, matchId);
  if (!match) throw new NotFoundError(`No match "${matchId}".`);
  const last = store.first(LAST_RESPONSE.bind({ matchId }));
  return { summary: { match_id: match.id, ...countResponses(store, match.id) }, lastModified: last?.at ?? match.updated_at };
}

/**
 * Why nobody can be asked "can you make it?" for a match, or null: a private competition's matches are not the
 * public's to answer, a cancelled match (or one of a cancelled competition) will not be played, a postponed one has
 * no kickoff to play at yet, and one that has kicked off (or been played) is past.
 */
function invitationRefusal(match: MatchForState & { is_public: 0 | 1; timezone: string }, now: Date): string | null {
  if (match.is_public !== 1) return 'it belongs to a private competition';
  // The organization's day, as its organizer reads it: a kickoff at 01:30 in Amman is the UTC date before.
  const day = match.kickoff_at === null ? undefined : localDate(new Date(match.kickoff_at), match.timezone);
  switch (rsvpState(match, now)) {
    case 'open': return null;
    case 'cancelled': return 'it is cancelled';
    case 'competition_cancelled': return 'its competition is cancelled';
    // A match under way (its result not in yet) was said to have been "played on" its kickoff day, even a later one.
    case 'played': return match.status === 'in_progress' ? 'it is under way' : `it was played${day ? ` on ${day}` : ''}`;
    case 'postponed': return 'it is postponed and has no new kickoff yet (invite again once it is rescheduled)';
    case 'kicked_off': return `it kicked off on ${day}`;
  }
}

/** Why an answer cannot be taken now (the API's 409 detail), or null while answers are open. */
function answersClosedBecause(match: MatchForState, now: Date): string | null {
  switch (rsvpState(match, now)) {
    case 'open': return null;
    case 'cancelled': return 'The match is cancelled: answers are closed.';
    case 'competition_cancelled': return 'The competition of this match is cancelled: answers are closed.';
    case 'postponed': return 'The match is postponed: answers reopen when its new kickoff is set.';
    case 'played':
    case 'kicked_off': return 'Answers close when the match kicks off; this one can no longer change.';
  }
}

/** The invitation an RSVP link opens, or undefined. */
export function findInvitation(store: SyncDb, token: string, now: Date) {
  const link = findLinkToken(store, 'rsvp', token, now);
  if (!link) return undefined;
  return store.first(
    store.q.selectFrom('rsvp_invitations as i')
      .innerJoin('team_members as tm', 'tm.id', 'i.member_id')
      .select(['i.id', 'i.match_id', 'i.response', 'tm.team_id', 'tm.name', 'tm.name_ar', 'tm.language'])
      .where('i.id', '=', link.subjectId),
  );
}

export function respondToInvitation(store: SyncDb, token: string, status: RsvpAnswer, now: Date): RsvpRespondResponse {
  return store.transaction(() => {
    const invitation = findInvitation(store, token, now);
    if (!invitation) throw new NotFoundError('No invitation has this token.');
    const match = publicMatch(store, invitation.match_id);
    // A competition made private after the invitations went out takes its matches out of public hands, answers too.
    if (!match) throw new NotFoundError('The match of this invitation no longer exists or is no longer public.');
    const closed = answersClosedBecause(match, now);
    if (closed !== null) throw new ConflictError(closed);
    if (invitation.response !== status) {
      store.run(
        store.q.updateTable('rsvp_invitations').set({ response: status, responded_at: now.toISOString() })
          .where('id', '=', invitation.id),
      );
    }
    return { match_id: match.id, status, ...countResponses(store, match.id) };
  });
}

/**
 * A match as invitations show it: its event, organization language and both teams, a bracket slot fed by
 * an earlier match getting its team once that match is decided. Team names are in the organization's language.
 */
export function matchForInvitations(store: SyncDb, matchId: string) {
  const match = store.first(
    store.q.selectFrom('matches as m')
      .innerJoin('events as e', 'e.id', 'm.event_id')
      .innerJoin('leagues as l', 'l.id', 'e.league_id')
      .innerJoin('organizations as o', 'o.id', 'l.org_id')
      .select([
        'm.id', 'm.event_id', 'm.kickoff_at', 'm.status', 'm.venue', 'e.name as event_name', 'e.name_ar as event_name_ar', 'e.is_public', 'e.status as event_status',
        'o.name as org_name', 'o.name_ar as org_name_ar', 'o.language', 'o.timezone',
      ])
      .where('m.id', '=', matchId),
  );
  if (!match) return undefined;
  // With the bracket's context (its away goals rule, its group tables): without it a feed from a tie won on away
  // goals, or from a group, gave nobody, and nobody of that team was invited.
  const sides = matchSides(store, match, match.language);
  const teamIds = [sides.homeId, sides.awayId].filter((t): t is string => t !== null);
  // Its teams' names in a member's own language (the import's `language`): each language read once.
  const named = new Map<Language, MatchSides>([[match.language, sides]]);
  const sidesIn = (language: Language): MatchSides => {
    let inLanguage = named.get(language);
    if (inLanguage === undefined) named.set(language, (inLanguage = matchSides(store, match, language)));
    return inLanguage;
  };
  return { ...match, homeId: sides.homeId, awayId: sides.awayId, teamIds, sidesIn };
}

/**
 * The match as the invited member reads it, in the invitation email and on the RSVP page alike: in the language the
 * import gives the member, else the organization's, the teams' names too (a team's `name` in English, its `name_ar`
 * in Arabic), as the emails that follow name them when they leave (src/mail/catalog.ts invitationFacts).
 */
function matchAsRead(match: NonNullable<ReturnType<typeof matchForInvitations>>, member: { name: string; name_ar: string | null; language: Language | null }) {
  const language = member.language ?? match.language;
  const { homeName, awayName } = match.sidesIn(language);
  return {
    language,
    /** Who the invitation comes from, as every other email names it (not the competition). */
    organizationName: localizedName(match.org_name, match.org_name_ar, language),
    memberName: localizedName(member.name, member.name_ar, language),
    eventName: localizedName(match.event_name, match.event_name_ar, language),
    homeName,
    awayName,
    kickoffAt: match.kickoff_at,
    timeZone: match.timezone,
    venue: match.venue,
  };
}

/**
 * The invitations of a match whose address the mail provider refuses (state.ts undeliverableInvitations), from their
 * emails in the outbox (kept 30 days after they end: src/jobs/retention.ts). For the organizer's commands only.
 */
function undeliverableOf(store: SyncDb, matchId: string): Set<string> {
  const emails = store.all(
    store.q.selectFrom('email_outbox')
      .select((eb) => [
        eb.fn<string>('json_extract', ['data_json', eb.val('$.invitationId')]).as('invitation_id'),
        'status', 'last_error',
      ])
      .where('template', 'in', INVITATION_EMAILS)
      .where((eb) => eb(
        eb.fn('json_extract', ['data_json', eb.val('$.invitationId')]),
        'in',
        eb.selectFrom('rsvp_invitations').select('id').where('match_id', '=', matchId),
      ))
      .orderBy('id'),
  );
  return undeliverableInvitations(emails.map((e) => ({
    invitationId: e.invitation_id,
    outcome: e.status === 'sent' ? 'sent' : e.status === 'failed' && addressRefused(e.last_error) ? 'address_refused' : 'other',
  })));
}

/** A member as the organizer reads them: ids and names (the organization's language) of the member and their team. */
export interface MemberNamed {
  team_id: string;
  team_name: string;
  member_id: string;
  member_name: string;
}

export interface InviteResult {
  matchId: string;
  /** Emails queued: members invited for the first time, and those of `readdressed`. */
  invited: number;
  /** Of `invited`: members whose address changed since their invitation (the old one's links no longer work). */
  readdressed: number;
  alreadyInvited: number;
  /** Members without an address; of them `withdrawn` had one when they were invited. */
  withoutEmail: number;
  /**
   * Who `withoutEmail` counts, by team then name, named as invitations name them: an RSVP review found the command
   * printing only their count, and the organizer, who has to phone them, could not tell who they were.
   */
  withoutEmailMembers: MemberNamed[];
  withdrawn: number;
  /**
   * Members invited whose address the mail provider refuses for good (inactive there, or invalid: the invitation's
   * latest email failed so), by team then name. Not in `alreadyInvited`: the mail review found them counted there and
   * never named, though they are as unreachable as `withoutEmailMembers`.
   */
  refusedMembers: MemberNamed[];
  /**
   * Members not invited because they are listed again (in both teams, or twice in one) under the same name and
   * mailbox as one who is: one person, one email, one token, counted once in `pending`.
   */
  listedTwice: number;
}

/**
 * One person of a match's teams: their mailbox (src/mail/mailbox.ts, as per-mailbox limits count it: case, dots,
 * +tags and provider aliases are one mailbox) and their name, case and spacing aside. The name is part of it
 * because two members may share an address (a parent's, for two children in one youth team): each is invited and
 * answers for themselves, while one person listed twice (in both teams, or twice in one) is invited once.
 */
const personKey = (name: string, email: string) => `${mailboxOf(email)}\n${foldName(name)}`;

/**
 * Takes back an invitation and the links its emails carried: its member's address changed (a typo sent it to a
 * stranger, or the member moved) or is gone, or the member's team no longer plays the match (the import). An email of
 * it still in the outbox is not sent (the catalog's send-time check finds no invitation), and a link that went out
 * answers 404.
 */
export function withdrawInvitation(store: SyncDb, invitationId: string): void {
  store.run(store.q.deleteFrom('link_tokens').where('purpose', '=', 'rsvp').where('subject_id', '=', invitationId));
  store.run(store.q.deleteFrom('rsvp_invitations').where('id', '=', invitationId));
}

/**
 * Creates an invitation (and its email) for each member with an email of both teams; idempotent. A member whose
 * address changed since their invitation is invited afresh at the new one, their answer with it (the old address
 * held a link that answered for them); one whose address was removed is no longer invited. A person listed more
 * than once (personKey) is invited once.
 */
export function inviteMatch(store: SyncDb, matchId: string, now: Date): InviteResult {
  return store.transaction(() => {
    const match = matchForInvitations(store, matchId);
    if (!match) throw new NotFoundError(`No match "${matchId}".`);
    const refusal = invitationRefusal(match, now);
    if (refusal) throw new ConflictError(`match ${matchId}: ${refusal}; nobody was invited`);
    const { teamIds } = match;
    const empty = (): InviteResult => ({ matchId, invited: 0, readdressed: 0, alreadyInvited: 0, withoutEmail: 0, withoutEmailMembers: [], withdrawn: 0, refusedMembers: [], listedTwice: 0 });
    if (teamIds.length === 0) return empty();
    const members = store.all(
      store.q.selectFrom('team_members as tm')
        .leftJoin('rsvp_invitations as i', (join) => join.onRef('i.member_id', '=', 'tm.id').on('i.match_id', '=', matchId))
        .innerJoin('teams as t', 't.id', 'tm.team_id')
        .select(['tm.id', 'tm.team_id', 't.name as team_name', 't.name_ar as team_name_ar', 'tm.name', 'tm.name_ar', 'tm.email', 'tm.language', 'i.id as invitation_id', 'i.email as invited_email'])
        .where('tm.team_id', 'in', teamIds)
        .orderBy('tm.id'),
    );
    const result = empty();
    const undeliverable = undeliverableOf(store, matchId);
    const named = (m: (typeof members)[number]): MemberNamed => ({
      team_id: m.team_id, team_name: localizedName(m.team_name, m.team_name_ar, match.language),
      member_id: m.id, member_name: localizedName(m.name, m.name_ar, match.language),
    });
    // Members already invited first (the sort is stable): a person listed twice keeps the invitation (and the
    // link, and the answer) they have, rather than getting a second one under their other listing.
    members.sort((a, b) => Number(a.invitation_id === null) - Number(b.invitation_id === null));
    const invitedPeople = new Set<string>();
    for (const m of members) {
      if (m.invitation_id !== null) {
        if (m.email !== null && invitedAddressCurrent(m.invited_email, m.email)) {
          if (undeliverable.has(m.invitation_id)) result.refusedMembers.push(named(m));
          else result.alreadyInvited++;
          invitedPeople.add(personKey(m.name, m.email));
          continue;
        }
        withdrawInvitation(store, m.invitation_id);
        if (m.email === null) result.withdrawn++;
        else result.readdressed++;
      }
      if (m.email === null) {
        result.withoutEmail++;
        result.withoutEmailMembers.push(named(m));
        continue;
      }
      const person = personKey(m.name, m.email);
      if (invitedPeople.has(person)) {
        result.listedTwice++;
        continue;
      }
      invitedPeople.add(person);
      const invitationId = newId('inv');
      store.run(
        store.q.insertInto('rsvp_invitations').values({
          id: invitationId, match_id: matchId, member_id: m.id, email: m.email, response: null, responded_at: null,
        }),
      );
      // The personal RSVP link is minted when the email is sent.
      queueEmail(store, {
        to: m.email,
        template: 'rsvp-invite',
        tag: 'rsvp-invite',
        data: {
          invitationId,
          ...matchAsRead(match, m),
          eventId: match.event_id,
          teamId: m.team_id,
        },
      });
      result.invited++;
    }
    result.withoutEmailMembers.sort(byTeamThenName(match.language));
    result.refusedMembers.sort(byTeamThenName(match.language));
    return result;
  });
}

export interface InvitationView {
  language: Language;
  memberName: string;
  eventName: string;
  homeName: string;
  awayName: string;
  kickoffAt: string | null;
  /** The organization's time zone: the page shows kickoff there. */
  timeZone: string;
  venue: string | null;
  response: RsvpAnswer | null;
  /** Answers cannot change (the buttons are disabled); `state` says why. */
  closed: boolean;
  /** Where the match stands: a postponed one shows no kickoff (the stored one no longer holds), a cancelled one says so. */
  state: RsvpState;
  summary: RsvpSummary;
  /** The member's team, when it plays the match: the page shows its counts first (a player's "do we have eleven?"). */
  team: { id: string; name: string } | null;
}

/** What the RSVP page shows for a token; undefined when the token is unknown. */
export function invitationView(store: SyncDb, token: string, now: Date): InvitationView | undefined {
  const invitation = findInvitation(store, token, now);
  if (!invitation) return undefined;
  const match = matchForInvitations(store, invitation.match_id);
  if (!match || match.is_public !== 1) return undefined;
  const state = rsvpState(match, now);
  const read = matchAsRead(match, invitation);
  return {
    ...read,
    response: invitation.response,
    closed: state !== 'open',
    state,
    summary: { match_id: match.id, ...countResponses(store, match.id) },
    // Named as the match above it on the page is, in the member's language (a review read both names of one team).
    team: invitation.team_id === match.homeId ? { id: match.homeId, name: read.homeName }
      : invitation.team_id === match.awayId ? { id: match.awayId, name: read.awayName } : null,
  };
}

/**
 * The organizer's read (`npm run rsvp`): the match's invitations as rows (src/rsvp/answers.ts); undefined: no such
 * match. A private competition's match too: the operator runs it, not the public.
 */
export function rsvpAnswers(store: SyncDb, matchId: string): AnswerRow[] | undefined {
  const match = matchForInvitations(store, matchId);
  if (!match) return undefined;
  const invitations = store.all(
    store.q.selectFrom('rsvp_invitations as i')
      .innerJoin('team_members as tm', 'tm.id', 'i.member_id')
      .innerJoin('teams as t', 't.id', 'tm.team_id')
      .select([
        'i.id', 't.id as team_id', 't.name as team_name', 't.name_ar as team_name_ar', 'tm.id as member_id', 'tm.name as member_name',
        'tm.name_ar as member_name_ar', 'tm.email as member_email', 'i.email as invited_email', 'i.response', 'i.responded_at',
      ])
      .where('i.match_id', '=', match.id),
  );
  const undeliverable = undeliverableOf(store, match.id);
  return answerRows(invitations.map(({ id, ...i }) => ({ ...i, undeliverable: undeliverable.has(id) })), { teamIds: match.teamIds, language: match.language, timeZone: match.timezone });
}
