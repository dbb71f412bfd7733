// What a wrongly typed field of an import file is told, in an organizer's words rather than the validator's: zod's
// own "Invalid input: expected number, received undefined" and "Unrecognized keys: "name","matches"" left an
// organizer's review to work out what to write. Our schemas' own messages ("is empty: leave it out or write null")
// are kept as they are.
import type { z } from 'zod';
import { nearest } from '../text/nearest.js';

const WHAT: Record<string, string> = {
  number: 'a number',
  string: 'text in double quotes',
  boolean: 'true or false',
  array: 'a list, [ … ]',
  object: 'an object, { … }',
};

/** Text that reads as a number: a spreadsheet's cell pasted in quotes. */
const numberAsText = (value: unknown): value is string => typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim());

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return numberAsText(value) ? `text ("${value}")` : 'text';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? String(value) : typeof value;
}

/** The value at `path` under `root`, as the file has it. */
function at(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const part of path) node = node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[part] : undefined;
  return node;
}

/**
 * A team id the organization does not have, with the one most likely meant: a first-time organizer's review typed
 * "alnor-u12" for "alnoor-u12" in a fixture and was told only that it was not a team.
 */
export function notATeam(id: string, teamIds: Iterable<string>): string {
  const near = nearest(id, teamIds);
  // Not one that differs in its digits alone: "hv-u14" is not a typo of "hv-u12", but another age group (a review).
  const digitless = (s: string) => s.replace(/\d/g, '');
  const meant = near !== null && digitless(near) === digitless(id) ? null : near;
  return `team "${id}" is not a team of this organization${meant === null ? '' : ` (did you mean "${meant}"?)`}`;
}

/**
 * The message of `issue`, found validating `value` against an object schema whose fields are `fields`: zod's
 * default wording of a wrong type or unknown fields said again for an organizer, the schema's own messages as they are.
 */
export function issueMessage(issue: z.core.$ZodIssue, value: unknown, fields: readonly string[]): string {
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input: expected ')) {
    const got = at(value, issue.path);
    const want = WHAT[issue.expected] ?? issue.expected;
    if (got === undefined) return `is required: ${issue.expected === 'string' ? 'text' : want}`;
    if (issue.expected === 'number' && numberAsText(got)) {
      return `must be a number, not text: write ${got.trim()} without quotes`;
    }
    if (issue.expected === 'boolean' && (got === 'true' || got === 'false')) return `must be ${got} without quotes`;
    return `must be ${want}, not ${kindOf(got)}`;
  }
  if (issue.code === 'unrecognized_keys' && issue.message.startsWith('Unrecognized key')) {
    // An element's own fields: at the path, the object whose keys were not known.
    const known = issue.path.length === 0 ? fields : [];
    const named = issue.keys.map((key) => {
      const meant = nearest(key, known);
      return `${JSON.stringify(key)}${meant === null ? '' : ` (did you mean "${meant}"?)`}`;
    });
    return `${issue.keys.length === 1 ? 'has a field' : 'has fields'} the import format does not know: ${named.join(', ')}`;
  }
  // A word of a fixed list ("status": "Postponed"): zod said `Invalid option: expected one of "scheduled"|…`. The one
  // meant, when the value is one in other letters or spacing (a review's "Postponed", "In progress").
  if (issue.code === 'invalid_value' && issue.message.startsWith('Invalid option: ') && issue.values.every((v) => typeof v === 'string')) {
    const got = at(value, issue.path);
    const values = issue.values as string[];
    const listed = values.map((v) => JSON.stringify(v)).join(', ');
    const meant = typeof got === 'string' ? values.find((v) => v === got.trim().toLowerCase().replace(/[\s-]+/g, '_')) : undefined;
    return meant !== undefined ? `must be written "${meant}" (lower case, as the format lists it: ${listed})` : `must be one of ${listed}`;
  }
  return issue.message;
}
