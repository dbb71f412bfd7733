// The value sets of the model, each defined once with its zod schema: the import format, the database types,
// the rules, the public encoders, the request schemas and the API document all take them from here.
import { z } from 'zod';

export const COMPETITION_TYPES = ['league', 'knockout', 'hybrid'] as const;
export const competitionTypeSchema = z.enum(COMPETITION_TYPES).meta({
  description: '`league`: round robin, has standings. `knockout`: has a bracket. `hybrid`: group tables, then a knockout bracket.',
});
export type CompetitionType = z.output<typeof competitionTypeSchema>;

export const EVENT_STATUSES = ['scheduled', 'in_progress', 'completed', 'cancelled'] as const;
export const eventStatusSchema = z.enum(EVENT_STATUSES);
export type EventStatus = z.output<typeof eventStatusSchema>;

export const MATCH_STATUSES = ['scheduled', 'in_progress', 'completed', 'postponed', 'cancelled'] as const;
export const matchStatusSchema = z.enum(MATCH_STATUSES);
export type MatchStatus = z.output<typeof matchStatusSchema>;

/** Display order too: main draw, repechage, finals, then the consolation match. */
export const BRACKET_ROLES = ['winners', 'losers', 'grand_final', 'grand_final_reset', 'third_place'] as const;
export const bracketRoleSchema = z.enum(BRACKET_ROLES).meta({
  description: 'Section of the bracket: main draw (`winners`), repechage (`losers`), finals, or the third-place match.',
});
export type BracketRole = z.output<typeof bracketRoleSchema>;

export const SOURCE_OUTCOMES = ['winner', 'loser'] as const;
export const sourceOutcomeSchema = z.enum(SOURCE_OUTCOMES);
export type SourceOutcome = z.output<typeof sourceOutcomeSchema>;

export const SIDES = ['home', 'away'] as const;
export const sideSchema = z.enum(SIDES);
export type Side = z.output<typeof sideSchema>;

/** An answer to a match invitation; a summary adds `pending` for invitations not answered. */
export const RSVP_ANSWERS = ['yes', 'no', 'maybe'] as const;
export const rsvpAnswerSchema = z.enum(RSVP_ANSWERS, { error: 'must be one of yes, no, maybe' });
export type RsvpAnswer = z.output<typeof rsvpAnswerSchema>;

export const FOLLOW_STATUSES = ['pending', 'active', 'unsubscribed'] as const;
export type FollowStatus = (typeof FOLLOW_STATUSES)[number];

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * What can rank clubs level on points, in the order an event lists them (README "Tie-break rules").
 * `head_to_head_*` criteria count only the matches among the clubs still level; `reapply_head_to_head`, right after
 * them, runs them again on each smaller set of clubs they leave level; `decision` is the organizer's recorded order.
 */
export const TIEBREAK_CRITERIA = [
  'points',
  'goal_difference',
  'goals_for',
  'wins',
  'away_goals_for',
  'away_wins',
  'head_to_head_points',
  'head_to_head_goal_difference',
  'head_to_head_goals_for',
  'head_to_head_away_goals_for',
  'reapply_head_to_head',
  'all_meetings_played',
  'decision',
  'name',
] as const;
export const tiebreakCriterionSchema = z.enum(TIEBREAK_CRITERIA);
export type TiebreakCriterion = z.output<typeof tiebreakCriterionSchema>;

/** Named orders that follow a regulation (src/competitions/tiebreakers.ts). */
export const TIEBREAK_PRESETS = ['default', 'fifa_world_cup', 'uefa', 'premier_league', 'la_liga', 'serie_a', 'bundesliga'] as const;
export const tiebreakPresetSchema = z.enum(TIEBREAK_PRESETS);
export type TiebreakPreset = z.output<typeof tiebreakPresetSchema>;
