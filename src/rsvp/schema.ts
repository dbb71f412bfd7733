// Requests and responses of the RSVP endpoints (spec 2.5, 2.6); the descriptions are the API document's.
import { z } from 'zod';
import { rsvpAnswerSchema } from '../vocabulary/enums.js';

/** The answer of a request: trimmed before it is matched, as every string field is (contract, "Request bodies"). */
export const rsvpAnswerField = z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), rsvpAnswerSchema);

export const rsvpRespondSchema = z.object({
  token: z
    .string({ error: (i) => (i.input === undefined || i.input === null ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'is required')
    .max(128, 'is not a valid token')
    .meta({ description: 'Token from the invite email (the `token` parameter of its link). Identifies the invitation.' }),
  status: rsvpAnswerField.meta({ description: 'The answer: `yes`, `no` or `maybe` (trimmed, as every string field). It can be changed until kickoff (not while the match is postponed or cancelled).' }),
});
export type RsvpRespondRequest = z.output<typeof rsvpRespondSchema>;

const counts = z.object({
  yes: z.number().int().min(0),
  no: z.number().int().min(0),
  maybe: z.number().int().min(0),
  pending: z.number().int().min(0),
});

/**
 * The counts of each team's invited members: "do we have eleven?" is a team's question, and both teams' answers
 * together do not tell it (an RSVP page said "yes 14" for two squads).
 */
const teams = z.array(z.object({
  team_id: z.string().meta({ description: 'The team, as standings rows and bracket slots name it (`team_id`).' }),
  summary: counts.meta({ description: "Its invited members' answers." }),
})).meta({
  description: "The same counts for each team with an invited member, by `team_id`: a member is counted with the team they were invited as a member of (one listed in both teams, with one address, is invited once). They add up to `summary`; `[]` while nobody is invited.",
});

export const rsvpSummarySchema = z.object({
  match_id: z.string().meta({ description: 'The match.' }),
  summary: counts.meta({ description: 'Counts of the answers; `pending` counts invitations not answered yet.' }),
  teams,
});
export type RsvpSummary = z.output<typeof rsvpSummarySchema>;

export const rsvpRespondResponseSchema = z.object({
  match_id: z.string().meta({ description: 'The match of the invitation.' }),
  status: rsvpAnswerSchema.meta({ description: 'The answer recorded.' }),
  summary: counts.meta({ description: 'The counts after this answer.' }),
  teams,
});
export type RsvpRespondResponse = z.output<typeof rsvpRespondResponseSchema>;
