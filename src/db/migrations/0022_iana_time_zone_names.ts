// Frozen in time: never edit a migration that has landed; add a new one. Imports nothing from src/.
//
// An organization's time zone under the name IANA gives it today: the import kept ICU's canonical id, which for a few
// zones is a name IANA has replaced (a time review: a Ukrainian club's "Europe/Kyiv" stored and published as
// "Europe/Kiev", Kathmandu's as "Asia/Katmandu"). The same instants, another name: organizations_timezone (0017)
// re-renders the events list, whose `timezone` field gives it.
import { sql, type Kysely } from 'kysely';

const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['Africa/Asmera', 'Africa/Asmara'],
  ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
  ['America/Catamarca', 'America/Argentina/Catamarca'],
  ['America/Coral_Harbour', 'America/Atikokan'],
  ['America/Cordoba', 'America/Argentina/Cordoba'],
  ['America/Godthab', 'America/Nuuk'],
  ['America/Indianapolis', 'America/Indiana/Indianapolis'],
  ['America/Jujuy', 'America/Argentina/Jujuy'],
  ['America/Louisville', 'America/Kentucky/Louisville'],
  ['America/Mendoza', 'America/Argentina/Mendoza'],
  ['Asia/Calcutta', 'Asia/Kolkata'],
  ['Asia/Katmandu', 'Asia/Kathmandu'],
  ['Asia/Rangoon', 'Asia/Yangon'],
  ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
  ['Atlantic/Faeroe', 'Atlantic/Faroe'],
  ['Europe/Kiev', 'Europe/Kyiv'],
  ['Pacific/Enderbury', 'Pacific/Kanton'],
  ['Pacific/Ponape', 'Pacific/Pohnpei'],
  ['Pacific/Truk', 'Pacific/Chuuk'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [icu, iana] of RENAMED) {
    await sql`UPDATE organizations SET timezone = ${iana} WHERE timezone = ${icu}`.execute(db);
  }
}

// The old names are the same zones: nothing to undo.
export async function down(): Promise<void> {}
