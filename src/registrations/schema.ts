// Request and response of POST /api/v0/register (spec 2.7); the descriptions are the API document's.
import { z } from 'zod';
import { dateOfBirthField, emailField, idField, languageField, optionalText, phoneField, requiredText } from '../http/fields.js';

/**
 * An optional id, but sent blank (a form's division list left on its empty entry, or JSON's null: a script's
 * `select.value || null`) is null, not absent: where the organization has divisions, the service refuses it
 * (src/registrations/rules.ts blankDivisionProblem).
 */
const divisionField = z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? null : v), idField.nullable().optional());

export const registrationRequestSchema = z.object({
  org_id: idField.meta({ description: 'Organization the player registers with (`amman-yfa`).' }),
  division_id: divisionField.meta({
    description:
      'Division of that organization (`amm-reg-u12`). Absent: the registration names none. Sent empty or `null` (a form\'s ' +
      'division list left on its blank entry) to an organization that has divisions the public can register into (open ' +
      'or not): 422 on this field, "is required", so that no registration passes its divisions\' rules by a list left ' +
      'blank; to an organization without, the same as absent. No read lists an organization\'s divisions: their ids and rules (when each takes ' +
      'registrations, the days its players are born between, the age under which a guardian is needed) are in the organization\'s ' +
      'own data; a club\'s form gets them from its organizer. A registration outside a division\'s rules is answered 422 naming the field to change.',
  }),
  name: requiredText(120).meta({ description: 'Player name; no control characters, line separators (U+2028, U+2029), text direction controls (U+202A to U+202E, U+2066 to U+2069) or invisible characters (U+00AD, U+034F, U+115F, U+1160, U+17B4, U+17B5, U+180B to U+180F, U+200B, U+2060 to U+2065, U+206A to U+206F, U+2800, U+3164, U+FEFF, U+FFA0, U+FFF9 to U+FFFB, U+1BCA0 to U+1BCA3, U+13430 to U+1343F, U+1D173 to U+1D17A, U+E0000 to U+E007F, except whole in the flag emoji of England, Scotland and Wales), in this and the other text fields. The joiners U+200C and U+200D and the marks LRM, RLM and ALM are taken, beside at least one letter, digit or symbol: a text of nothing else reads as blank.' }),
  name_ar: optionalText(120).meta({ description: 'Player name in Arabic.' }),
  email: emailField.meta({ format: 'idn-email', description: 'Contact email; trimmed, kept with its local part lower-cased and its domain in ASCII (an internationalized domain is taken). A receipt is sent there.' }),
  phone: phoneField.meta({ description: 'Phone number: digits (Arabic-Indic digits are taken and kept as ASCII), spaces, `+ ( ) . -`.' }),
  date_of_birth: dateOfBirthField.meta({ format: 'date', description: 'Date of birth, `YYYY-MM-DD` (Arabic-Indic digits are taken and kept as ASCII; a month or day of one digit, `2015-3-4`, is taken as `2015-03-04`): a real day between 1900-01-01 and today, the registration day in the time zone of the organization (`timezone`).' }),
  guardian_name: optionalText(120).meta({ description: 'Guardian name (for a minor).' }),
  guardian_phone: phoneField.meta({ description: "Guardian's phone number: digits (Arabic-Indic digits are taken and kept as ASCII), spaces, `+ ( ) . -`." }),
  // An English club's Arabic-speaking families (a first-time organizer's review): its form in Arabic says so, and the
  // parent's receipt and answer page follow; the organization's notice stays in its own language.
  language: languageField.meta({
    description: 'The language of the receipt emailed to `email` and, for an HTML form, of the page answering it: `en` or `ar`. ' +
      "Absent or blank: the organization's. The organization's own notice is always in its language.",
  }),
  notes: optionalText(2000, { multiline: true }).meta({ description: 'Free-text notes; line breaks allowed, kept as LF (a form\'s CRLF counts as one character, as its maxlength does).' }),
});
export type RegistrationRequest = z.output<typeof registrationRequestSchema>;

export const registrationResponseSchema = z.object({
  status: z.literal('submitted').meta({ description: 'Always `submitted`.' }),
  id: z.string().meta({ description: 'Identifier of the registration request (named in the receipt email).' }),
});
export type RegistrationResponse = z.output<typeof registrationResponseSchema>;
