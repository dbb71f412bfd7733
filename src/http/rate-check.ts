// One rate-limit check of a request, the same for the API's endpoints and the pages that mirror them: the key is
// the route and the client address the node server determined (the socket, or a trusted proxy's last
// X-Forwarded-For), never Astro's clientAddress, which believes any X-Forwarded-For a client sends.
import type { RateLimiter } from './rate-limit.js';

export interface RateCheck {
  allowed: boolean;
  /** RateLimit / RateLimit-Policy (and Retry-After when refused); empty when the limiter is off. */
  headers: Record<string, string>;
  retryAfterS: number;
}

export function takeRate(limiter: RateLimiter, route: string, clientAddress: string): RateCheck {
  if (!limiter.enabled) return { allowed: true, headers: {}, retryAfterS: 0 };
  const decision = limiter.take(`${route} ${clientAddress}`);
  return { allowed: decision.allowed, headers: limiter.headers(decision), retryAfterS: decision.resetS };
}
