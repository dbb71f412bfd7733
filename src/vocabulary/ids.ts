// Identifiers: strings, URL-safe, stable across regenerations and imports (contract). One pattern for the
// import format, the request fields, the read routes and the API document.
import { z } from 'zod';

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** An identifier in an import file or the API: 1 to 64 letters, digits, `_` and `-`, starting with a letter or digit. */
export const idSchema = z.string().regex(ID_PATTERN, `must match ${ID_PATTERN.source}`);

/**
 * Ids a kind cannot take because a route of the API has a fixed segment where that kind's id goes:
 * /api/v0/rsvp/respond sits where /api/v0/rsvp/[matchId] takes a match id, so a match called `respond` could
 * never be read. test/reserved-ids.test.ts derives the list from src/pages/api/ and checks it is complete.
 * Compared without regard to case, so no spelling of them is taken either.
 */
export const RESERVED_IDS: Readonly<Record<'match' | 'event' | 'team', readonly string[]>> = {
  match: ['respond'],
  event: [],
  team: [],
};

export function isReservedId(kind: keyof typeof RESERVED_IDS, id: string): boolean {
  return RESERVED_IDS[kind].includes(id.toLowerCase());
}
