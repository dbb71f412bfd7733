// What a competition's calendar says about each match, in the organization's language.
// renderCalendar (calendar.ts) turns it into RFC 5545 text.
import { isEmptySlot, resolveTeams, sideFeed, type ResolvedMatch } from './bracket.js';
import { bracketContext } from './group-feeds.js';
import { slotCandidateGroups } from './best-placed.js';
import type { CalendarInput } from './calendar.js';
import type { EventFacts, MatchFacts, TeamFacts } from './types.js';
import { isolatedIn, localizedName, type Language } from '../vocabulary/language.js';
import { localizedTeamName } from './standings.js';
import { publicMatchStatus } from './match-status.js';
import { pushInto } from '../collections.js';
import { utcInstant } from '../time/rfc3339.js';
import { foldName } from '../text/fold.js';

const WORDS = {
  en: { or: ' or ', comma: ', ', best: (n: number, k: number) => (n === 1 ? `Best group winner no. ${k}` : n === 2 ? `Best runner-up no. ${k}` : `Best place ${n}, no. ${k}`), vs: 'vs', winnerOf: 'Winner of', loserOf: 'Loser of', tbd: 'To be decided', round: 'Round', result: 'Result', aet: 'after extra time', legs: ['First leg', 'Second leg'], place: (n: number) => (n === 1 ? 'Winner' : n === 2 ? 'Runner-up' : `Place ${n} in`), aggregate: 'Aggregate', awayGoals: (team: string) => `${team} through on away goals`, pens: (score: string) => `${score} pens`, walkover: (team: string) => `${team} (walkover)`, postponed: 'Postponed: new date to follow', cancelled: 'Cancelled', titles: { postponed: 'Postponed', cancelled: 'Cancelled' } },
  ar: { or: ' أو ', comma: '، ', best: (n: number, k: number) => (n === 1 ? `أفضل المتصدرين رقم ${k}` : n === 2 ? `أفضل الوصفاء رقم ${k}` : `أفضل أصحاب المركز ${n} رقم ${k}`), vs: 'ضد', winnerOf: 'الفائز في', loserOf: 'الخاسر في', tbd: 'يحدد لاحقًا', round: 'الجولة', result: 'النتيجة', aet: 'بعد الوقت الإضافي', legs: ['مباراة الذهاب', 'مباراة الإياب'], place: (n: number) => (n === 1 ? 'متصدر' : n === 2 ? 'وصيف' : `المركز ${n} في`), aggregate: 'مجموع المباراتين', awayGoals: (team: string) => `المتأهل بالأهداف خارج الأرض: ${team}`, pens: (score: string) => `بركلات الترجيح ${score}`, walkover: (team: string) => `فوز ${team} بالانسحاب`, postponed: 'مؤجلة: يحدد موعد جديد', cancelled: 'ملغاة', titles: { postponed: 'مؤجلة', cancelled: 'ملغاة' } },
} as const;

/**
 * A text line of a feed in its language. iCalendar has no direction property, so calendar apps take each line's
 * direction from its first strong letter: an Arabic title that starts with a Latin team ("Brazil ضد وصيف Group H")
 * showed left to right, which puts the teams the wrong way round. In an Arabic feed each line starts with U+200F
 * RIGHT-TO-LEFT MARK, and names are isolated (FSI … PDI, as in the emails) so that a Latin name's digits or final full
 * stop stay with it. An English feed's lines are as they are.
 */
export function lineIn(language: Language): (text: string) => string {
  return language === 'ar' ? (text) => (text === '' ? text : `\u200F${text}`) : (text) => text;
}

/**
 * A feed's name (X-WR-CALNAME, NAME) made of one name, as its other lines are: in an Arabic feed the name isolated
 * after the RLM, so that a Latin name's final full stop stays with it ("\u200FAl-Salt S.C." showed as ".Al-Salt S.C"
 * to a native Arabic review of a team's calendar).
 */
