// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// An invitation records what its member was last told of the match (told_json: kickoff, venue, and whether it was
// open, postponed or cancelled), written when its invitation email or a change email leaves. An email about a change
// compares the match with it, not with what the updates job saw last: a member invited right after a move was shown
// the new kickoff and is not told it again as news. Invitations made before this have none: their change emails
// compare with the change's own "before", as they did.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE rsvp_invitations ADD COLUMN told_json TEXT`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0012_invitation_told cannot be undone');
}
