// Finds what changed in public competitions since the last run and writes each change once (update_changes).
// Only events whose revision moved are compared; an event seen for the first time is a new competition (its
// matches become the baseline, not news). An event made private is not compared, and what was seen of it is kept:
// made public again, what changed meanwhile is told as changes (a review moved a match's kickoff while its competition
// was private: public again, its followers were told of a "new competition" and its invited players nothing, and came
// an hour early). An event removed is forgotten. The very first run records the baseline and reports nothing: what
// existed before the job is not news.
import type { Database } from '../db/database.js';
import { resolveTeams } from '../competitions/bracket.js';
import { championId } from '../competitions/champion.js';
import { eventNameFor, matchNames } from '../competitions/calendar-feed.js';
import { bracketContext } from '../competitions/group-feeds.js';
import { publicMatchStatus } from '../competitions/match-status.js';
import { listEventHeads, loadEvents, streamMatchesByEvent, TeamLookup } from '../competitions/queries.js';
import { localizedTeamName, teamName } from '../competitions/standings.js';
import type { EventFacts, MatchFacts } from '../competitions/types.js';
import { tellInvitees } from '../rsvp/tell-invitees.js';
import { LANGUAGES, type Language } from '../vocabulary/language.js';
import { adjustmentChanges, adjustmentsSeen, isAlert, matchChange, type ChangeKind, type OtherName, type SeenMatch } from './changes.js';

interface EventNow {
  event: EventFacts;
  states: Map<string, SeenMatch>;
  /** The champion as the event's JSON reads name it: what update_event_seen keeps and compares. */
  champion: string | null;
  /** The champion as its followers read it, in the organization's language (like the match lines). */
  championTold: string | null;
  /** And in the organization's other language, for a follow that asked for it. */
  championOther: OtherName | null;
  /** Its points adjustments as update_event_seen keeps them (adjustmentsSeen). */
  adjustments: string;
  /** A team's name as its followers read it, in the organization's language and in its other. */
  teamTold: (team: string) => string;
  teamOther: (team: string) => OtherName;
}

type Names = ReturnType<typeof matchNames>;

/** The match a winner goes on to (a bracket feed), by its label numbered among the round's ties ("Semi-final 2"), as the bracket's undecided slots name it. */
function nextLabels(matches: readonly MatchFacts[], names: Names): Map<string, string> {
  const nextOf = new Map<string, string>();
  for (const m of matches) {
    for (const [source, outcome] of [[m.home_source_match_id, m.home_source_outcome], [m.away_source_match_id, m.away_source_outcome]] as const) {
      if (source && outcome === 'winner') nextOf.set(source, names.get(m.id)!.numberedLabel);
    }
  }
  return nextOf;
}

/**
 * What a follower would read about each match of an event now: `names` in the organization's language, `other` in
 * its other one (a follow may ask for either, src/follows/service.ts).
 */
function statesOf(event: EventFacts, matches: MatchFacts[], names: Names, other: { language: Language; names: Names }): Map<string, SeenMatch> {
  const nextOf = nextLabels(matches, names);
  const otherNextOf = nextLabels(matches, other.names);
  const out = new Map<string, SeenMatch>();
  for (const m of matches) {
    const n = names.get(m.id)!;
    const o = other.names.get(m.id)!;
    out.set(m.id, {
      label: n.label, home: n.home, away: n.away, kickoff_at: m.kickoff_at, venue: m.venue ?? event.venue_city,
      // As the public sees it (the calendar, the page, the answer endpoint): a cancelled competition's unplayed matches
      // are cancelled. A review cancelled a competition and nobody was told: no match's own status had moved.
      status: publicMatchStatus(m.status, event.status),
      home_score: m.home_score, away_score: m.away_score, home_penalties: m.home_penalties, away_penalties: m.away_penalties,
      walkover: m.walkover_winner, after_extra_time: Boolean(m.after_extra_time),
      winner: m.bracket_role === null ? null : n.winner, next_label: nextOf.get(m.id) ?? null,
      other: {
        language: other.language, label: o.label, home: o.home, away: o.away,
        winner: m.bracket_role === null ? null : o.winner, next_label: otherNextOf.get(m.id) ?? null,
      },
    });
  }
  return out;
}

