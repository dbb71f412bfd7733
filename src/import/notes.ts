// What an import takes but points out, for the organizer to check: nothing here refuses a file. A review's first
// version refused both, and real competitions have them: a league's walkover awarded before its day (recorded as a
// completed match with its awarded score), a match brought forward and scored before its kickoff was corrected, a
// youth day whose matches all carry the day's placeholder time.
import { utcInstant } from '../time/rfc3339.js';
import { isPlayed, tieOf } from './cross-check.js';
import type { ImportFile } from './format.js';

/** One line per thing to check, naming the event and the matches: a result before its kickoff, a team twice at once. */
export function importNotes(file: ImportFile, now: Date): string[] {
  const notes: string[] = [];
  for (const org of file.organizations) {
    for (const league of org.leagues) {
      for (const ev of league.events) {
        const at = `event "${ev.id}"`;
        const busy = new Map<string, { match: string; tie: string }>();
        for (const m of ev.matches) {
          if (!isPlayed(m) || m.kickoff === null) continue;
          if ((m.status === 'completed' || m.status === 'in_progress') && m.walkover == null && Date.parse(m.kickoff) > now.getTime()) {
            notes.push(
              `${at}, match "${m.id}": ${m.status === 'completed' ? 'completed' : 'under way'} before its kickoff (${m.kickoff}; now ${utcInstant(now)}). ` +
                'Its result counts in the table: if it was played earlier, correct its kickoff; an awarded result may stand',
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
