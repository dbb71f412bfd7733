import { describe, expect, it } from 'vitest';
import { hashToken, isTokenShaped, newId, newToken, tokenMatches } from './tokens.js';

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
