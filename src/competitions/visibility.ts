// What the public may see of a league: only what a public competition shows. A league whose competitions are all
// private (or that has none) is, to the public, exactly like an id that does not exist: it is not followed, not
// registered into, and never named in an email (its name would otherwise be revealed to whoever guessed its id).
import { sql, type Expression, type SqlBool } from 'kysely';

/** True for a league with at least one public competition; `leagueId` is a column reference such as `l.id`. */
export function leagueIsPublic(leagueId: Expression<string | null>): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from events where events.league_id = ${leagueId} and events.is_public = 1)`;
}
