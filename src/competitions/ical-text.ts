// RFC 5545 text helpers for the calendar feed (endpoint 5). Pure functions, no dependencies.
//
// Pipeline for a TEXT value: sanitizeText (well-formed UTF-16, newlines normalised, control characters
// removed) -> escapeText (RFC 5545 3.3.11) -> content line "NAME;PARAMS:value" -> foldLine (75 octets).

/** Maximum octets per physical line, CRLF excluded (RFC 5545 3.1). */
export const MAX_LINE_OCTETS = 75;

export const CRLF = '\r\n';

/** Replaces every lone (unpaired) UTF-16 surrogate with U+FFFD, so the string encodes to valid UTF-8. */
export function toWellFormed(value: string): string {
  // ES2024's own, not a regular expression: a full regeneration asks this of millions of lines and values.
  return value.isWellFormed() ? value : value.toWellFormed();
}

/**
 * Makes arbitrary input safe to put in a TEXT value:
 * - anything that is not a string becomes '' (the type says string, the data may not);
 * - lone surrogates become U+FFFD;
 * - CRLF and a lone CR become LF (a newline, later escaped as `\n`);
 * - HTAB becomes a space (it separates words; removing it would glue them together);
 * - every other control character (U+0000-U+001F except LF, and U+007F) is removed: RFC 5545 3.3.11
 *   excludes CONTROL characters from TEXT, and a raw one can break a parser or a client.
 */
export function sanitizeText(value: unknown): string {
  if (typeof value !== 'string') return '';
  if (!/[\u0000-\u001F\u007F\uD800-\uDFFF]/.test(value)) return value;
  return toWellFormed(value)
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, '');
}

/**
 * Escapes a TEXT value per RFC 5545 3.3.11: backslash, semicolon, comma, and newline (as `\n`).
 * The input must already be sanitized (no CR). Colons and double quotes need no escaping in a value.
 */
export function escapeText(value: string): string {
  if (!/[\\;,\n]/.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
}

/** Undoes RFC 5545 folding: a CRLF (or bare LF) followed by one space or tab is removed. */
export function unfold(text: string): string {
  return text.replace(/\r?\n[ \t]/g, '');
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * Folds one unfolded content line (no CR or LF inside) so that every physical line is at most
 * 75 octets of UTF-8 (CRLF not counted): the first segment holds up to 75 octets, each continuation
 * line is one space plus up to 74 octets. Breaks fall only between code points, so a multi-octet
 * UTF-8 sequence is never split, nor a UTF-16 surrogate pair (iteration is by code point).
 * Returns the physical lines joined by CRLF, without a trailing CRLF.
 */
export function foldLine(line: string): string {
  // At most 75 UTF-16 units is at most 75 octets when all are ASCII; otherwise measure.
  const wellFormed = toWellFormed(line);
  if (wellFormed.length <= MAX_LINE_OCTETS / 3 || Buffer.byteLength(wellFormed, 'utf8') <= MAX_LINE_OCTETS) return wellFormed;
  const segments: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_LINE_OCTETS;
  for (const char of wellFormed) {
    const size = utf8Length(char.codePointAt(0) ?? 0);
    if (octets + size > limit) {
      // Never between an escape's backslash and its letter (\n, \, \; \\): RFC 5545 allows it, but a reader that
      // unescapes line by line (a review counted 43 such breaks in the demo's feeds) reads "\" then "n".
      const escaping = trailingBackslashes(current) % 2 === 1;
      segments.push(escaping ? current.slice(0, -1) : current);
      current = escaping ? '\\' : '';
      octets = escaping ? 1 : 0;
      limit = MAX_LINE_OCTETS - 1; // the leading space of a continuation line counts
    }
    current += char;
    octets += size;
  }
  segments.push(current);
  return segments.join(`${CRLF} `);
}

function trailingBackslashes(text: string): number {
  let n = 0;
  while (n < text.length && text.charCodeAt(text.length - 1 - n) === 0x5c) n++;
  return n;
}

/** Folds each content line and joins them with CRLF, ending with CRLF as RFC 5545 requires. */
export function serializeLines(lines: readonly string[]): string {
  return lines.map((line) => foldLine(line) + CRLF).join('');
}
