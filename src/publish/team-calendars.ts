// A calendar per team: every public match of the team across its competitions, each VEVENT exactly as in its
// competition's feed (same UID, SEQUENCE, status), so a person subscribed to both sees each match once.
// The regeneration re-renders only the teams of the events it rendered (or lost), one organization at a time (a
// team plays only in its organization's competitions), so memory holds one organization's matches, not all.
import { resolveTeams } from '../competitions/bracket.js';
import { bracketContext } from '../competitions/group-feeds.js';
import { renderCalendar, type CalendarInput, type CalendarMatch } from '../competitions/calendar.js';
import type { EventFacts, MatchFacts, TeamFacts } from '../competitions/types.js';
import { localizedName, type Language } from '../vocabulary/language.js';

/** Each match's teams as decided (a fed slot once its source decided it), by match id. */
function teamsByMatch(event: EventFacts, matches: readonly MatchFacts[], teams: ReadonlyMap<string, TeamFacts>): Map<string, Set<string>> {
  const resolved = resolveTeams([...matches], bracketContext(event, [...matches], teams));
  const out = new Map<string, Set<string>>();
  for (const m of matches) {
    const r = resolved.get(m.id);
    out.set(m.id, new Set([r?.home ?? m.home_team_id, r?.away ?? m.away_team_id].filter((t): t is string => t !== null)));
  }
  return out;
}

/** The teams that play in an event: decided slots, dated or not. */
export function playingTeams(event: EventFacts, matches: readonly MatchFacts[], teams: ReadonlyMap<string, TeamFacts>): string[] {
  return [...new Set([...teamsByMatch(event, matches, teams).values()].flatMap((s) => [...s]))].sort();
}

export class TeamCalendars {
  /** team → event → the VEVENT entries of its matches in that event. */
  private readonly entries = new Map<string, Map<string, CalendarMatch[]>>();
  private readonly names = new Map<string, { name: string; language: Language }>();

  /** Records the VEVENT entries of an event's matches under each team that plays them. */
  add(event: EventFacts, matches: readonly MatchFacts[], teams: ReadonlyMap<string, TeamFacts>, feed: CalendarInput): void {
    const byMatch = new Map(feed.matches.map((e) => [e.id, e]));
    for (const [matchId, playing] of teamsByMatch(event, matches, teams)) {
      for (const teamId of playing) {
        let perEvent = this.entries.get(teamId);
        if (!perEvent) this.entries.set(teamId, (perEvent = new Map()));
        let list = perEvent.get(event.id);
        if (!list) perEvent.set(event.id, (list = []));
        const entry = byMatch.get(matchId);
        if (entry) list.push({ ...entry, eventId: event.id });
        const t = teams.get(teamId);
        if (t && !this.names.has(teamId)) this.names.set(teamId, { name: localizedName(t.name, t.name_ar, event.language), language: event.language });
      }
    }
  }

  /** The team's feed over the given events (its public ones), matches in time order. */
  render(teamId: string, eventIds: readonly string[], options: { uidDomain: string; refreshMinutes: number }): string {
    const perEvent = this.entries.get(teamId);
    const matches = eventIds.flatMap((id) => perEvent?.get(id) ?? []);
    matches.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const named = this.names.get(teamId);
    return renderCalendar({
      calendarName: named?.name ?? teamId,
      eventId: '',
      uidDomain: options.uidDomain,
      refreshMinutes: options.refreshMinutes,
      language: named?.language,
      matches,
    });
  }
}