export function nameLineIn(language: Language): (name: string) => string {
  const [line, name] = [lineIn(language), isolatedIn(language)];
  return (text) => (text === '' ? text : line(name(text)));
}

export interface FeedOptions {
  uidDomain: string;
  refreshMinutes: number;
}

function addMinutes(instant: string, minutes: number): string {
  return utcInstant(new Date(Date.parse(instant) + minutes * 60_000));
}

/**
 * Groups as one phrase: "Group A, D, E or F" (a prefix every name shares, up to a space, is written once), "Group A
 * أو D" in Arabic ("، " between the others).
 */
export function groupList(groups: readonly string[], w: { or: string; comma: string }): string {
  const first = groups[0] ?? '';
  const space = first.lastIndexOf(' ');
  const prefix = space > 0 ? first.slice(0, space + 1) : '';
  const shared = prefix !== '' && groups.every((g) => g.startsWith(prefix) && g.length > prefix.length);
  const parts = groups.map((g, i) => (shared && i > 0 ? g.slice(prefix.length) : g));
  if (parts.length < 2) return parts.join('');
  return `${parts.slice(0, -1).join(w.comma)}${w.or}${parts.at(-1)}`;
}

/**
 * Each match's label, numbered (1, 2, …, in bracket position order) where more than one bracket tie carries it. A
 * two-legged tie counts once, its first leg taking its second leg's number; a match outside the bracket (a group
 * stage's, which feeds nothing by its result) is neither numbered nor counted. A review's quarter-finals (two ties
 * of two legs, a bye, a single match) read "Winner of Quarter-final 2 vs Winner of Quarter-final 4", and a hybrid's
 * final "Winner of Round 1 7 vs Winner of Round 1 8", its group matches counted in.
 */
export function numberedLabels(matches: readonly MatchFacts[], label: (m: MatchFacts) => string): Map<string, string> {
  const secondLegOf = new Map<string, string>();
  for (const m of matches) if (m.first_leg_match_id) secondLegOf.set(m.first_leg_match_id, m.id);
  const byLabel = new Map<string, MatchFacts[]>();
  for (const m of matches) if (m.bracket_role !== null && !secondLegOf.has(m.id)) pushInto(byLabel, label(m), m);
  const out = new Map<string, string>();
  for (const group of byLabel.values()) {
    const ordered = [...group].sort((a, b) => a.round_ordinal - b.round_ordinal || a.bracket_position - b.bracket_position || (a.id < b.id ? -1 : 1));
    ordered.forEach((m, i) => out.set(m.id, ordered.length > 1 ? numbered(label(m), i + 1) : label(m)));
  }
  for (const m of matches) {
    const second = secondLegOf.get(m.id);
    if (!out.has(m.id)) out.set(m.id, (second !== undefined ? out.get(second) : undefined) ?? label(m));
  }
  return out;
}

/**
 * "Quarter-final 2"; a label that ends in a number keeps its own apart: "Round of 16 (5)", "Round 1 (7)" (a review's
 * Arabic World Cup feed read "الفائز في دور الـ16 5"). The digits an organization writes in English or Arabic, the same
 * set migration 0015 raised the SEQUENCE of such slots by.
 */
function numbered(label: string, n: number): string {
  return /[0-9\u0660-\u0669]$/.test(label) ? `${label} (${n})` : `${label} ${n}`;
}

/** A side nothing feeds and no team holds (left empty until the organizer names its team), as every reader names it. */
export function undecidedName(language: Language): string {
  return WORDS[language].tbd;
}

/** What a person reads for each match: its label, and each slot's team or the match that will decide it. */
export interface MatchNames {
  label: string;
  /** Numbered where several matches share the label (a feed source's name). */
  numberedLabel: string;
  home: string;
  away: string;
  /** The team the bracket says won it (a tie's winner over both legs), by name; null when none yet. */
  winner: string | null;
}

