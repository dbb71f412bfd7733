// An organization's registrations, as its organizers read them: the rows of that organization only, oldest first,
// as CSV (RFC 4180) or JSON, each `created_at` in the organization's time zone with its offset. Pure formatting here;
// the query is exportRegistrations below.
import type { SyncDb } from '../db/sync.js';
import { localDate, localInstant } from '../time/local-time.js';
import { isRealDay, isRealInstant } from '../time/rfc3339.js';
import { samePlayerAs } from './same-player.js';

export const EXPORT_COLUMNS = [
  'id', 'created_at', 'division_id', 'division_name', 'name', 'name_ar', 'email', 'phone', 'date_of_birth',
  'guardian_name', 'guardian_phone', 'notes',
  // Added since: after the others, so that a spreadsheet reading the columns by place reads them where it did.
  'division_name_ar', 'same_player_as',
] as const;
export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | null>;

/**
 * A cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a carriage return) gets a leading
 * apostrophe, so that opening the file runs nothing a submitter typed (OWASP "CSV injection"). So does what follows a
 * semicolon or a tab inside a value (spaces and quotes skipped): Excel splits a .csv on the region's list separator,
 * a semicolon wherever the decimal mark is a comma, and LibreOffice on what its import dialog ticks, so a review's
 * notes "Left back;=cmd|' /C calc'!A0" became a cell of its own starting with "=". Quoting does not help there: the
 * quote is not at the start of that cell, so a line break inside a value ends the row, and what follows it starts a
 * cell too (a second review's notes "nuts\n=1+1" made a row of their own starting with "=").
 */
export function neutralizeFormula(value: string): string {
  const inner = value.replace(/([;\t\r\n][ "]*)(?=[=+\-@])/g, "$1'");
  return /^[=+\-@\t\r]/.test(inner) ? `'${inner}` : inner;
}

/** One RFC 4180 field: quoted when it holds a quote, a comma or a line break; quotes doubled. */
export function csvField(value: string | null): string {
  const v = neutralizeFormula(value ?? '');
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * RFC 4180: a header row, CRLF after every record, UTF-8 with a byte-order mark (without it, spreadsheets on
 * Windows read Arabic as mojibake; parsers that know UTF-8 skip it: Python's `utf-8-sig`).
 */
export function toCsv(rows: readonly ExportRow[]): string {
  return csvTable(EXPORT_COLUMNS, rows);
}

/** Any export's CSV as toCsv writes it (the RSVP answers' too, src/rsvp/answers.ts): one set of rules for every file. */
export function csvTable<C extends string>(columns: readonly C[], rows: readonly Record<C, string | null>[]): string {
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => csvField(r[c])).join(','))];
  return `\ufeff${lines.map((l) => `${l}\r\n`).join('')}`;
}

export function toJson(orgId: string, since: string | null, rows: readonly ExportRow[]): string {
  return `${JSON.stringify({ organization: orgId, since, registrations: rows }, null, 2)}\n`;
}

/** `--since`: a day (`YYYY-MM-DD`, in the organization's time zone) or an instant. Null when it is neither. */
export function parseSince(value: string): { day: string } | { instant: string } | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return isRealDay(value) ? { day: value } : null;
  // An instant is RFC 3339 with its offset, as in the import file. Without one, Date.parse reads the server's own
  // time zone (not the organization's), and it rolls 2026-02-30T00:00Z over to 2 March: both are refused.
  if (!isRealInstant(value)) return null;
  return { instant: new Date(Date.parse(value)).toISOString() };
}

/** The organization's registrations since a day or an instant (all when absent), oldest first; undefined: no such org. */
export function exportRegistrations(
  store: SyncDb,
  orgId: string,
  since: ReturnType<typeof parseSince>,
): ExportRow[] | undefined {
  const org = store.first(store.q.selectFrom('organizations').select(['id', 'timezone']).where('id', '=', orgId));
  if (!org) return undefined;
  let query = store.q.selectFrom('registrations as r')
    .leftJoin('divisions as d', 'd.id', 'r.division_id')
    .select([
      // The division's Arabic name beside its name, as the notices give it to an Arabic organization (a review's
      // academy read "تحت 12 سنة" in each notice and "Under 12" in its export).
      'r.id', 'r.created_at', 'r.division_id', 'd.name as division_name', 'd.name_ar as division_name_ar', 'r.name', 'r.name_ar', 'r.email', 'r.phone',
      'r.date_of_birth', 'r.guardian_name', 'r.guardian_phone', 'r.notes',
    ])
    .where('r.org_id', '=', org.id)
    .orderBy('r.created_at').orderBy('r.id');
  if (since && 'instant' in since) query = query.where('r.created_at', '>=', since.instant);
  // A local day starts at most 14 hours before its UTC namesake: narrow in SQL, decide by the local date.
  if (since && 'day' in since) query = query.where('r.created_at', '>=', new Date(Date.parse(since.day) - 14 * 3600_000).toISOString());
  const rows = store.all(query);
  const kept = since && 'day' in since ? rows.filter((r) => localDate(new Date(r.created_at), org.timezone) >= since.day) : rows;
  // Which repeat an earlier registration, among all the organization holds: the first may be before --since.
  const same = samePlayerAs(store.all(
    store.q.selectFrom('registrations').select(['id', 'name', 'date_of_birth', 'email']).where('org_id', '=', org.id).orderBy('created_at').orderBy('id'),
  ));
  // In the organization's time zone, as its notices and --since read it: in UTC, a review's registration at 01:30 in
  // Amman showed in the spreadsheet on the day before the one its notice named.
  return kept.map((r) => ({ ...r, created_at: localInstant(new Date(r.created_at), org.timezone), same_player_as: same.get(r.id) ?? null }));
}
