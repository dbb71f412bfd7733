// Kysely table types. They mirror migrations/ exactly as better-sqlite3 returns rows:
// TEXT → string, INTEGER → number, nullable columns → T | null, defaults → Generated<T>.
import type { Generated, Selectable } from 'kysely';
import type {
  BracketRole,
  CompetitionType,
  EventStatus,
  FollowStatus,
  MatchStatus,
  OutboxStatus,
  RsvpAnswer,
  Side,
  SourceOutcome,
} from '../vocabulary/enums.js';
import type { Language } from '../vocabulary/language.js';

export interface OrganizationsTable {
  id: string;
  name: string;
  name_ar: string | null;
  language: Generated<Language>;
  created_at: Generated<string>;
  /** JSON array of the addresses told of each registration. */
  registration_emails: Generated<string>;
  registration_retention_days: Generated<number>;
  /** IANA time zone that match times are shown in (emails, pages); feeds carry UTC. */
  timezone: Generated<string>;
  /** The address the public writes to (migration 0026): named in the emails sent for it, their Reply-To; null: none. */
  contact_email: string | null;
}

export interface LeaguesTable {
  id: string;
  org_id: string;
  name: string;
  name_ar: string | null;
}

export interface DivisionsTable {
  id: string;
  org_id: string;
  league_id: string | null;
  name: string;
  name_ar: string | null;
  /** Registrations are taken from this instant (null: always have been). */
  opens_at: string | null;
  /** … until this instant (null: no end). */
  closes_at: string | null;
  /** A player younger than this on the day of registering needs a guardian's name and phone. */
  guardian_required_under: number | null;
  /** Players born on or after this day (YYYY-MM-DD; null: no bound). */
  born_from: string | null;
  /** … and on or before this day. */
  born_until: string | null;
}

export interface TeamsTable {
  id: string;
  org_id: string;
  name: string;
  name_ar: string | null;
}

export interface TeamMembersTable {
  id: string;
  team_id: string;
  name: string;
  name_ar: string | null;
  email: string | null;
  /** The language they read (0030); null: their organization's. */
  language: Language | null;
}

export interface EventsTable {
  id: string;
  league_id: string;
  name: string;
  name_ar: string | null;
  competition_type: CompetitionType;
  status: Generated<EventStatus>;
  starts_at: string | null;
  ends_at: string | null;
  venue_city: string | null;
  is_public: Generated<0 | 1>;
  points_win: Generated<number>;
  points_draw: Generated<number>;
  points_loss: Generated<number>;
  match_duration_min: Generated<number>;
  revision: Generated<number>;
  /** JSON: a preset name (`"la_liga"`) or an ordered list of criteria. */
  tiebreakers: Generated<string>;
  /** JSON list of `{teams, order, reason}`: recorded orders for clubs nothing else separates. */
  decisions: Generated<string>;
  /** JSON list of `{team, points, reason}`: points added to or deducted from a club's total. */
  adjustments: Generated<string>;
  /** 1: away goals settle a two-legged tie level on aggregate. */
  away_goals_rule: Generated<0 | 1>;
  /** JSON list of best-placed rules (src/competitions/types.ts BestPlacedRule), groups explicit. */
  best_placed: Generated<string>;
}

export interface MatchesTable {
  id: string;
  event_id: string;
  round_ordinal: Generated<number>;
  round_name: string | null;
  group_name: string | null;
  bracket_role: BracketRole | null;
  bracket_position: Generated<number>;
  home_team_id: string | null;
  away_team_id: string | null;
  home_source_match_id: string | null;
  home_source_outcome: SourceOutcome | null;
  away_source_match_id: string | null;
  away_source_outcome: SourceOutcome | null;
  kickoff_at: string | null;
  ends_at: string | null;
  venue: string | null;
  status: Generated<MatchStatus>;
  home_score: number | null;
  away_score: number | null;
  home_penalties: number | null;
  away_penalties: number | null;
  walkover_winner: Side | null;
  sequence: Generated<number>;
  updated_at: Generated<string>;
  /** 1 or 2 for a leg of a two-legged tie. */
  leg: number | null;
  /** On a second leg: the tie's first leg. */
  first_leg_match_id: string | null;
  after_extra_time: Generated<number>;
  /** A slot fed by a group's final table. */
  home_source_group: string | null;
  home_source_position: number | null;
  away_source_group: string | null;
  away_source_position: number | null;
  /** A slot fed by the best-placed teams of several groups: the event's rule id and the slot. */
  home_source_best: string | null;
  home_source_slot: number | null;
  away_source_best: string | null;
  away_source_slot: number | null;
}

