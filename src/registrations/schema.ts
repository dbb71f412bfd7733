import { z } from 'zod';
import { dateOfBirthField, emailField, idField, optionalIdField, optionalText, phoneField, requiredText } from '../http/fields.js';

/** Request body of POST /api/v0/register (spec 2.7). */
export const registrationRequestSchema = z.object({
  org_id: idField,
  division_id: optionalIdField,
  name: requiredText(120),
  name_ar: optionalText(120),
  email: emailField,
  phone: phoneField,
  date_of_birth: dateOfBirthField,
  guardian_name: optionalText(120),
  guardian_phone: phoneField,
  notes: optionalText(2000, { multiline: true }),
});
export type RegistrationRequest = z.output<typeof registrationRequestSchema>;

export const registrationResponseSchema = z.object({
  status: z.literal('submitted'),
  id: z.string(),
});
export type RegistrationResponse = z.output<typeof registrationResponseSchema>;
