// A calendar per team: every public match of the team across its competitions, each VEVENT exactly as in its
// competition's feed (same UID, SEQUENCE, status), so a person subscribed to both sees each match once.
// The regeneration re-renders only the teams of the events it rendered (or lost), one organization at a time (a
// team plays only in its organization's competitions), so memory holds one organization's matches, not all.
import { resolveTeams } from '../competitions/bracket.js';
import { bracketContext } from '../competitions/group-feeds.js';
import { renderCalendar, type CalendarInput, type CalendarMatch } from '../competitions/calendar.js';
import type { EventFacts, MatchFacts, TeamFacts } from '../competitions/types.js';
import { localizedName, type Language } from '../vocabulary/language.js';

/** The teams that play in an event: decided slots, dated or not, a fed slot once its source decided it. */
export function playingTeams(event: EventFacts, matches: readonly MatchFacts[], teams: ReadonlyMap<string, TeamFacts>): string[] {
  const resolved = resolveTeams([...matches], bracketContext(event, [...matches], teams));
  const playing = new Set<string>();
  for (const m of matches) {
    const r = resolved.get(m.id);
    for (const teamId of [r?.home ?? m.home_team_id, r?.away ?? m.away_team_id]) if (teamId !== null) playing.add(teamId);
  }
  return [...playing].sort();
}

export class TeamCalendars {
  /** team → event → the VEVENT entries of its matches in that event. */
  private readonly entries = new Map<string, Map<string, CalendarMatch[]>>();
  private readonly names = new Map<string, { name: string; language: Language }>();

  /** Records an event's matches; returns the teams that play in it (decided slots, dated or not). */
  add(event: EventFacts, matches: readonly MatchFacts[], teams: ReadonlyMap<string, TeamFacts>, feed: CalendarInput): string[] {
    const resolved = resolveTeams([...matches], bracketContext(event, [...matches], teams));
    const byMatch = new Map(feed.matches.map((e) => [e.id, e]));
    const playing = new Set<string>();
    for (const m of matches) {
      const r = resolved.get(m.id);
      for (const teamId of new Set([r?.home ?? m.home_team_id, r?.away ?? m.away_team_id])) {
        if (teamId === null) continue;
        playing.add(teamId);
        let perEvent = this.entries.get(teamId);
        if (!perEvent) this.entries.set(teamId, (perEvent = new Map()));
        const list = perEvent.get(event.id) ?? [];
        perEvent.set(event.id, list);
        const entry = byMatch.get(m.id);
        if (entry) list.push({ ...entry, eventId: event.id });
        const t = teams.get(teamId);
        if (t && !this.names.has(teamId)) this.names.set(teamId, { name: localizedName(t.name, t.name_ar, event.language), language: event.language });
      }
    }
    return [...playing].sort();
  }

  /** Whether the entries of this event are already known for this team. */
  has(teamId: string, eventId: string): boolean {
    return this.entries.get(teamId)?.has(eventId) ?? false;
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
