/**
 * Token buckets: each client may make `burst` requests at once and
 * `perSecond` more every second after. One bucket per HTTP client address
 * (not per token: anyone may take seat after seat for fresh tokens) and one
 * per socket.
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

/** Buckets by client key; idle clients' buckets are dropped now and then, so the map does not grow without bound. */
export class ClientBuckets {
  private readonly buckets = new Map<string, TokenBucket>();
  private takesSincePrune = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token from the client's bucket; false when it is empty (with the seconds to wait). */
  take(key: string): { ok: true } | { ok: false; retryAfter: number } {
    if (++this.takesSincePrune >= 1000) this.prune();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.limit, this.now);
      this.buckets.set(key, bucket);
    }
    return bucket.take() ? { ok: true } : { ok: false, retryAfter: bucket.retryAfter };
  }

  private prune(): void {
    this.takesSincePrune = 0;
    for (const [key, bucket] of this.buckets) if (bucket.full) this.buckets.delete(key);
  }
}
