import { z } from 'zod';
import { emailField, idField, optionalIdField } from '../http/fields.js';

/** Request body of POST /api/v0/follow (spec 2.4). */
export const followRequestSchema = z.object({
  org_id: idField,
  league_id: optionalIdField,
  email: emailField,
});
export type FollowRequest = z.output<typeof followRequestSchema>;

export const followResponseSchema = z.object({
  status: z.enum(['confirm_email_sent', 'already_following']),
});
export type FollowResponse = z.output<typeof followResponseSchema>;
