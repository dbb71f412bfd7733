// What an import changed in an organization's competitions, from its events as read before and after the import
// (src/import/load.ts reads them, in the import's transaction): which became public, private or removed, a
// competition's new status, a team's points adjustments. Pure: the summary the organizer reads (and `--check`) says
// what these find.
import { adjustmentChanges, adjustmentsSeen } from '../updates/changes.js';
import type { ImportCounts } from './load.js';

/** An event as the comparisons read it (the events table's columns; adjustments as stored, JSON). */
export interface EventSeen {
  id: string;
  name: string;
  is_public: number;
  status: string;
  adjustments: string;
  /** Where its matches without a venue of their own are played (calendars and the updates job read it so). */
  venue_city: string | null;
}

/** A team as the summary names it: its name, and its Arabic one after a slash where it has one. */
export const teamLabel = (t: { name: string; name_ar: string | null }) => (t.name_ar === null ? t.name : `${t.name} / ${t.name_ar}`);

/**
 * Events whose reads the import makes public, private or removes (a public one no longer in the file), by id: the
 * organizer learns what the public can now see, and what it no longer can.
 */
export function visibilityChanges(before: ReadonlyMap<string, EventSeen>, after: ReadonlyMap<string, EventSeen>): ImportCounts['visibility'] {
  const out: ImportCounts['visibility'] = [];
  for (const [id, was] of before) {
    const now = after.get(id);
    if (was.is_public && !now) out.push({ event: id, name: was.name, now: 'removed' });
    else if (now && was.is_public !== now.is_public) out.push({ event: id, name: now.name, now: now.is_public ? 'public' : 'private' });
  }
  for (const [id, now] of after) if (!before.has(id) && now.is_public) out.push({ event: id, name: now.name, now: 'public' });
  return out.sort(byEvent);
}

/** By event id: the summary's order, across the file's organizations too. */
export const byEvent = (a: { event: string }, b: { event: string }) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0);

/** An event kept whose city changed (a match's own venue changes are its match's line). */
export type CityChange = { event: string; name: string; before: string | null; after: string | null };

/**
 * Each event kept whose status or city changed, and each team whose points adjustments changed there, compared as
 * the updates job compares them (a reason reworded alone is no change). `teamName`: a team's label, or null for one
 * the organization no longer has.
 */
export function eventChanges(
  before: ReadonlyMap<string, EventSeen>,
  after: ReadonlyMap<string, EventSeen>,
  teamName: (team: string) => string | null,
): Pick<ImportCounts, 'eventStatuses' | 'adjustments'> & { cities: CityChange[] } {
  const out: ReturnType<typeof eventChanges> = { eventStatuses: [], adjustments: [], cities: [] };
  const seen = (json: string) => adjustmentsSeen(JSON.parse(json) as Array<{ team: string; points: number; reason: string }>);
  for (const [id, now] of after) {
    const was = before.get(id);
    if (was === undefined) continue;
    if (was.status !== now.status) out.eventStatuses.push({ event: id, name: now.name, before: was.status, after: now.status });
    if (was.venue_city !== now.venue_city) out.cities.push({ event: id, name: now.name, before: was.venue_city, after: now.venue_city });
    for (const change of adjustmentChanges(seen(was.adjustments), seen(now.adjustments), (team) => team)) {
      out.adjustments.push({ event: id, name: now.name, teamName: teamName(change.team), ...change });
    }
  }
  return out;
}
