// What an import takes but points out, for the organizer to check: nothing here refuses a file. A review's first
// version refused both, and real competitions have them: a league's walkover awarded before its day (recorded as a
// completed match with its awarded score), a match brought forward and scored before its kickoff was corrected, a
// youth day whose matches all carry the day's placeholder time. A completed competition with a match not played is
// taken too: it may be how the season really ended (a match abandoned and never replayed) until the organizer says so.
import { localDate, localParts, utcOffset, zonedInstant } from '../time/local-time.js';
import { utcInstant } from '../time/rfc3339.js';
import { isPlayed, tieOf } from './cross-check.js';
import type { ImportFile, ImportMatch } from './format.js';
import { kickoffWrittenAs } from './validate.js';

/** Statuses of a match still to be played (or being played). */
const STILL_TO_PLAY: ReadonlySet<string> = new Set(['scheduled', 'postponed', 'in_progress']);

/**
 * A completed competition's match still to play: calendars keep it as a match to come, a league's table (and its
 * champion) leaves it out, and a knockout has no champion while its final waits. Nearly always a result not entered,
 * or a match that will not be played (a reset final not needed) and should say so.
 */
const UNPLAYED_ADVICE = 'Calendars still show them to come and tables leave them out: enter their results, or mark those not to be played cancelled';

