// The component schemas of the document, generated from the zod schemas the code validates and encodes with:
// response bodies from their output side, request bodies from their input side. Descriptions live on the zod
// fields; only the rule every optional request field shares is added here.
import { z } from 'zod';
import {
  publicBracketSchema,
  publicBracketSlotSchema,
  publicEventListSchema,
  publicEventSchema,
  publicStandingsRowSchema,
  publicStandingsSchema,
} from '../../competitions/public-schemas.js';
import { followRequestSchema, followResponseSchema } from '../../follows/schema.js';
import { fieldErrorSchema, problemSchema } from '../../http/problem.js';
import { registrationRequestSchema, registrationResponseSchema } from '../../registrations/schema.js';
import { rsvpRespondResponseSchema, rsvpRespondSchema, rsvpSummarySchema } from '../../rsvp/schema.js';
import { ANY_DIGIT } from '../../vocabulary/digits.js';
import type { JsonSchema } from './types.js';

const BLANK_NOTE = 'Optional: an empty string (or `null` in JSON) counts as absent.';
/**
 * Optional fields whose blank is not absence, their description saying what it is instead: a registration's
 * `division_id` sent blank is a form's list left on its empty entry (src/registrations/rules.ts blankDivisionProblem).
 */
const OWN_BLANK = new Set(['division_id']);

const RESPONSES: [z.ZodType, string][] = [
  [publicEventSchema, 'Event'],
  [publicEventListSchema, 'EventList'],
  [publicStandingsRowSchema, 'StandingsRow'],
  [publicStandingsSchema, 'Standings'],
  [publicBracketSlotSchema, 'BracketSlot'],
  [publicBracketSchema, 'Bracket'],
  [followResponseSchema, 'FollowResult'],
  [rsvpSummarySchema, 'RsvpSummary'],
  [rsvpRespondResponseSchema, 'RsvpRespondResult'],
  [registrationResponseSchema, 'RegistrationResult'],
  [problemSchema, 'Problem'],
  [fieldErrorSchema, 'FieldError'],
];

const REQUESTS: [z.ZodType, string][] = [
  [followRequestSchema, 'FollowRequest'],
  [rsvpRespondSchema, 'RsvpRespondRequest'],
  [registrationRequestSchema, 'RegistrationRequest'],
];

