// The calendar feeds this folder published whose competition or team is no longer public (made private, deleted,
// a team with no public match left). Each answers an empty calendar, not a 404: to Google, Apple and Outlook a 404
// or 410 is "try again later", so a competition taken down stayed in its subscribers' calendars, times and venues,
// for good (a calendar user's review). An empty feed makes their next poll clear it. Only an id once published here
// gets one: an id never public stays unknown (404), and the empty feed names nothing (no competition, no team).
import { assembleCalendarParts } from '../competitions/calendar.js';

/** What a subscriber's calendar app shows as the subscription's name once its matches are gone. */
export const RETIRED_CALENDAR_NAME = 'No longer published · لم يعد منشورًا';

/** The feed of every retired id: a calendar with no event (UTC's time zone as its one component, RFC 5545 3.6). */
export function retiredFeed(refreshMinutes: number): string[] {
  return assembleCalendarParts({ calendarName: RETIRED_CALENDAR_NAME, eventId: '', refreshMinutes }, []);
}

/** The ids of a run's feeds, as its manifest records them: published (with a content hash) and retired. */
export interface FeedIds {
  events: Readonly<Record<string, unknown>>;
  teams?: Readonly<Record<string, unknown>>;
  retired?: { calendars?: Readonly<Record<string, unknown>>; teams?: Readonly<Record<string, unknown>> };
}

/**
 * The competitions and teams whose feed is retired after this run: published by the last run or retired already,
 * and not published by this one. Pure; sorted, so that the manifest's bytes never depend on the order of work.
 */
export function retiredIds(previous: FeedIds, next: Pick<FeedIds, 'events' | 'teams'>): { calendars: string[]; teams: string[] } {
  const gone = (before: ReadonlyArray<Readonly<Record<string, unknown>> | undefined>, now: Readonly<Record<string, unknown>>) =>
    [...new Set(before.flatMap((record) => Object.keys(record ?? {})))].filter((id) => !Object.hasOwn(now, id)).sort();
  return {
    calendars: gone([previous.events, previous.retired?.calendars], next.events),
    teams: gone([previous.teams, previous.retired?.teams], next.teams ?? {}),
  };
}
