/**
 * An HTTP probe: a plain GET every `everyMs` while sockets carry the load,
 * from its own address (127.0.0.1, apart from the players' 127.1.y.z, so
 * the players' rate limits are not its own). Each is sent on time, whether
 * the last was answered or not, so a stall shows in every probe it held up.
 * What it times is whether a person opening a page would be answered while
 * the gateway is busy with socket traffic.
 */
import { getText } from './metrics.js';

export class HttpProbe {
  /** Milliseconds from request to the end of the answer, of the answers counted (sent from `countFrom` on). */
  readonly latencies: number[] = [];
  /** Probes counted that were answered with anything but 200, or not at all. */
  failures = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** The URL to get next: a table's view, say. */
    private readonly url: () => string | null,
    private readonly everyMs = 100,
    /** performance.now() from which answers are counted (after a warm-up). */
    public countFrom = 0,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.probe(), this.everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async probe(): Promise<void> {
    const url = this.url();
    if (url === null) return;
    const started = performance.now();
    try {
      const { status } = await getText(url, 30_000);
      if (started < this.countFrom) return;
      if (status === 200) this.latencies.push(performance.now() - started);
      else this.failures++;
    } catch {
      if (started >= this.countFrom) this.failures++;
    }
  }
}
