/**
 * The players' own pace, kept under the gateway's limits (docs/api.md,
 * "Limits"): a token bucket per client address for HTTP and per socket for
 * messages, which tells a player how long to wait rather than refusing it.
 */

/** The gateway: 120 requests per 4 s per route and client address (new tables: 10 a minute). */
export const HTTP_PACE = { perSecond: 25, burst: 100 };
/** The gateway: 5 messages a second, bursts of 20, per socket. */
export const SOCKET_PACE = { perSecond: 4, burst: 16 };

export class Pacer {
  private tokens: number;
  private updated = performance.now();

  constructor(private readonly limit: { perSecond: number; burst: number }) {
    this.tokens = limit.burst;
  }

  /** Takes a token, borrowing ahead when there is none: how long to wait before using it, in ms. */
  reserve(): number {
    const now = performance.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.updated) / 1000) * this.limit.perSecond);
    this.updated = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.limit.perSecond) * 1000;
  }
}