export interface DetectResult {
  compared: number;
  changes: number;
  /** Emails queued to members invited to a match that changed (src/rsvp/tell-invitees.ts). */
  inviteeEmails: number;
  baseline: boolean;
}

export async function detectChanges(database: Database, now: Date): Promise<DetectResult> {
  const { db, store } = database;
  const allHeads = await listEventHeads(db);
  const heads = allHeads.filter((h) => h.is_public);
  const seen = new Map(store.all(store.q.selectFrom('update_event_seen').selectAll()).map((r) => [r.event_id, r]));
  const baselineAt = store.first(store.q.selectFrom('installation').select('updates_baseline_at'))?.updates_baseline_at ?? null;
  const existing = new Set(allHeads.map((h) => h.id));
  const toCompare = heads.filter((h) => seen.get(h.id)?.revision !== h.revision);
  const gone = [...seen.keys()].filter((id) => !existing.has(id));
  if (toCompare.length === 0 && gone.length === 0 && baselineAt !== null) return { compared: 0, changes: 0, inviteeEmails: 0, baseline: false };

  // Read outside the write transaction; a change that lands meanwhile moves the revision again: the next run sees it.
  const events = new Map((await loadEvents(db, toCompare.map((h) => h.id))).map((e) => [e.id, e]));
  const current: EventNow[] = [];
  const teamLookup = new TeamLookup();
  for await (const { eventId, matches } of streamMatchesByEvent(db, [...events.keys()])) {
    const event = events.get(eventId)!;
    const teams = await teamLookup.of(db, matches);
    const winner = championId(event, matches, teams);
    // The organization's other language: English for an Arabic organization, Arabic for an English one.
    const language = LANGUAGES.find((l) => l !== event.language)!;
    const resolved = resolveTeams(matches, bracketContext(event, matches, teams));
    const names = matchNames(event, matches, teams, resolved);
    const otherNames = matchNames({ ...event, language }, matches, teams, resolved);
    current.push({
      event,
      states: statesOf(event, matches, names, { language, names: otherNames }),
      // Compared as stored before (a name), so an upgrade tells no champion again; told in the organization's language
      // and its other, as the match lines (a follow reads the one it asked for: src/updates/run.ts).
      champion: winner === null ? null : teamName(teams, winner),
      championTold: winner === null ? null : localizedTeamName(teams, winner, event.language),
      championOther: winner === null ? null : { language, name: localizedTeamName(teams, winner, language)! },
      adjustments: adjustmentsSeen(event.rules?.adjustments ?? []),
      teamTold: (team) => localizedTeamName(teams, team, event.language) ?? team,
      teamOther: (team) => ({ language, name: localizedTeamName(teams, team, language) ?? team }),
    });
  }
  const revisions = new Map(toCompare.map((h) => [h.id, h.revision]));

  let changes = 0;
  let inviteeEmails = 0;
  store.transaction(() => {
    // Another run (the server's and an operator's at once) may have recorded the baseline or an event since this one
    // read them: what it recorded stands, and this run does not record the same change again.
    const seenNow = (id: string) => store.first(store.q.selectFrom('update_event_seen').select('revision').where('event_id', '=', id))?.revision;
    if ((store.first(store.q.selectFrom('installation').select('updates_baseline_at'))?.updates_baseline_at ?? null) !== baselineAt) return;
    const record = (e: EventFacts, kind: ChangeKind, matchId: string | null, data: object, alert: boolean) => {
      changes++;
      store.run(store.q.insertInto('update_changes').values({
        org_id: e.org_id, league_id: e.league_id, event_id: e.id, match_id: matchId, kind, alert: alert ? 1 : 0,
        data_json: JSON.stringify({ event_name: eventNameFor(e), ...data }), detected_at: now.toISOString(),
      }));
    };
    for (const { event, states, champion, championTold, championOther, adjustments, teamTold, teamOther } of current) {
      const before = seen.get(event.id);
      if (seenNow(event.id) !== before?.revision) continue;
      const previous = new Map(
        store.all(store.q.selectFrom('update_match_seen').select(['match_id', 'state_json']).where('event_id', '=', event.id))
          .map((r) => [r.match_id, JSON.parse(r.state_json) as SeenMatch]),
      );
      if (baselineAt !== null) {
        if (!before) {
          // With what a follower needs to decide whether to add its calendar: how many matches, and when the next one
          // is (not the first: one made public mid-season announced a date already past; a review).
          const fixtures = [...states.values()].filter((m) => m.status !== 'cancelled');
          const kickoffs = fixtures.filter((m) => m.status !== 'completed').map((m) => m.kickoff_at)
            .filter((k): k is string => k !== null && Date.parse(k) >= now.getTime()).sort((a, b) => Date.parse(a) - Date.parse(b));
          record(event, 'new_competition', null, { before: null, after: null, matches: fixtures.length, next_kickoff: kickoffs[0] ?? null }, false);
          // A competition entered once it was played: its matches are the baseline (their results are not news one by
          // one), but who won it is. A review's cup, added with its final played, never had its winner told.
          if (championTold !== null) record(event, 'champion', null, { before: null, after: null, champion: championTold, champion_other: championOther }, false);
        } else {
          // A competition cancelled is one change for its followers, not a line per match (a review read twelve
          // "Cancelled: …" lines and never "the competition is cancelled"); its invited members are still told
          // match by match. An alert when any of its matches was to be played within 48 hours.
          const competitionCancelled = event.status === 'cancelled';
          // Put back on: told once too, as the competition back on (a review read a "Back on" line per match, or, in
          // the email that told the cancellation, the cancellation alone). Known from the status last seen (migration
          // 0020; a row from before has none, and its matches are told one by one).
          const competitionReinstated = before.status === 'cancelled' && !competitionCancelled;
          let cancelledAlert: boolean | null = null;
          let reinstatedAlert: boolean | null = null;
          for (const [matchId, state] of states) {
            const change = matchChange(previous.get(matchId), state);
            if (!change) continue;
            if (competitionCancelled && change.kind === 'cancelled') cancelledAlert = (cancelledAlert ?? false) || isAlert(change, now);
            else if (competitionReinstated && change.kind === 'reinstated') reinstatedAlert = (reinstatedAlert ?? false) || isAlert(change, now);
            else record(event, change.kind, matchId, { before: change.before, after: change.after }, isAlert(change, now));
            // In the change's transaction: told once, like the change.
            inviteeEmails += tellInvitees(store, { matchId, ...change, eventName: eventNameFor(event) }, now);
          }
          if (cancelledAlert !== null) record(event, 'competition_cancelled', null, { before: null, after: null }, cancelledAlert);
          if (reinstatedAlert !== null) record(event, 'competition_reinstated', null, { before: null, after: null }, reinstatedAlert);
          // Points added or deducted: a line per team, before the champion they may have decided. Rows from before
          // migration 0027 kept none: those are the baseline.
          if (before.adjustments !== null) {
            for (const adjustment of adjustmentChanges(before.adjustments, adjustments, teamTold, teamOther)) record(event, 'adjustment', null, { before: null, after: null, adjustment }, false);
          }
          if (championTold !== null && champion !== before.champion) record(event, 'champion', null, { before: null, after: null, champion: championTold, champion_other: championOther }, false);
        }
      }
      store.run(store.q.deleteFrom('update_match_seen').where('event_id', '=', event.id));
      for (const [matchId, state] of states) {
        store.run(store.q.insertInto('update_match_seen').values({ match_id: matchId, event_id: event.id, state_json: JSON.stringify(state) }));
      }
      store.run(
        store.q.insertInto('update_event_seen').values({ event_id: event.id, revision: revisions.get(event.id)!, champion, status: event.status, adjustments })
          .onConflict((oc) => oc.column('event_id').doUpdateSet({ revision: revisions.get(event.id)!, champion, status: event.status, adjustments })),
      );
    }
    for (const id of gone) {
      store.run(store.q.deleteFrom('update_match_seen').where('event_id', '=', id));
      store.run(store.q.deleteFrom('update_event_seen').where('event_id', '=', id));
    }
    if (baselineAt === null) {
      store.run(store.q.updateTable('installation').set({ updates_baseline_at: now.toISOString() }));
    }
  });
  return { compared: current.length, changes, inviteeEmails, baseline: baselineAt === null };
}
