// Request and response of POST /api/v0/follow (spec 2.4); the descriptions are the API document's.
import { z } from 'zod';
import { emailField, idField, languageField, optionalIdField } from '../http/fields.js';

export const followRequestSchema = z.object({
  org_id: idField.meta({ description: 'Organization to follow (`riverside-sfl`).' }),
  league_id: optionalIdField.meta({ description: 'Follow only this league of the organization (`rsl-premier`); all of it when absent.' }),
  email: emailField.meta({ format: 'idn-email', description: 'Address to subscribe; trimmed, kept with its local part lower-cased and its domain in ASCII (an internationalized domain is taken). A confirmation link is sent there.' }),
  // As a registration's (an English club's Arabic-speaking families): the follow's emails are read in its mailbox.
  language: languageField.meta({
    description: 'The language of the follow\'s emails (its confirmation, digests and alerts) and of the pages its links open ' +
      'and, for an HTML form, of the page answering it: `en` or `ar`. Absent or blank: the organization\'s. The names of ' +
      'competitions, leagues, teams and the organization are given in it where the organization gave one (a team\'s `name` ' +
      'in English, its `name_ar` in Arabic; a change found before 28 November 2026 names its teams in the organization\'s ' +
      'language). A request for a follow not yet confirmed sets the language of its emails from then on.',
  }),
});
export type FollowRequest = z.output<typeof followRequestSchema>;

export const followResponseSchema = z.object({
  status: z.enum(['confirm_email_sent', 'already_following']).meta({
    description: '`confirm_email_sent`: a confirmation link was emailed (or was, minutes ago; or, for a follow unsubscribed less than 30 days ago, nothing is sent). `already_following`: confirmed before; nothing sent.',
  }),
});
export type FollowResponse = z.output<typeof followResponseSchema>;
