// What changed about a public match since the updates job last saw it, as pure functions: the state worth
// comparing (teams as the bracket resolves them, time, venue, status, result), and the changes between two states.
// Each change is written once (update_changes) and told to each follow in scope once.
import { z } from 'zod';
import { pushInto } from '../collections.js';
import { matchStatusSchema, sideSchema } from '../vocabulary/enums.js';
import { languageSchema, type Language } from '../vocabulary/language.js';

/**
 * A match's names in the organization's other language: its teams as that language names them (a team's `name` in
 * English, its `name_ar` in Arabic) and its round in that language's words, for a follow that asked for it (an
 * English-reading parent following an Arabic club read team names in a script they could not read). Absent from
 * what was seen before it was kept: such a match is told in the organization's language.
 */
export const otherNamesSchema = z.object({
  language: languageSchema,
  label: z.string(),
  home: z.string(),
  away: z.string(),
  winner: z.string().nullable(),
  next_label: z.string().nullable(),
});
export type OtherNames = z.output<typeof otherNamesSchema>;

/** A name in the organization's other language (a champion's, a team's in a points adjustment). */
export const otherNameSchema = z.object({ language: languageSchema, name: z.string() });
export type OtherName = z.output<typeof otherNameSchema>;

/** A match as a follower knows it: names already in the organization's language (and in its other, `other`). */
export const seenMatchSchema = z.object({
  label: z.string(),
  home: z.string(),
  away: z.string(),
  kickoff_at: z.string().nullable(),
  venue: z.string().nullable(),
  status: matchStatusSchema,
  home_score: z.number().int().nullable(),
  away_score: z.number().int().nullable(),
  home_penalties: z.number().int().nullable(),
  away_penalties: z.number().int().nullable(),
  walkover: sideSchema.nullable(),
  /** The score came after extra time. */
  after_extra_time: z.boolean().default(false),
  /** Who the bracket says goes through (a tie's winner, over both legs), by name; null when nobody yet. */
  winner: z.string().nullable().default(null),
  /** The bracket match the winner goes on to, by label, when there is one. */
  next_label: z.string().nullable(),
  other: otherNamesSchema.optional(),
});
export type SeenMatch = z.output<typeof seenMatchSchema>;

/**
 * `state` as a reader of `language` is told it: the names in that language where the state keeps them (`other`), else
 * as they are (null: as they are, the organization's); without `other` either way, so that an email's data holds one
 * set of names.
 */
export function seenIn(state: SeenMatch, language: Language | null): SeenMatch {
  const { other, ...seen } = state;
  if (other === undefined || other.language !== language) return seen;
  const { language: _, ...names } = other;
  return { ...seen, ...names };
}

/** `name` (in the organization's language) as a reader of `language` is told it. */
export const nameIn = (name: string, other: OtherName | undefined, language: Language) =>
  other !== undefined && other.language === language ? other.name : name;

