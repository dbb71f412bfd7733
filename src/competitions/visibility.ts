// What the public may see of a league: only what a public competition shows. A league whose competitions are all
// private (or that has none) is, to the public, exactly like an id that does not exist: it is not followed, not
// registered into, and never named in an email (its name would otherwise be revealed to whoever guessed its id).
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** True for a league with at least one public competition; `leagueId` is a column reference such as `l.id`. */
export function leagueIsPublic(leagueId: Expression<string | null>): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from events where events.league_id = ${leagueId} and events.is_public = 1)`;
}

/**
 * True where no league is named (a follow of the whole organization, a division of none) or the league is public:
 * what a follow's scope or a division needs to be seen by the public.
 */
export function noLeagueOrPublic(leagueId: Expression<string | null>): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${leagueId} is null or ${leagueIsPublic(leagueId)})`;
}
