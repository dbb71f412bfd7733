// Fixed-window request counters kept in memory (one server process), keyed by route and client
// address, or by email address for follow. A limit of 0 means no limit.
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetS: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    readonly name: string,
    readonly limit: number,
    readonly windowS: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  take(key: string): RateDecision {
    const now = this.now();
    const windowMs = this.windowS * 1000;
    this.sweep(now, windowMs);
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const resetS = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    if (this.limit > 0 && w.count >= this.limit) return { allowed: false, limit: this.limit, remaining: 0, resetS };
    w.count++;
    return { allowed: true, limit: this.limit, remaining: Math.max(0, this.limit - w.count), resetS };
  }

  /** Drops finished windows now and then, so memory follows the active clients only. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(key);
  }

  /** RateLimit and RateLimit-Policy fields (IETF draft-ietf-httpapi-ratelimit-headers). */
  headers(decision: RateDecision): Record<string, string> {
    if (!this.enabled) return {};
    const headers: Record<string, string> = {
      'RateLimit-Policy': `"${this.name}";q=${this.limit};w=${this.windowS}`,
      RateLimit: `"${this.name}";r=${decision.remaining};t=${decision.resetS}`,
    };
    if (!decision.allowed) headers['Retry-After'] = String(decision.resetS);
    return headers;
  }
}
