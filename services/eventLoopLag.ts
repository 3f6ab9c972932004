/**
 * How late the event loop ran: the longest delay it had in the last sample
 * period (`sampleMs`), from Node's event-loop delay histogram. A request that
 * holds the loop for a second shows as a second's lag however quiet the loop
 * was around it (the mean of the delays, which @fastify/under-pressure
 * judges by, dilutes one long stall among many short waits).
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

/** How late the loop runs, as load shedding reads it: this process's (EventLoopLag), or one a test sets. */
export interface LagSource {
  /** The longest lag of the last sample period, in whole ms. */
  readonly currentMs: number;
}

export class EventLoopLag implements LagSource {
  private lagMs = 0;
  private readonly histogram: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;

  constructor(sampleMs: number) {
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.histogram.enable();
    this.timer = setInterval(() => this.sample(), sampleMs);
    this.timer.unref();
  }

  /** The longest lag of the last sample period, in whole ms. */
  get currentMs(): number {
    return this.lagMs;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private sample(): void {
    // The histogram counts the timer's own resolution in every delay.
    this.lagMs = this.histogram.count === 0 ? 0 : Math.max(0, Math.round(this.histogram.max / 1e6 - RESOLUTION_MS));
    this.histogram.reset();
  }
}
