// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Email is rendered when it is sent, not when it is queued:
// - email_outbox records what to send (a template name and its data as JSON) instead of rendered bodies, and
//   a random Message-ID key so that Message-IDs never repeat across installations;
// - the links an email carries are minted by the worker at send time: link_tokens holds only their SHA-256
//   hashes, one row per link (an email that is retried mints new links and the old ones keep working), so
//   follows and rsvp_invitations lose their token columns;
// - `mailbox` is the address as a mailbox (lower case, no +tag, no dots in the local part): per-address email
//   limits count mailboxes, not spellings;
// - installation holds what must never change for the life of a database: its random id and the domain of its
//   calendar UIDs (set by the first regeneration).
import { sql, type Kysely } from 'kysely';

const NOW = `(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `CREATE TABLE installation (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
      id TEXT NOT NULL,
      uid_domain TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW}
    ) STRICT`,
    `INSERT INTO installation (singleton, id) VALUES (1, lower(hex(randomblob(16))))`,

    `CREATE TABLE link_tokens (
      hash TEXT PRIMARY KEY,
      purpose TEXT NOT NULL CHECK (purpose IN ('follow-confirm', 'follow-unsubscribe', 'rsvp')),
      subject_id TEXT NOT NULL,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      expires_at TEXT
    ) STRICT, WITHOUT ROWID`,
    `CREATE INDEX link_tokens_subject ON link_tokens(purpose, subject_id)`,
    `CREATE INDEX link_tokens_expiry ON link_tokens(expires_at) WHERE expires_at IS NOT NULL`,
    // The links of emails queued before this migration stay valid.
    `INSERT INTO link_tokens (hash, purpose, subject_id, created_at, expires_at)
       SELECT confirm_token_hash, 'follow-confirm', id, coalesce(last_confirmation_sent_at, created_at), confirm_expires_at
       FROM follows WHERE confirm_token_hash IS NOT NULL`,
    `INSERT INTO link_tokens (hash, purpose, subject_id, created_at)
       SELECT unsubscribe_token_hash, 'follow-unsubscribe', id, created_at FROM follows`,
    `INSERT INTO link_tokens (hash, purpose, subject_id, created_at)
       SELECT token_hash, 'rsvp', id, created_at FROM rsvp_invitations`,

    `CREATE TABLE follows_next (
      id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      league_id TEXT REFERENCES leagues(id) ON DELETE CASCADE,
      email TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'unsubscribed')),
      confirmations_sent INTEGER NOT NULL DEFAULT 0,
      last_confirmation_sent_at TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      confirmed_at TEXT,
      unsubscribed_at TEXT
    ) STRICT`,
    `INSERT INTO follows_next SELECT id, org_id, league_id, email, status, confirmations_sent, last_confirmation_sent_at,
       created_at, confirmed_at, unsubscribed_at FROM follows`,
    `DROP TABLE follows`,
    `ALTER TABLE follows_next RENAME TO follows`,
    `CREATE UNIQUE INDEX follows_scope ON follows(org_id, ifnull(league_id, ''), email)`,
    `CREATE INDEX follows_email ON follows(email)`,

    `CREATE TABLE rsvp_invitations_next (
      id TEXT PRIMARY KEY,
      match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
      member_id TEXT NOT NULL REFERENCES team_members(id) ON DELETE CASCADE,
      response TEXT CHECK (response IN ('yes', 'no', 'maybe')),
      responded_at TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      UNIQUE (match_id, member_id)
    ) STRICT`,
    `INSERT INTO rsvp_invitations_next SELECT id, match_id, member_id, response, responded_at, created_at FROM rsvp_invitations`,
    `DROP TABLE rsvp_invitations`,
    `ALTER TABLE rsvp_invitations_next RENAME TO rsvp_invitations`,
    `CREATE INDEX rsvp_invitations_member ON rsvp_invitations(member_id)`,

    `CREATE TABLE email_outbox_next (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      message_key TEXT NOT NULL UNIQUE,
      to_address TEXT NOT NULL,
      mailbox TEXT NOT NULL,
      template TEXT NOT NULL,
      data_json TEXT NOT NULL,
      tag TEXT,
      status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT NOT NULL DEFAULT ${NOW},
      last_error TEXT,
      provider_message_id TEXT,
      created_at TEXT NOT NULL DEFAULT ${NOW},
      sent_at TEXT
    ) STRICT`,
    // Rows queued before this migration were rendered already: they leave as they are ('prerendered').
    `INSERT INTO email_outbox_next (id, message_key, to_address, mailbox, template, data_json, tag, status, attempts,
       next_attempt_at, last_error, provider_message_id, created_at, sent_at)
     SELECT id, lower(hex(randomblob(16))), to_address, lower(to_address), 'prerendered',
       json_object('subject', subject, 'text', text_body, 'html', html_body, 'headers', json(headers_json)),
       tag, status, attempts, next_attempt_at, last_error, provider_message_id, created_at, sent_at
     FROM email_outbox`,
    `DROP TABLE email_outbox`,
    `ALTER TABLE email_outbox_next RENAME TO email_outbox`,
    `CREATE INDEX email_outbox_due ON email_outbox(status, next_attempt_at)`,
    // How many emails of a kind a mailbox got lately (per-mailbox limits).
    `CREATE INDEX email_outbox_mailbox ON email_outbox(mailbox, tag, created_at)`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0002_mail_at_send_time cannot be undone: the token columns it folded into link_tokens are gone');
}
