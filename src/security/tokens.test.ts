import { describe, expect, it } from 'vitest';
import { hashToken, isTokenShaped, newId, newToken, redactTokens, tokenMatches } from './tokens.js';

describe('tokens', () => {
  it('carry 256 bits of randomness and never repeat', () => {
    const tokens = new Set(Array.from({ length: 2000 }, newToken));
    expect(tokens.size).toBe(2000);
    for (const t of [...tokens].slice(0, 50)) {
      expect(Buffer.from(t, 'base64url').length).toBe(32);
      expect(isTokenShaped(t)).toBe(true);
    }
  });

  it('are stored as SHA-256 hashes, not as themselves', () => {
    const t = newToken();
    const h = hashToken(t);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain(t);
  });

  it.each([
    ['the right token', (t: string) => t, true],
    ['another token', () => newToken(), false],
    ['a truncated token', (t: string) => t.slice(0, -1), false],
    ['an empty string', () => '', false],
  ])('match %s: %s', (_label, present, expected) => {
    const t = newToken();
    expect(tokenMatches(present(t), hashToken(t))).toBe(expected);
  });

  it('reject shapes that cannot be tokens before any lookup', () => {
    for (const bad of ['', 'short', 'a'.repeat(44), `${'a'.repeat(42)}/`, "' OR 1=1 --", '../../etc/passwd']) {
      expect(isTokenShaped(bad)).toBe(false);
    }
  });

  it('make URL-safe ids', () => {
    expect(newId('reg')).toMatch(/^reg_[A-Za-z0-9_-]{16}$/);
  });
});

// An email's body is kept redacted once sent (the outbox's redact_tokens, src/db/connect.ts): a link left whole in the
// database would answer for its holder to whoever reads a backup.
describe('redactTokens', () => {
  const confirm = 'Ab-_cdEFghIJklMNopQRstUVwxYZ0123456789-_abc';
  const unsubscribe = 'z'.repeat(21) + '_-' + 'Q'.repeat(20);
  it.each([
    ['a link', `Confirm: https://c.example/follow/confirm?token=${confirm}\n`, 'Confirm: https://c.example/follow/confirm?token=redacted\n'],
    // A follow's confirmation carries two: its confirm link and its unsubscribe link.
    ['every link of the text, not the first alone', `https://c.example/follow/confirm?token=${confirm} and https://c.example/follow/unsubscribe?token=${unsubscribe}`,
      'https://c.example/follow/confirm?token=redacted and https://c.example/follow/unsubscribe?token=redacted'],
    ['an HTML part\'s link', `<a href="https://c.example/rsvp?token=${unsubscribe}">`, '<a href="https://c.example/rsvp?token=redacted">'],
    ['text without a token', 'Reference: reg_abc; token=short', 'Reference: reg_abc; token=short'],
  ])('%s', (_label, text, expected) => {
    expect(redactTokens(text)).toBe(expected);
  });

  it('leaves no token of newToken whole, whichever of its 64 characters it has', () => {
    const links = Array.from({ length: 200 }, () => `?token=${newToken()}`).join(' ');
    expect(redactTokens(links)).toBe(Array.from({ length: 200 }, () => '?token=redacted').join(' '));
  });
});