/** The first matches' ids and statuses, then how many more: one line for a whole season left unplayed. */
function listed(matches: ReadonlyArray<{ id: string; status: string }>): string {
  const shown = matches.slice(0, 5).map((m) => `"${m.id}" (${m.status})`).join(', ');
  return matches.length > 5 ? `${shown} and ${matches.length - 5} more` : shown;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A kickoff written with an explicit offset that is not the organization's at that instant: where it is published
 * (the local time in the zone, the date too when it is another day, and the zone's offset then), and the offset
 * that would put it at the hour written, null when that hour is not on the zone's clock that day (the hour the clocks
 * skip). Null for a `Z` or `-00:00` kickoff (UTC, deliberately; RFC 3339: "-00:00" says the local offset is unknown)
 * or one whose offset is the zone's.
 */
export function foreignOffset(written: string, timeZone: string): { local: string; offset: string; hour: string; suggested: string | null } | null {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?([+-]\d{2}:\d{2})$/.exec(written);
  if (!m) return null;
  const [, day, hour, minute, writtenOffset] = m as unknown as [string, string, string, string, string];
  const instant = new Date(Date.parse(written));
  const offset = utcOffset(instant, timeZone);
  if (offset === writtenOffset || writtenOffset === '-00:00') return null;
  const p = localParts(instant, timeZone);
  const date = localDate(instant, timeZone);
  const local = `${date === day ? '' : `${date} `}${two(p.hour)}:${two(p.minute)}`;
  // In the hour the clocks skip, no offset puts it at the hour written: zonedInstant lands elsewhere, and suggested
  // the offset already written (a review).
  const meant = zonedInstant(day, Number(hour), timeZone, Number(minute));
  const onTheClock = localDate(meant, timeZone) === day && localParts(meant, timeZone).hour === Number(hour) && localParts(meant, timeZone).minute === Number(minute);
  return { local, offset, hour: `${hour}:${minute}`, suggested: onTheClock ? utcOffset(meant, timeZone) : null };
}

/**
 * A kickoff written in UTC (`Z`) where the organization's clock is not at UTC that day: where it is published, and
 * the offset that would put it at the hour written. A first-time organizer's review copied the import's own example
 * ("2026-03-07T18:30:00Z") for April's cup semi-finals in London, and they were published an hour late, unsaid: the
 * note for a foreign offset said nothing of Z, taken as deliberate UTC. Still taken (a feed may give UTC on purpose);
 * said once an event.
 */
export function utcNotLocal(written: string, timeZone: string): { local: string; offset: string; hour: string; suggested: string | null } | null {
  if (!/[Zz]$/.test(written)) return null;
  return foreignOffset(written.replace(/[Zz]$/, '+00:00'), timeZone);
}

/** The matches whose kickoff, as the file wrote it, `check` finds something of, with what it found. */
function kickoffsFound<F>(matches: readonly ImportMatch[], check: (written: string) => F | null): Array<{ id: string; written: string; f: F }> {
  const found: Array<{ id: string; written: string; f: F }> = [];
  for (const m of matches) {
    const written = m.kickoff === null ? undefined : kickoffWrittenAs(m);
    const f = written === undefined ? null : check(written);
    if (f !== null) found.push({ id: m.id, written: written!, f });
  }
  return found;
}

/** The UTC kickoffs of an event that are not the organization's clock (utcNotLocal): one line, the first few named. */
function utcNote(at: string, matches: readonly ImportMatch[], timeZone: string): string | null {
  const found = kickoffsFound(matches, (written) => utcNotLocal(written, timeZone));
  if (found.length === 0) return null;
  // The hour the clocks skip has no offset that puts a kickoff at it (a review: Beirut's 00:30 on its spring night).
  const shown = found.slice(0, 3).map(({ id, written, f }) =>
    `"${id}" ${written} is ${f.local} there (${f.offset} that day${f.suggested === null ? `; ${f.hour} is not a time there that day: the clocks skip it` : ''})`).join(', ');
  const more = found.length > 3 ? ` and ${found.length - 3} more` : '';
  const many = found.length > 1;
  const first = found.find(({ f }) => f.suggested !== null);
  const advice = first === undefined ? 'Give each a time on the clock there'
    : `If ${many ? 'they are' : 'it is'} at the hour written there, write that day's offset instead of Z (${first.f.suggested} for "${first.id}")`;
  return `${at}: ${many ? `${found.length} kickoffs are` : 'a kickoff is'} written in UTC (Z), which is not ${timeZone}'s clock that day: ${shown}${more}. ${advice}`;
}

/**
 * Kickoffs whose offset is not the organization's that day: one pasted from a fixture of another season (October's
 * +01:00 in a London December) was published an hour off, silently (an organizer's review). Not refused: a match
 * abroad may be written in its own zone. One line for the event, however many matches have it.
 */
function offsetNote(at: string, matches: readonly ImportMatch[], timeZone: string): string | null {
  const found = kickoffsFound(matches, (written) => foreignOffset(written, timeZone));
  if (found.length === 0) return null;
  if (found.length === 1) {
    const { id, written, f } = found[0]!;
    const advice = f.suggested === null ? `${f.hour} is not a time there that day (the clocks skip it)` : `if it is ${f.hour} there, write ${f.suggested}`;
    return `${at}, match "${id}": kickoff ${written} is ${f.local} in ${timeZone} (${f.offset} that day): ${advice}`;
  }
  // A time review: the grouped line dropped the hour the clocks skip, and its advice (that day's offset) moved such a
  // match an hour and still not to the hour written.
  const shown = found.slice(0, 5).map(({ id, written, f }) =>
    `"${id}" ${written} is ${f.local} (${f.offset} that day${f.suggested === null ? `; ${f.hour} is not a time there that day: the clocks skip it` : ''})`).join(', ');
  const more = found.length > 5 ? ` and ${found.length - 5} more` : '';
  const advice = found.every(({ f }) => f.suggested === null) ? 'Give each a time on the clock there' : "If they are at the hour written there, write that day's offset";
  return `${at}: ${found.length} kickoffs have an offset that is not ${timeZone}'s that day: ${shown}${more}. ${advice}`;
}

/**
 * A competition's dates that leave out some of its matches: the events list dates and orders a competition by its
 * `starts_at` (a time review's competition said it started on 1 January, with a match on 28 November). Not refused:
 * a friendly played before the season's first day may belong to it. Cancelled matches aside.
 */
function datesNote(at: string, ev: { starts_at?: string | null; ends_at?: string | null; matches: readonly ImportMatch[] }): string[] {
  if (!ev.starts_at && !ev.ends_at) return [];
  // One pass (a review timed a sort of 100,000 kickoffs at 0.6 s).
  let first: { m: ImportMatch; at: number } | undefined;
  let last: typeof first;
  for (const m of ev.matches) {
    if (m.kickoff == null || m.status === 'cancelled') continue;
    const t = Date.parse(m.kickoff);
    if (first === undefined || t < first.at) first = { m, at: t };
    if (last === undefined || t > last.at) last = { m, at: t };
  }
  const notes: string[] = [];
  if (ev.starts_at && first && first.at < Date.parse(ev.starts_at)) {
    notes.push(`${at}: starts_at ${ev.starts_at} is after its first match, "${first.m.id}" at ${first.m.kickoff}; the events list gives starts_at as the competition's start`);
  }
  if (ev.ends_at && last && last.at > Date.parse(ev.ends_at)) {
    notes.push(`${at}: ends_at ${ev.ends_at} is before its last match, "${last.m.id}" at ${last.m.kickoff}; the events list gives ends_at as the competition's end`);
  }
  return notes;
}

/**
 * One line per thing to check, naming the event and the matches: a result before its kickoff, a team twice at once,
 * a completed competition with matches not played, kickoffs written with another offset than the organization's.
 */
export function importNotes(file: ImportFile, now: Date): string[] {
  const notes: string[] = [];
  for (const org of file.organizations) {
    for (const league of org.leagues) {
      for (const ev of league.events) {
        const at = `competition "${ev.id}"`; // as the summary names it
        const unplayed = ev.status === 'completed' ? ev.matches.filter((m) => STILL_TO_PLAY.has(m.status)) : [];
        if (unplayed.length > 0) notes.push(`${at}: completed, with ${unplayed.length === 1 ? 'a match' : `${unplayed.length} matches`} not played: ${listed(unplayed)}. ${UNPLAYED_ADVICE}`);
        const offsets = offsetNote(at, ev.matches, org.timezone);
        if (offsets !== null) notes.push(offsets);
        const utc = utcNote(at, ev.matches, org.timezone);
        if (utc !== null) notes.push(utc);
        notes.push(...datesNote(at, ev));
        const busy = new Map<string, { match: string; tie: string }>();
        for (const m of ev.matches) {
          if (!isPlayed(m) || m.kickoff === null) continue;
          if ((m.status === 'completed' || m.status === 'in_progress') && m.walkover == null && Date.parse(m.kickoff) > now.getTime()) {
            // An organizer's review: the note told of a match under way that its result counts in the table, and
            // tables count completed matches only (standings.ts).
            // A bracket match has no table: its result sends a team on (a review read "counts in the table" of a cup).
            const counts = m.bracket_role != null || ev.type === 'knockout' ? 'Its result decides who goes on' : 'Its result counts in the table';
            const waits = m.bracket_role != null || ev.type === 'knockout' ? 'It decides nothing' : 'It counts in no table';
            notes.push(
              m.status === 'completed'
                ? `${at}, match "${m.id}": completed before its kickoff (${m.kickoff}; now ${utcInstant(now)}). ` +
                    `${counts}: if it was played earlier, correct its kickoff; an awarded result may stand`
                : `${at}, match "${m.id}": under way before its kickoff (${m.kickoff}; now ${utcInstant(now)}). ` +
                    `${waits} until it is completed: if it kicked off earlier, correct its kickoff; if not, leave it scheduled`,
            );
          }
          // The two legs of one tie may share a kickoff: a placeholder date for a bracket whose days are not set.
          const tie = tieOf(m);
          for (const team of [m.home, m.away]) {
            if (typeof team !== 'string') continue;
            const key = `${team}\u0000${m.kickoff}`;
            const other = busy.get(key);
            if (other === undefined) busy.set(key, { match: m.id, tie });
            else if (other.tie !== tie) {
              notes.push(`${at}, match "${m.id}": team "${team}" also plays match "${other.match}" at this kickoff (${m.kickoff}); a placeholder time is fine, else correct one`);
            }
          }
        }
      }
    }
  }
  return notes;
}