/**
 * A competition's name as people read it (calendars, emails): its Arabic name in an Arabic organization where it has
 * one, as teams are named. The JSON reads give `name` as written.
 */
export function eventNameFor(event: Pick<EventFacts, 'name' | 'name_ar' | 'language'>): string {
  return localizedName(event.name, event.name_ar, event.language);
}

/**
 * The name calendar apps show for a competition's feed: the competition and its league, or the competition alone
 * when its name already says the league ("Premier Division 2026–27" of "Premier Division": the two together repeated
 * it). Each name passed through `name` (isolatedIn, in a feed).
 */
export function calendarName(eventName: string, leagueName: string, name: (name: string) => string = (n) => n): string {
  return foldName(eventName).includes(foldName(leagueName)) ? name(eventName) : `${name(eventName)} — ${name(leagueName)}`;
}

/**
 * Every match's names in the event's language: a decided slot is its team; an undecided one names its source
 * ("Winner of Semi-final 1": numbered in bracket order where several matches share a label, so that two
 * undecided slots never read the same). The calendar, and what followers are told, say the same.
 */
export function matchNames(
  event: Pick<EventFacts, 'language' | 'points' | 'rules' | 'status'>,
  matches: readonly MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
  /** Who plays each match, when the caller has resolved them already with this event's context (resolveEvent). */
  resolvedAlready?: ReadonlyMap<string, ResolvedMatch>,
): Map<string, MatchNames> {
  const w = WORDS[event.language];
  const resolved = resolvedAlready ?? resolveTeams([...matches], bracketContext(event, [...matches], teams));
  const byId = new Map(matches.map((m) => [m.id, m]));
  const teamName = (id: string | null) => localizedTeamName(teams, id, event.language);
  const roundLabel = (m: MatchFacts) => m.round_name ?? `${w.round} ${m.round_ordinal}`;
  const sourceLabels = numberedLabels(matches, roundLabel);
  const slotName = (m: MatchFacts, side: 'home' | 'away', teamId: string | null) => {
    const known = teamName(teamId);
    if (known) return known;
    const { group, position, best, slot, match: sourceId, outcome } = sideFeed(m, side);
    // A slot fed by a group's final table, before the group is finished: "Winner Group A".
    if (group != null && position != null) return `${w.place(position)} ${group}`;
    // A slot fed by the best-placed teams of several groups, before they are known: with an allocation table the groups
    // it can draw from ("Place 3 in Group A, D, E or F"); without, its rank among them ("Best place 3, no. 1").
    const rule = best == null ? undefined : event.rules?.best_placed?.find((r) => r.id === best);
    if (rule !== undefined && slot != null) {
      return rule.allocation === null ? w.best(rule.position, slot) : `${w.place(rule.position)} ${groupList(slotCandidateGroups(rule, slot), w)}`;
    }
    const source = sourceId ? byId.get(sourceId) : undefined;
    if (!source) return w.tbd;
    return `${outcome === 'loser' ? w.loserOf : w.winnerOf} ${sourceLabels.get(source.id)!}`;
  };
  const out = new Map<string, MatchNames>();
  for (const m of matches) {
    const r = resolved.get(m.id);
    out.set(m.id, {
      label: roundLabel(m),
      numberedLabel: sourceLabels.get(m.id)!,
      home: slotName(m, 'home', r?.home ?? m.home_team_id),
      away: slotName(m, 'away', r?.away ?? m.away_team_id),
      winner: teamName(r?.winner ?? null),
    });
  }
  return out;
}

