// Secrets sent by email (follow confirm / unsubscribe, RSVP): 256 random bits, only their SHA-256 is
// stored, and a presented token is checked against the stored hash in constant time.
import crypto from 'node:crypto';

export const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return crypto.randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A string that could be one of our tokens; anything else is rejected before any lookup. */
export function isTokenShaped(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/** Constant-time check that a presented token hashes to the stored hash. */
export function tokenMatches(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && crypto.timingSafeEqual(presented, stored);
}

/** Random ids for rows created by the public (registrations, follows, invitations). */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;
}

/** A token inside a link (`…?token=<43 characters>`), for cutting it out of stored text. */
const TOKEN_IN_LINK = /token=[A-Za-z0-9_-]{43}/g;

export function redactTokens(text: string): string {
  return text.replace(TOKEN_IN_LINK, 'token=redacted');
}
