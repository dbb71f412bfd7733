// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
import { sql, type Kysely } from 'kysely';

const ID = `CHECK (length(id) BETWEEN 1 AND 64 AND id GLOB '[A-Za-z0-9]*' AND id NOT GLOB '*[^A-Za-z0-9_-]*')`;
const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    // ---- competition data (written by import) ----
    `CREATE TABLE organizations (
      id TEXT PRIMARY KEY ${ID},
      name TEXT NOT NULL,
      name_ar TEXT,
      language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar')),
      created_at TEXT NOT NULL DEFAULT ${NOW}
    ) STRICT`,
    `CREATE TABLE leagues (
      id TEXT PRIMARY KEY ${ID},
      org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      name_ar TEXT
    ) STRICT`,
    `CREATE INDEX leagues_org ON leagues(org_id)`,
    `CREATE TABLE divisions (
      id TEXT PRIMARY KEY ${ID},
      org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      league_id TEXT REFERENCES leagues(id) ON DELETE SET NULL,
      name TEXT NOT NULL,
      name_ar TEXT
    ) STRICT`,
    `CREATE INDEX divisions_org ON divisions(org_id)`,
    `CREATE TABLE teams (
      id TEXT PRIMARY KEY ${ID},
      org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      name_ar TEXT
    ) STRICT`,
    `CREATE INDEX teams_org ON teams(org_id)`,
    `CREATE TABLE team_members (
      id TEXT PRIMARY KEY ${ID},
      team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      name_ar TEXT,
      email TEXT
    ) STRICT`,
    `CREATE INDEX team_members_team ON team_members(team_id)`,
    `CREATE TABLE events (
      id TEXT PRIMARY KEY ${ID},
      league_id TEXT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      competition_type TEXT NOT NULL CHECK (competition_type IN ('league', 'knockout', 'hybrid')),
      status TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'in_progress', 'completed', 'cancelled')),
      starts_at TEXT,
      ends_at TEXT,
      venue_city TEXT,
      is_public INTEGER NOT NULL DEFAULT 1 CHECK (is_public IN (0, 1)),
      points_win INTEGER NOT NULL DEFAULT 3,
      points_draw INTEGER NOT NULL DEFAULT 1,
      points_loss INTEGER NOT NULL DEFAULT 0,
      match_duration_min INTEGER NOT NULL DEFAULT 90 CHECK (match_duration_min > 0),
      -- Bumped by the triggers below on any change that can alter this event's artifacts:
      -- the regeneration job re-renders an event only when its revision moved.
      revision INTEGER NOT NULL DEFAULT 1
    ) STRICT`,
    `CREATE INDEX events_league ON events(league_id)`,
    `CREATE INDEX events_public_order ON events(is_public, starts_at DESC, id)`,
    `CREATE TABLE matches (
      id TEXT PRIMARY KEY ${ID},
      event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
      round_ordinal INTEGER NOT NULL DEFAULT 1 CHECK (round_ordinal >= 1),
      round_name TEXT,
      group_name TEXT,
      -- NULL for a league or group-stage match; set for every bracket match.
      bracket_role TEXT CHECK (bracket_role IN ('winners', 'losers', 'grand_final', 'grand_final_reset', 'third_place')),
      bracket_position INTEGER NOT NULL DEFAULT 0,
      home_team_id TEXT REFERENCES teams(id),
      away_team_id TEXT REFERENCES teams(id),
      home_source_match_id TEXT REFERENCES matches(id),
      home_source_outcome TEXT CHECK (home_source_outcome IN ('winner', 'loser')),
      away_source_match_id TEXT REFERENCES matches(id),
      away_source_outcome TEXT CHECK (away_source_outcome IN ('winner', 'loser')),
      kickoff_at TEXT,
      ends_at TEXT,
      venue TEXT,
      status TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'in_progress', 'completed', 'postponed', 'cancelled')),
      home_score INTEGER CHECK (home_score >= 0),
      away_score INTEGER CHECK (away_score >= 0),
      home_penalties INTEGER CHECK (home_penalties >= 0),
      away_penalties INTEGER CHECK (away_penalties >= 0),
      walkover_winner TEXT CHECK (walkover_winner IN ('home', 'away')),
      -- iCalendar SEQUENCE and DTSTAMP: maintained by the trigger matches_touch, never by hand.
      sequence INTEGER NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL DEFAULT ${NOW},
      CHECK ((home_source_match_id IS NULL) = (home_source_outcome IS NULL)),
      CHECK ((away_source_match_id IS NULL) = (away_source_outcome IS NULL))
    ) STRICT`,
    `CREATE INDEX matches_event ON matches(event_id, bracket_role, round_ordinal, bracket_position, id)`,
    `CREATE INDEX matches_home_team ON matches(home_team_id)`,
    `CREATE INDEX matches_away_team ON matches(away_team_id)`,
    `CREATE INDEX matches_home_source ON matches(home_source_match_id)`,
    `CREATE INDEX matches_away_source ON matches(away_source_match_id)`,

    // ---- public writes ----
    `CREATE TABLE follows (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      league_id TEXT REFERENCES leagues(id) ON DELETE CASCADE,
      email TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'unsubscribed')),
      confirm_token_hash TEXT UNIQUE,
      confirm_expires_at TEXT,
      unsubscribe_token_hash TEXT NOT NULL UNIQUE,
      confirmations_sent INTEGER NOT NULL DEFAULT 0,
      last_confirmation_sent_at TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      confirmed_at TEXT,
      unsubscribed_at TEXT
    ) STRICT`,
    // One follow per address and scope; a NULL league means the whole organization.
    `CREATE UNIQUE INDEX follows_scope ON follows(org_id, ifnull(league_id, ''), email)`,
    `CREATE INDEX follows_email ON follows(email)`,
    `CREATE TABLE rsvp_invitations (
      id TEXT PRIMARY KEY,
      match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
      member_id TEXT NOT NULL REFERENCES team_members(id) ON DELETE CASCADE,
      token_hash TEXT NOT NULL UNIQUE,
      response TEXT CHECK (response IN ('yes', 'no', 'maybe')),
      responded_at TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      UNIQUE (match_id, member_id)
    ) STRICT`,
    `CREATE INDEX rsvp_invitations_member ON rsvp_invitations(member_id)`,
    `CREATE TABLE registrations (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES organizations(id),
      division_id TEXT REFERENCES divisions(id),
      status TEXT NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted')),
      name TEXT NOT NULL,
      name_ar TEXT,
      email TEXT NOT NULL,
      phone TEXT,
      date_of_birth TEXT,
      guardian_name TEXT,
      guardian_phone TEXT,
      notes TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW}
    ) STRICT`,
    `CREATE INDEX registrations_org ON registrations(org_id, created_at)`,
    `CREATE INDEX registrations_division ON registrations(division_id)`,
    `CREATE TABLE idempotency_keys (
      scope TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      response_status INTEGER NOT NULL,
      response_body TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      PRIMARY KEY (scope, key)
    ) STRICT, WITHOUT ROWID`,
    `CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at)`,
    `CREATE TABLE email_outbox (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      to_address TEXT NOT NULL,
      subject TEXT NOT NULL,
      text_body TEXT NOT NULL,
      html_body TEXT NOT NULL,
      headers_json TEXT NOT NULL DEFAULT '{}',
      tag TEXT,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT NOT NULL DEFAULT ${NOW},
      last_error TEXT,
      provider_message_id TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      sent_at TEXT
    ) STRICT`,
    `CREATE INDEX email_outbox_due ON email_outbox(status, next_attempt_at)`,
    // How many confirmation emails an address got lately (follow throttling).
    `CREATE INDEX email_outbox_recipient ON email_outbox(to_address, tag, created_at)`,

    // ---- change tracking for the read side ----
    // A match row's calendar content changed: new SEQUENCE and DTSTAMP (RFC 5545 3.8.7.4).
    `CREATE TRIGGER matches_touch AFTER UPDATE ON matches
     WHEN new.sequence = old.sequence AND (
       new.event_id IS NOT old.event_id OR new.round_ordinal IS NOT old.round_ordinal OR new.round_name IS NOT old.round_name
       OR new.group_name IS NOT old.group_name OR new.bracket_role IS NOT old.bracket_role
       OR new.bracket_position IS NOT old.bracket_position
       OR new.home_team_id IS NOT old.home_team_id OR new.away_team_id IS NOT old.away_team_id
       OR new.home_source_match_id IS NOT old.home_source_match_id OR new.home_source_outcome IS NOT old.home_source_outcome
       OR new.away_source_match_id IS NOT old.away_source_match_id OR new.away_source_outcome IS NOT old.away_source_outcome
       OR new.kickoff_at IS NOT old.kickoff_at OR new.ends_at IS NOT old.ends_at OR new.venue IS NOT old.venue
       OR new.status IS NOT old.status OR new.home_score IS NOT old.home_score OR new.away_score IS NOT old.away_score
       OR new.home_penalties IS NOT old.home_penalties OR new.away_penalties IS NOT old.away_penalties
       OR new.walkover_winner IS NOT old.walkover_winner)
     BEGIN
       UPDATE matches SET sequence = old.sequence + 1, updated_at = ${NOW} WHERE id = new.id;
       UPDATE events SET revision = revision + 1 WHERE id IN (new.event_id, old.event_id);
     END`,
    // A deleted match no longer feeds anything: clear both halves of each feed that pointed at it
    // (ON DELETE SET NULL could clear only the id and break the feed's CHECK).
    `CREATE TRIGGER matches_unfeed BEFORE DELETE ON matches BEGIN
       UPDATE matches SET home_source_match_id = NULL, home_source_outcome = NULL WHERE home_source_match_id = old.id;
       UPDATE matches SET away_source_match_id = NULL, away_source_outcome = NULL WHERE away_source_match_id = old.id;
     END`,
    `CREATE TRIGGER matches_inserted AFTER INSERT ON matches BEGIN
       UPDATE events SET revision = revision + 1 WHERE id = new.event_id;
     END`,
    `CREATE TRIGGER matches_deleted AFTER DELETE ON matches BEGIN
       UPDATE events SET revision = revision + 1 WHERE id = old.event_id;
     END`,
    `CREATE TRIGGER events_touch AFTER UPDATE ON events WHEN new.revision = old.revision BEGIN
       UPDATE events SET revision = old.revision + 1 WHERE id = new.id;
     END`,
    // Names appear in artifacts (club_name, SUMMARY, league_name, X-WR-CALNAME): renaming re-renders what shows them.
    `CREATE TRIGGER teams_renamed AFTER UPDATE OF name, name_ar ON teams
     WHEN new.name IS NOT old.name OR new.name_ar IS NOT old.name_ar BEGIN
       UPDATE events SET revision = revision + 1 WHERE id IN (
         SELECT event_id FROM matches WHERE home_team_id = new.id
         UNION SELECT event_id FROM matches WHERE away_team_id = new.id);
     END`,
    `CREATE TRIGGER leagues_renamed AFTER UPDATE OF name, name_ar ON leagues
     WHEN new.name IS NOT old.name OR new.name_ar IS NOT old.name_ar BEGIN
       UPDATE events SET revision = revision + 1 WHERE league_id = new.id;
     END`,
    `CREATE TRIGGER organizations_renamed AFTER UPDATE OF name, name_ar, language ON organizations
     WHEN new.name IS NOT old.name OR new.name_ar IS NOT old.name_ar OR new.language IS NOT old.language BEGIN
       UPDATE events SET revision = revision + 1 WHERE league_id IN (SELECT id FROM leagues WHERE org_id = new.id);
     END`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'email_outbox',
    'idempotency_keys',
    'registrations',
    'rsvp_invitations',
    'follows',
    'matches',
    'events',
    'team_members',
    'teams',
    'divisions',
    'leagues',
    'organizations',
  ]) {
    await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
  }
}
