/**
 * A rate as `burst` at once and `perSecond` on average after, and the token
 * bucket each socket's messages are counted in. HTTP requests are counted by
 * @fastify/rate-limit (requestLimits.ts), per route as the router routed it.
 */

export interface RateLimit {
  readonly perSecond: number;
  readonly burst: number;
}

export class TokenBucket {
  private tokens: number;
  private updated: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.updated = now();
  }

  /** Takes one token if there is one. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Whether the bucket is back to full (an idle client). */
  get full(): boolean {
    this.refill();
    return this.tokens >= this.limit.burst;
  }

  /** Seconds until the next token. */
  get retryAfter(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.limit.perSecond);
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.updated) / 1000) * this.limit.perSecond);
    this.updated = now;
  }
}
