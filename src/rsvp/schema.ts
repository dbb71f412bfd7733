import { z } from 'zod';
import { rsvpAnswerSchema } from '../vocabulary/enums.js';

/** Request body of POST /api/v0/rsvp/respond (spec 2.6). */
export const rsvpRespondSchema = z.object({
  token: z
    .string({ error: (i) => (i.input === undefined || i.input === null ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'is required')
    .max(128, 'is not a valid token'),
  status: rsvpAnswerSchema,
});
export type RsvpRespondRequest = z.output<typeof rsvpRespondSchema>;

export const rsvpSummarySchema = z.object({
  match_id: z.string(),
  summary: z.object({
    yes: z.number().int().min(0),
    no: z.number().int().min(0),
    maybe: z.number().int().min(0),
    pending: z.number().int().min(0),
  }),
});
export type RsvpSummary = z.output<typeof rsvpSummarySchema>;

export const rsvpRespondResponseSchema = rsvpSummarySchema.extend({ status: rsvpAnswerSchema });
export type RsvpRespondResponse = z.output<typeof rsvpRespondResponseSchema>;