export function calendarFeed(
  event: EventFacts,
  matches: readonly MatchFacts[],
  teams: ReadonlyMap<string, TeamFacts>,
  options: FeedOptions,
): CalendarInput {
  const w = WORDS[event.language];
  const names = matchNames(event, matches, teams);
  const byId = new Map(matches.map((m) => [m.id, m]));
  const name = isolatedIn(event.language);
  const line = lineIn(event.language);
  const eventName = eventNameFor(event);

  const entries: CalendarInput['matches'] = [];
  for (const m of matches) {
    // No date, no calendar entry; a bye (one empty slot that nothing feeds) is never played.
    if (m.kickoff_at === null) continue;
    if (isEmptySlot(m, 'home') || isEmptySlot(m, 'away')) continue;
    const n = names.get(m.id)!;
    const [home, away, label] = [name(n.home), name(n.away), name(n.label)];
    // A competition cancelled as a whole will not play what is left of it, whatever each match's own status says.
    const status = publicMatchStatus(m.status, event.status);

    const leg = m.leg === 1 || m.leg === 2 ? w.legs[m.leg - 1] : null;
    const lines = [name(eventName), [m.group_name === null ? null : name(m.group_name), label, leg].filter(Boolean).join(' · ')];
    if (m.walkover_winner) {
      // The winner said as the winner: "النتيجة: ⁨X⁩ (انسحاب)" read as X having withdrawn (a native Arabic review).
      lines.push(`${w.result}: ${w.walkover(m.walkover_winner === 'home' ? home : away)}`);
    } else if (m.home_score !== null && m.away_score !== null) {
      // "(بركلات الترجيح 4–3)": "(4–3 ركلات الترجيح)" read as a count of kicks (a native Arabic review).
      const pens =
        m.home_penalties !== null && m.away_penalties !== null ? ` (${w.pens(`${m.home_penalties}–${m.away_penalties}`)})` : '';
      const aet = m.after_extra_time ? ` (${w.aet})` : '';
      lines.push(`${w.result}: ${home} ${m.home_score}–${m.away_score} ${away}${aet}${pens}`);
    }
    const first = m.leg === 2 && m.first_leg_match_id ? byId.get(m.first_leg_match_id) : undefined;
    if (first?.home_score != null && first.away_score != null && m.home_score !== null && m.away_score !== null) {
      // The second leg's home side was the visitor in the first leg.
      const h = m.home_score + first.away_score;
      const a = m.away_score + first.home_score;
      const onAway = h === a && event.rules?.away_goals_rule === true && first.away_score !== m.away_score;
      // Who went through, not only how: an organizer's review read "(away goals)" and had to work out whose. The
      // second leg's home side scored its away goals in the first leg.
      const through = first.away_score > m.away_score ? home : away;
      lines.push(`${w.aggregate}: ${home} ${h}–${a} ${away}${onAway ? ` (${w.awayGoals(through)})` : ''}`);
    }
    if (status === 'postponed') lines.push(w.postponed);
    if (status === 'cancelled') lines.push(w.cancelled);

    // STATUS alone does not reach the person: Outlook shows a CANCELLED event as if it took place, and a postponed
    // match keeps its old kickoff (TENTATIVE), which Google Calendar and Outlook draw like any other. The title says it.
    const title = status === 'cancelled' || status === 'postponed' ? `${w.titles[status]}: ` : '';
    entries.push({
      id: m.id,
      summary: line(`${title}${home} ${w.vs} ${away}`),
      description: lines.map(line).join('\n'),
      location: line([m.venue, event.venue_city].filter((x): x is string => Boolean(x)).map(name).join(w.comma)) || null,
      start: m.kickoff_at,
      end: m.ends_at ?? addMinutes(m.kickoff_at, event.match_duration_min),
      status,
      sequence: m.sequence,
      updatedAt: m.updated_at,
    });
  }
  return {
    // The subscription's name too (X-WR-CALNAME, NAME): "U14 Cup 2027 — كؤوس الناشئين" showed left to right (a calendar
    // user's review); each name isolated, as in the other lines, so that a Latin name's final full stop stays with it
    // (a native Arabic review).
    calendarName: line(calendarName(eventName, localizedName(event.league_name, event.league_name_ar, event.language), name)),
    eventId: event.id,
    uidDomain: options.uidDomain,
    refreshMinutes: options.refreshMinutes,
    language: event.language,
    matches: entries,
  };
}