export const CHANGE_KINDS = [
  'result', 'moved', 'postponed', 'cancelled', 'rescheduled', 'new_fixture', 'champion', 'new_competition',
  // The competition cancelled, and put back on: one change for it, not one per match (detect.ts).
  'competition_cancelled', 'competition_reinstated',
  // A match cancelled, then put back on; a result taken back (a review: both were told to nobody, and a result entered
  // again was told as new).
  'reinstated', 'result_withdrawn',
  // A team's points added or deducted (a season review's table lost three points with nothing to say why).
  'adjustment',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface MatchChange {
  kind: ChangeKind;
  before: SeenMatch | null;
  after: SeenMatch;
}

/** Whether a change is sent promptly as an alert: a move, postponement or cancellation within 48 hours of now. */
export const ALERT_WINDOW_MS = 48 * 3600_000;
const ALERT_KINDS: ReadonlySet<ChangeKind> = new Set(['moved', 'postponed', 'cancelled', 'rescheduled', 'reinstated']);

export function isAlert(change: MatchChange, now: Date): boolean {
  if (!ALERT_KINDS.has(change.kind)) return false;
  const soon = (at: string | null | undefined) => {
    if (!at) return false;
    const t = Date.parse(at) - now.getTime();
    return t >= 0 && t <= ALERT_WINDOW_MS;
  };
  return soon(change.before?.kickoff_at) || soon(change.after.kickoff_at);
}

/** The match has a result: a score or a walkover. */
export const hasResult = (m: SeenMatch) => m.walkover !== null || (m.home_score !== null && m.away_score !== null);
const sameResult = (a: SeenMatch, b: SeenMatch) =>
  a.walkover === b.walkover && a.home_score === b.home_score && a.away_score === b.away_score &&
  a.home_penalties === b.home_penalties && a.away_penalties === b.away_penalties;

/**
 * The changes a follower is told between what was seen and what is now: at most one per match and run, the one
 * that matters most (a result over a move; a cancellation over anything else). A new match is a new fixture
 * unless it arrives cancelled. Team names filled in by a decided feed are not news of their own: the result that
 * decided them says who advances. A match cancelled and put back on is news (people stayed home), and so is a
 * result taken back (its followers still believed it, and were told it again as new when it was entered again).
 */
export function matchChange(before: SeenMatch | undefined, after: SeenMatch): MatchChange | null {
  if (before === undefined) return after.status === 'cancelled' ? null : { kind: 'new_fixture', before: null, after };
  if (hasResult(after) && (!hasResult(before) || !sameResult(before, after))) return { kind: 'result', before, after };
  if (after.status !== before.status) {
    if (after.status === 'cancelled') return { kind: 'cancelled', before, after };
    if (after.status === 'postponed') return { kind: 'postponed', before, after };
    if (before.status === 'postponed' && after.status === 'scheduled') return { kind: 'rescheduled', before, after };
    if (before.status === 'cancelled') return { kind: 'reinstated', before, after };
  }
  if (hasResult(before) && !hasResult(after)) return { kind: 'result_withdrawn', before, after };
  // Completed, and still the same result: a kickoff or venue corrected in the record is no move (a competition's city
  // changed told its followers "Moved" of matches played weeks before). One under way with a score may still move:
  // abandoned at 1-0, resumed elsewhere.
  if (before.status === 'completed' && after.status === 'completed') return null;
  if (after.status !== 'cancelled' && (after.kickoff_at !== before.kickoff_at || after.venue !== before.venue)) {
    if (after.status === 'postponed') return { kind: 'postponed', before, after };
    // A match given its first kickoff (a cup's next round, drawn and dated) is dated, not moved: a season review's
    // followers read "Moved: … time to be announced, Salisbury → Wednesday 21 October …, Cro Park".
    if (before.kickoff_at === null && after.kickoff_at !== null) return { kind: 'rescheduled', before, after };
    return { kind: 'moved', before, after };
  }
  return null;
}

/** A recorded change as an email lists it: its match (null for a competition's own news) and what changed. */
export interface ToldChange {
  id: number;
  match_id: string | null;
  kind: ChangeKind;
  data: { before: SeenMatch | null; after: SeenMatch | null };
}

/**
 * The changes one email tells (ascending ids, as found), one per match: a match changed more than once since the
 * follower was last told is told as its net change, from what they knew before the first to how it is after the
 * last (kind decided again by matchChange), at the first one's place; none when the match is back as it was (moved,
 * then moved back). Listed one by one, two moves of a match read in play order could end on the wrong kickoff.
 * A competition's own news (no match: new competition, champion) is kept as it is.
 */
/**
 * The changes one email tells, less those the competition's own last word in it makes moot. Cancelled: a move, a
 * postponement, a new fixture or a match's own cancellation of it (a review's digest said "The competition is
 * cancelled" and then listed a move in it); results and its other news stay. Cancelled, then back on, in the same
 * email: neither (the follower never heard of the cancellation). Only the last of the two is ever told.
 */
export function withoutMootChanges<C extends ToldChange & { event_id: string }>(changes: readonly C[]): C[] {
  const competitionLevel = (c: C) => c.kind === 'competition_cancelled' || c.kind === 'competition_reinstated';
  const last = new Map<string, C>();
  const cancelledHere = new Set<string>();
  for (const c of changes) {
    if (!competitionLevel(c)) continue;
    last.set(c.event_id, c);
    if (c.kind === 'competition_cancelled') cancelledHere.add(c.event_id);
  }
  return changes.filter((c) => {
    const final = last.get(c.event_id);
    if (final === undefined) return true;
    if (competitionLevel(c)) return c === final && !(c.kind === 'competition_reinstated' && cancelledHere.has(c.event_id));
    return final.kind !== 'competition_cancelled' || c.match_id === null || c.kind === 'result';
  });
}

export function netChanges<C extends ToldChange>(changes: readonly C[]): C[] {
  const byMatch = new Map<string, C[]>();
  for (const c of changes) if (c.match_id !== null) pushInto(byMatch, c.match_id, c);
  const out: C[] = [];
  for (const c of changes) {
    const all = c.match_id === null ? null : byMatch.get(c.match_id)!;
    if (all === null || all.length === 1) {
      out.push(c);
      continue;
    }
    if (all[0] !== c) continue;
    const before = all[0]!.data.before;
    const after = all.at(-1)!.data.after;
    const net = after === null ? null : matchChange(before ?? undefined, after);
    if (net) out.push({ ...c, kind: net.kind, data: { ...c.data, before: net.before, after: net.after } });
  }
  return out;
}

/** A team's points adjustment as its followers are told it: totals before and after, and the reasons it has now. */
export const adjustmentToldSchema = z.object({
  /** The team's name in the organization's language. */
  team: z.string(),
  /** And in its other language (absent from an adjustment recorded before it was kept). */
  team_other: otherNameSchema.optional(),
  before: z.number().int(),
  after: z.number().int(),
  reasons: z.array(z.string()),
});
export type AdjustmentTold = z.output<typeof adjustmentToldSchema>;

/** An event's adjustments as update_event_seen keeps them: per team, in team order, so that the same list reads the same. */
export function adjustmentsSeen(adjustments: ReadonlyArray<{ team: string; points: number; reason: string }>): string {
  return JSON.stringify([...adjustments].map((a) => [a.team, a.points, a.reason]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0)));
}

