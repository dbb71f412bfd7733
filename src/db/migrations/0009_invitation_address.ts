// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// An invitation records the address its email went to. When an organizer corrects a member's address (a typo
// sent the link to a stranger, or the member moved), `npm run invite` sees the difference: it withdraws the links
// that went to the old address and invites the new one. Invitations made before this know their address from
// their email while the outbox still holds it (30 days), else from the member's address now.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `ALTER TABLE rsvp_invitations ADD COLUMN email TEXT`,
    // Each invitation's emails, read in one pass over the outbox and indexed: a subquery per invitation would read
    // the whole outbox for each (minutes for 10,000 invitations and a busy outbox).
    `CREATE TEMP TABLE invitation_emails AS
       SELECT CASE WHEN json_valid(data_json) THEN json_extract(data_json, '$.invitationId') END AS invitation_id,
              id, to_address
       FROM email_outbox WHERE template = 'rsvp-invite'`,
    `CREATE INDEX temp.invitation_emails_by_invitation ON invitation_emails(invitation_id, id)`,
    `UPDATE rsvp_invitations SET email = coalesce(
       (SELECT e.to_address FROM invitation_emails e WHERE e.invitation_id = rsvp_invitations.id ORDER BY e.id DESC LIMIT 1),
       (SELECT m.email FROM team_members m WHERE m.id = rsvp_invitations.member_id))`,
    `DROP TABLE temp.invitation_emails`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0009_invitation_address cannot be undone');
}