function generate(entries: [z.ZodType, string][], io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of entries) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: (id) => `#/components/schemas/${id}` }).schemas;
  return Object.fromEntries(
    Object.entries(generated).map(([id, schema]) => {
      const { $schema: _s, $id: _i, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

/**
 * On each request field: its rules as the service checks them (the zod schema's own), which /docs shows a person;
 * the field's schema itself is the wider form it may be sent in.
 */
export const CHECKED = 'x-checked';


/**
 * A request field as it may be sent, not as it is checked: zod trims it (and turns Arabic-Indic digits into ASCII)
 * before it checks a pattern, a length, a choice or a format, so the document takes surrounding spaces and those
 * digits too. A review validated a body the server takes (201) against the document and got five refusals: a client
 * generating its form checks from the document refused Arabic input; a later one, a name padded past its length and
 * ` yes ` for an RSVP.
 * - a pattern takes spaces around it and every kind of digit;
 * - a length counts what is left once trimmed (a pattern, since maxLength counts the spaces);
 * - a choice is kept as it is checked, beside the same choice with spaces around;
 * - a format (the date, the email) is kept as it is checked, beside the padded form: a format refuses spaces, and a
 *   date's refuses those digits.
 */
function asSent(property: JsonSchema): JsonSchema {
  const { format, description, ...rest } = property;
  const described = description === undefined ? {} : { description };
  if (typeof property.pattern === 'string') {
    // A date is taken with a month or day of one digit too ("2015-3-4": src/http/fields.ts dateOfBirthField); an API
    // review's client, checking its form from the document, refused what the service took.
    const pattern = format === 'date' ? property.pattern.replaceAll('\\d{2}', '\\d{1,2}') : property.pattern;
    const inner = pattern.replace(/^\^/, '').replace(/\$$/, '').replaceAll('[0-9', `[${ANY_DIGIT}`).replaceAll('\\d', `[${ANY_DIGIT}]`);
    const sent = { ...rest, pattern: `^\\s*(?:${inner})\\s*$` };
    return format === undefined ? { ...sent, ...described } : { ...described, anyOf: [{ ...rest, format }, sent] };
  }
  if (Array.isArray(property.enum)) {
    const choices = (property.enum as string[]).map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    return { ...described, anyOf: [rest, { type: 'string', pattern: `^\\s*(?:${choices})\\s*$` }] };
  }
  if (property.type === 'string' && (property.minLength !== undefined || property.maxLength !== undefined)) {
    const { minLength, maxLength, ...unbounded } = rest;
    const trimmed = { ...unbounded, pattern: trimmedLength(minLength as number | undefined, maxLength as number | undefined) };
    if (format === undefined) return { ...trimmed, ...described };
    // Padded: the same trimmed length, and not already as checked (that is the first branch's, format and all); an
    // address keeps an address's shape (without it, " not an email " passed the document and not the server).
    const shape = format === 'email' || format === 'idn-email' ? { allOf: [{ pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$' }] } : {};
    return { ...described, anyOf: [{ ...rest, format }, { ...trimmed, ...shape, not: { pattern: '^(?:\\S[\\s\\S]*\\S|\\S)?$' } }] };
  }
  return property;
}

/** A string whose trimmed value is `min` to `max` characters long (JavaScript's trim removes what `\s` matches). */
function trimmedLength(min = 0, max?: number): string {
  if (max === 0) return '^\\s*$';
  const inner = max === undefined ? '' : String(max - 2);
  // Not blank: a non-space, then (when it may be longer) characters of anything and a last non-space.
  let body: string;
  if (max === 1) body = '\\S';
  else if (min >= 2) body = `\\S[\\s\\S]{${min - 2},${inner}}\\S`;
  else body = `\\S(?:[\\s\\S]{0,${inner}}\\S)?`;
  return min === 0 ? `^\\s*(?:${body})?\\s*$` : `^\\s*${body}\\s*$`;
}

/** Every component schema. */
export function componentSchemas(): Record<string, JsonSchema> {
  const schemas = generate(RESPONSES, 'output');
  for (const [id, schema] of Object.entries(generate(REQUESTS, 'input'))) {
    const properties = schema.properties as Record<string, JsonSchema>;
    const required = new Set(schema.required as string[]);
    for (const [field, generated] of Object.entries(properties)) {
      const { description, ...property } = asSent(generated);
      const noted = required.has(field) || OWN_BLANK.has(field) ? description : [description, BLANK_NOTE].filter(Boolean).join(' ');
      const checked = { ...generated, ...(noted ? { description: noted } : {}) };
      properties[field] = required.has(field)
        ? { ...property, ...(description ? { description } : {}), [CHECKED]: checked }
        // Absent, or sent blank: a form's empty field, or JSON's null.
        : { description: noted, anyOf: [property, { type: 'string', pattern: '^\\s*$' }, { type: 'null' }], [CHECKED]: checked };
    }
    schemas[id] = { ...schema, description: 'Strings are trimmed; unknown fields are ignored. Form bodies carry the same fields as text.' };
  }
  schemas.Calendar = {
    type: 'string',
    description:
      'An RFC 5545 iCalendar stream: CRLF line ends, lines folded at 75 octets, one VEVENT per match with a kickoff ' +
      '(UID stable forever, DTSTAMP, DTSTART/DTEND in UTC, SUMMARY, DESCRIPTION, LOCATION, SEQUENCE, STATUS).',
    pattern: '^BEGIN:VCALENDAR\\r\\n[\\s\\S]*\\r\\nEND:VCALENDAR\\r\\n$',
  };
  schemas.OpenApiDocument = {
    type: 'object',
    description: 'This document: OpenAPI 3.1.',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string', const: '3.1.0' } },
  };
  return schemas;
}