/**
 * The teams whose total adjustment differs between two adjustmentsSeen lists, in team order: a reason reworded alone is
 * no news. `name` gives a team's name as its followers read it.
 */
export function adjustmentChanges(
  before: string,
  after: string,
  name: (team: string) => string,
  otherName?: (team: string) => OtherName,
): AdjustmentTold[] {
  const totals = (seen: string) => {
    const byTeam = new Map<string, { points: number; reasons: string[] }>();
    for (const [team, points, reason] of JSON.parse(seen) as Array<[string, number, string]>) {
      const t = byTeam.get(team) ?? { points: 0, reasons: [] };
      t.points += points;
      if (reason) t.reasons.push(reason);
      byTeam.set(team, t);
    }
    return byTeam;
  };
  const was = totals(before);
  const now = totals(after);
  const teams = [...new Set([...was.keys(), ...now.keys()])].sort();
  return teams.flatMap((team) => {
    const [b, a] = [was.get(team)?.points ?? 0, now.get(team)?.points ?? 0];
    if (b === a) return [];
    return [{ team: name(team), ...(otherName ? { team_other: otherName(team) } : {}), before: b, after: a, reasons: now.get(team)?.reasons ?? [] }];
  });
}

/** An adjustment as a reader of `language` is told it: its team's name in that language where it was kept. */
export function adjustmentIn(adjustment: AdjustmentTold, language: Language): AdjustmentTold {
  const { team_other, ...told } = adjustment;
  return { ...told, team: nameIn(adjustment.team, team_other, language) };
}

/** What a recorded change says (update_changes.data_json) that names teams and rounds. */
export interface ChangeNames {
  before: SeenMatch | null;
  after: SeenMatch | null;
  champion?: string | null;
  /** The champion in the organization's other language (absent from a change recorded before it was kept). */
  champion_other?: OtherName;
  adjustment?: AdjustmentTold;
}

/**
 * A recorded change as a reader of `language` is told it: every name in that language where the change kept it, the
 * organization's otherwise; one set of names either way. A match's line is in one language whole: when what was seen
 * before kept no names in `language` (seen before they were kept), the organization's for both sides of it, or a
 * corrected walkover read "Al-Salt vs Zarqa (was walkover: نادي السلط)" (a review).
 */
export function changeIn<D extends ChangeNames>(data: D, language: Language): Omit<D, 'champion_other'> {
  const { champion_other, ...told } = data;
  const states = [data.before, data.after].filter((s): s is SeenMatch => s !== null);
  const lineIn = states.every((s) => s.other?.language === language) ? language : null;
  return {
    ...told,
    before: data.before && seenIn(data.before, lineIn),
    after: data.after && seenIn(data.after, lineIn),
    ...(typeof data.champion === 'string' ? { champion: nameIn(data.champion, champion_other, language) } : {}),
    ...(data.adjustment ? { adjustment: adjustmentIn(data.adjustment, language) } : {}),
  };
}
