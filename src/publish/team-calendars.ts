// A calendar per team: every public match of the team across its competitions, each VEVENT exactly as in its
// competition's feed (same UID, SEQUENCE, status), so a person subscribed to both sees each match once.
// The regeneration re-renders only the teams of the events it rendered (or lost), one organization at a time (a
// team plays only in its organization's competitions), so memory holds one organization's matches, not all: an
// organization rendered whole right after its events (render-organization.ts), the others by reading their events
// back (regenerate.ts).
import { resolveTeams } from '../competitions/bracket.js';
import { bracketContext } from '../competitions/group-feeds.js';
import { assembleCalendarParts, renderVevents, type CalendarInput, type RenderedVevent } from '../competitions/calendar.js';
import { nameLineIn } from '../competitions/calendar-feed.js';
import { compareCodeUnits } from '../competitions/tiebreakers.js';
import type { EventFacts, MatchFacts, TeamFacts } from '../competitions/types.js';
import { localizedName, type Language } from '../vocabulary/language.js';

/** Each match's teams as decided (a fed slot once its source decided it), by match id. */
export function teamsByMatch(event: EventFacts, matches: readonly MatchFacts[], teams: ReadonlyMap<string, TeamFacts>): Map<string, Set<string>> {
  const resolved = resolveTeams([...matches], bracketContext(event, [...matches], teams));
  const out = new Map<string, Set<string>>();
  for (const m of matches) {
    const r = resolved.get(m.id);
    out.set(m.id, new Set([r?.home ?? m.home_team_id, r?.away ?? m.away_team_id].filter((t): t is string => t !== null)));
  }
  return out;
}

/** The teams that play in an event (teamsByMatch's): decided slots, dated or not. */
export function playingTeams(byMatch: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  return [...new Set([...byMatch.values()].flatMap((s) => [...s]))].sort();
}

export class TeamCalendars {
  /** team → event → the VEVENTs of its matches in that event (the same strings for both teams of a match). */
  private readonly entries = new Map<string, Map<string, RenderedVevent[]>>();
  private readonly names = new Map<string, { name: string; language: Language }>();

  /**
   * Records the VEVENTs of an event's matches under each team that plays them (`byMatch`: teamsByMatch's). Each match
   * is rendered once per language (a team's feed speaks the language of the first competition it was seen in; nearly
   * always the event's), or not at all when `vevents`, the event's own feed's (renderVevents(feed)), are given.
   */
  add(
    event: EventFacts,
    byMatch: ReadonlyMap<string, ReadonlySet<string>>,
    teams: ReadonlyMap<string, TeamFacts>,
    feed: CalendarInput,
    vevents?: readonly RenderedVevent[],
  ): void {
    const rendered = new Map<Language | undefined, Map<string, RenderedVevent>>();
    if (vevents) rendered.set(feed.language, new Map(vevents.map((v) => [v.id, v])));
    const veventsIn = (language: Language) => {
      let byId = rendered.get(language);
      if (!byId) {
        const vevents = renderVevents({ eventId: event.id, uidDomain: feed.uidDomain, language, matches: feed.matches });
        rendered.set(language, (byId = new Map(vevents.map((v) => [v.id, v]))));
      }
      return byId;
    };
    for (const [matchId, playing] of byMatch) {
      for (const teamId of playing) {
        let named = this.names.get(teamId);
        if (!named) {
          const t = teams.get(teamId);
          named = { name: t ? localizedName(t.name, t.name_ar, event.language) : teamId, language: event.language };
          this.names.set(teamId, named);
        }
        let perEvent = this.entries.get(teamId);
        if (!perEvent) this.entries.set(teamId, (perEvent = new Map()));
        let list = perEvent.get(event.id);
        if (!list) perEvent.set(event.id, (list = []));
        const vevent = veventsIn(named.language).get(matchId);
        if (vevent) list.push(vevent);
      }
    }
  }

  /** Each team recorded, with the events it plays in. */
  *teams(): Generator<[teamId: string, eventIds: string[]]> {
    for (const [teamId, perEvent] of this.entries) yield [teamId, [...perEvent.keys()]];
  }

  /** The team's feed over the given events (its public ones), matches in time order, each UID once. */
  render(teamId: string, eventIds: readonly string[], options: { refreshMinutes: number }): string[] {
    const perEvent = this.entries.get(teamId);
    const vevents = eventIds.flatMap((id) => perEvent?.get(id) ?? []);
    // As a competition's feed orders its matches: by start, then id (match ids are unique across events).
    vevents.sort((a, b) => a.startMs - b.startMs || compareCodeUnits(a.id, b.id));
    const seen = new Set<string>();
    const once = vevents.filter((v) => (seen.has(v.uid) ? false : (seen.add(v.uid), true)));
    const named = this.names.get(teamId);
    const calendarName = named ? nameLineIn(named.language)(named.name) : teamId;
    return assembleCalendarParts({ calendarName, eventId: '', refreshMinutes: options.refreshMinutes }, once);
  }
}
