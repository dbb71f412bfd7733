// Who plays a match as its invited members read it: each side's team, once the bracket's feeds are followed
// (src/competitions/resolve-event.ts), and its name in the organization's language. One place for the invitation, its
// RSVP page and the emails that follow it, so that an email leaving after a corrected result names the teams that
// play now, not those of when it was queued (a season review's invitation named an opponent put out the day before).
import { matchNames, undecidedName } from '../competitions/calendar-feed.js';
import { resolveEvent, type ResolvedEvent } from '../competitions/resolve-event.js';
import type { SyncDb } from '../db/sync.js';
import { localizedName, type Language } from '../vocabulary/language.js';

export interface MatchSides {
  homeId: string | null;
  awayId: string | null;
  homeName: string;
  awayName: string;
}

/** The match's sides; `event` when the caller has resolved it already. */
export function matchSides(store: SyncDb, match: { id: string; event_id: string }, language: Language, event?: ResolvedEvent): MatchSides {
  // Both teams named (a league's match, a round drawn with its teams): nothing to follow, and the event is not read (the
  // mail worker asks this of every email to an invitee).
  const named = event === undefined
    ? store.first(store.q.selectFrom('matches').select(['home_team_id', 'away_team_id']).where('id', '=', match.id))
    : undefined;
  // Resolved once, for who plays and, for a side nobody holds yet, what decides it.
  let facts = event;
  const resolvedEvent = () => (facts ??= resolveEvent(store, match.event_id));
  const resolved = named?.home_team_id != null && named.away_team_id != null
    ? { home: named.home_team_id, away: named.away_team_id }
    : resolvedEvent().resolved.get(match.id);
  const homeId = resolved?.home ?? null;
  const awayId = resolved?.away ?? null;
  const ids = [homeId, awayId].filter((t): t is string => t !== null);
  const rows = ids.length === 0 ? [] : store.all(store.q.selectFrom('teams').select(['id', 'name', 'name_ar']).where('id', 'in', ids));
  // A side nobody holds yet is named by what decides it, as the calendar names it ("Winner of Quarter-final 2"): a
  // review's invitees read "Team A vs To be decided" in their email and "Team A vs Winner of Quarter-final 2" in the
  // calendar the same email links to.
  let slots: { home: string; away: string } | undefined;
  const slot = (side: 'home' | 'away') => {
    if (slots === undefined) {
      const { terms, matches, teams, resolved: all } = resolvedEvent();
      const names = terms === null ? undefined : matchNames({ ...terms, language }, matches, teams, all).get(match.id);
      slots = names ?? { home: undecidedName(language), away: undecidedName(language) };
    }
    return slots[side];
  };
  const name = (id: string | null, side: 'home' | 'away') => {
    const t = rows.find((r) => r.id === id);
    return t ? localizedName(t.name, t.name_ar, language) : slot(side);
  };
  return { homeId, awayId, homeName: name(homeId, 'home'), awayName: name(awayId, 'away') };
}
