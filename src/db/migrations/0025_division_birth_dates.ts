// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// Whom a division takes by date of birth: youth football groups players by the day they were born (born in 2015 or
// later for an under-12 side; on or after 1 September 2014 where the season's cut-off is 31 August), not by their
// age on the day they register. Both bounds are inclusive local days (YYYY-MM-DD); null: no bound.
import { sql, type Kysely } from 'kysely';

const DAY = `GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'`;

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [
    `ALTER TABLE divisions ADD COLUMN born_from TEXT CHECK (born_from IS NULL OR born_from ${DAY})`,
    `ALTER TABLE divisions ADD COLUMN born_until TEXT CHECK (born_until IS NULL OR born_until ${DAY})`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('0025_division_birth_dates cannot be undone');
}