export interface FollowsTable {
  id: string;
  org_id: string;
  league_id: string | null;
  email: string;
  status: Generated<FollowStatus>;
  confirmations_sent: Generated<number>;
  last_confirmation_sent_at: string | null;
  created_at: Generated<string>;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  /** The mailbox its address reaches (src/mail/mailbox.ts deliveryKey); null for follows from before 0013 until they unsubscribe. */
  mailbox: string | null;
  /** The last update_changes id this follow's digest covered. */
  told_through: Generated<number>;
  /** The last update_changes id its alerts (or a digest) covered. */
  alerted_through: Generated<number>;
  /** The language its request asked for (0029); null: its organization's. */
  language: Language | null;
}

/** The SEQUENCE a removed match's calendar UID reached; written and read by migration 0010's triggers only. */
export interface CalendarSequenceFloorTable {
  match_id: string;
  event_id: string;
  sequence: number;
}

export interface UpdateMatchSeenTable {
  match_id: string;
  event_id: string;
  state_json: string;
}

export interface UpdateEventSeenTable {
  event_id: string;
  /** The event's revision when last compared: an unchanged revision needs no comparison. */
  revision: number;
  champion: string | null;
  /** The event's status when last compared (migration 0020); null for rows from before. */
  status: EventStatus | null;
  /** Its points adjustments when last compared, as adjustmentsSeen writes them (migration 0027); null for rows from before. */
  adjustments: string | null;
}

export interface UpdateChangesTable {
  id: Generated<number>;
  org_id: string;
  league_id: string;
  event_id: string;
  match_id: string | null;
  kind: string;
  alert: 0 | 1;
  data_json: string;
  detected_at: Generated<string>;
}

export interface RsvpInvitationsTable {
  id: string;
  match_id: string;
  member_id: string;
  /** The address its email went to: `npm run invite` moves the invitation when the member's address changes. */
  email: string | null;
  response: RsvpAnswer | null;
  responded_at: string | null;
  created_at: Generated<string>;
  /** What its member was last told of the match (a ToldMatch as JSON, src/mail/send-time.ts); null before any email left. */
  told_json: Generated<string | null>;
}

export interface RegistrationsTable {
  id: string;
  org_id: string;
  division_id: string | null;
  status: Generated<'submitted'>;
  name: string;
  name_ar: string | null;
  email: string;
  phone: string | null;
  date_of_birth: string | null;
  guardian_name: string | null;
  guardian_phone: string | null;
  notes: string | null;
  created_at: Generated<string>;
  /** The name as a person reads it (src/text/fold.ts foldName), to find a registration's repeats in its organization (0028). */
  name_key: string | null;
}

export interface IdempotencyKeysTable {
  scope: string;
  /** The client that sent the key (its address): keys are never shared between clients. */
  client: string;
  key: string;
  request_hash: string;
  response_status: number;
  response_body: string;
  created_at: Generated<string>;
}

export interface EmailOutboxTable {
  id: Generated<number>;
  /** Random: the local part of the Message-ID, the same on every attempt. */
  message_key: string;
  to_address: string;
  /** The recipient as a mailbox (src/mail/mailbox.ts): what per-address limits count. */
  mailbox: string;
  /** What to send: a template of src/mail/catalog.ts and its data, rendered by the worker at send time. */
  template: string;
  data_json: string;
  tag: string | null;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  next_attempt_at: Generated<string>;
  last_error: string | null;
  provider_message_id: string | null;
  created_at: Generated<string>;
  sent_at: string | null;
}

export type LinkPurpose = 'follow-confirm' | 'follow-unsubscribe' | 'rsvp';

export interface LinkTokensTable {
  hash: string;
  purpose: LinkPurpose;
  subject_id: string;
  created_at: Generated<string>;
  expires_at: string | null;
}

export interface InstallationTable {
  singleton: 1;
  id: string;
  uid_domain: string | null;
  created_at: Generated<string>;
  /** When the updates job first looked (what existed then is not news); null until it runs. */
  updates_baseline_at: string | null;
}

/** Each artifacts folder's last render token, as its manifest records it (src/publish/restored-calendars.ts). */
export interface RenderFoldersTable {
  folder: string;
  token: string;
}

export interface DB {
  organizations: OrganizationsTable;
  leagues: LeaguesTable;
  divisions: DivisionsTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  events: EventsTable;
  matches: MatchesTable;
  follows: FollowsTable;
  rsvp_invitations: RsvpInvitationsTable;
  registrations: RegistrationsTable;
  idempotency_keys: IdempotencyKeysTable;
  email_outbox: EmailOutboxTable;
  link_tokens: LinkTokensTable;
  installation: InstallationTable;
  render_folders: RenderFoldersTable;
  update_match_seen: UpdateMatchSeenTable;
  update_event_seen: UpdateEventSeenTable;
  update_changes: UpdateChangesTable;
  calendar_sequence_floor: CalendarSequenceFloorTable;
}

export type OutboxMessage = Selectable<EmailOutboxTable>;
