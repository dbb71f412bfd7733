// Identifiers: strings, URL-safe, stable across regenerations and imports (contract). One pattern for the
// import format, the request fields, the read routes and the API document.
import { z } from 'zod';

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** An identifier in an import file or the API: 1 to 64 letters, digits, `_` and `-`, starting with a letter or digit. */
export const idSchema = z.string().regex(ID_PATTERN, `must match ${ID_PATTERN.source}`);

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}
