// Who answered what, for the organizer who ran `npm run invite` (scripts/rsvp.ts). An RSVP review found that nothing
// told them: the public summary (GET /api/v0/rsvp/{matchId}) counts both teams together, and no command or page named
// a member. One row per invitation of the match, by team then member name, as CSV or JSON with the registrations
// export's rules (src/registrations/export.ts). Never a token: the links are the members' own. Pure: the query is
// rsvpAnswers in service.ts.
import { csvTable } from '../registrations/export.js';
import { localInstant } from '../time/local-time.js';
import type { RsvpAnswer } from '../vocabulary/enums.js';
import { localizedName, type Language } from '../vocabulary/language.js';
import { invitedAddressCurrent } from './state.js';

export const ANSWER_COLUMNS = ['team_id', 'team_name', 'member_id', 'member_name', 'email', 'answer', 'answered_at', 'state'] as const;
export type AnswerRow = Record<(typeof ANSWER_COLUMNS)[number], string | null>;

/**
 * Where an invitation stands when it is not plain (null: it stands, its link answers, `npm run invite` leaves it
 * alone). Its member's address corrected or removed since it went out (README, RSVP): the next `npm run invite`
 * invites them afresh at the new one (the answer starting again) or withdraws it; until then the answer shown came
 * through the old address's link. Its member in neither team of the match now (moved to another team by an import,
 * or the slot now has another team): the import withdraws such an invitation to a match still to come
 * (src/rsvp/state.ts invitationOutOfMatch), so this is one of a match played, or of one with a side undecided.
 * Undeliverable: the mail provider refused the address for good (inactive there, or invalid) on the invitation's
 * latest email (state.ts undeliverableInvitations): the member never got it, as one with no address (the mail review
 * found them shown as invited, not answered); the organizer phones them, or corrects the address and invites again.
 */
export type InvitationState = 'address_changed' | 'address_removed' | 'not_in_teams' | 'undeliverable';

export interface InvitationFacts {
  team_id: string;
  team_name: string;
  team_name_ar: string | null;
  member_id: string;
  member_name: string;
  member_name_ar: string | null;
  /** The member's address now. */
  member_email: string | null;
  /** The address the invitation went to. */
  invited_email: string | null;
  response: RsvpAnswer | null;
  responded_at: string | null;
  /** Its latest email's address refused by the provider for good (state.ts undeliverableInvitations). */
  undeliverable: boolean;
}

export interface MatchForAnswers {
  /** The teams of the match now (a fed slot's once decided). */
  teamIds: readonly string[];
  language: Language;
  timeZone: string;
}

export function invitationState(i: InvitationFacts, match: Pick<MatchForAnswers, 'teamIds'>): InvitationState | null {
  if (!match.teamIds.includes(i.team_id)) return 'not_in_teams';
  // An address changed since says what the next `npm run invite` does, whatever the old one's refusal.
  if (!invitedAddressCurrent(i.invited_email, i.member_email)) return i.member_email === null ? 'address_removed' : 'address_changed';
  return i.undeliverable ? 'undeliverable' : null;
}

/**
 * By team, then member name, as the organization reads them (its language's order), ids breaking ties: the order of
 * the answers' rows and of the members `npm run invite` names.
 */
export function byTeamThenName(language: Language) {
  const collator = new Intl.Collator(language);
  return (a: { team_id: string; team_name: string; member_id: string; member_name: string }, b: typeof a): number =>
    collator.compare(a.team_name, b.team_name) || (a.team_id < b.team_id ? -1 : a.team_id > b.team_id ? 1 : 0) ||
    collator.compare(a.member_name, b.member_name) || (a.member_id < b.member_id ? -1 : a.member_id > b.member_id ? 1 : 0);
}

/** The rows: names in the organization's language (as the invitations name them), times in its zone with its offset. */
export function answerRows(invitations: readonly InvitationFacts[], match: MatchForAnswers): AnswerRow[] {
  return invitations
    .map((i) => ({
      team_id: i.team_id,
      team_name: localizedName(i.team_name, i.team_name_ar, match.language),
      member_id: i.member_id,
      member_name: localizedName(i.member_name, i.member_name_ar, match.language),
      email: i.invited_email,
      answer: i.response,
      answered_at: i.response === null || i.responded_at === null ? null : localInstant(new Date(i.responded_at), match.timeZone),
      state: invitationState(i, match),
    }))
    .sort(byTeamThenName(match.language));
}

export function answersCsv(rows: readonly AnswerRow[]): string {
  return csvTable(ANSWER_COLUMNS, rows);
}

export function answersJson(matchId: string, rows: readonly AnswerRow[]): string {
  return `${JSON.stringify({ match: matchId, invitations: rows }, null, 2)}\n`;
}
