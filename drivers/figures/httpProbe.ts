/**
 * An HTTP probe: a plain GET every `everyMs` while sockets carry the load,
 * from its own address (127.0.0.1, apart from the players' 127.1.y.z, so
 * the players' rate limits are not its own). Each is sent on time, whether
 * the last was answered or not, so a stall shows in every probe it held up.
 * What it times is whether a person opening a page would be answered while
 * the gateway is busy with socket traffic.
 *
 * Each probe opens a new connection, as a first visit does, and the time to
 * connect is kept apart from the time from connected to the whole answer:
 * a connection waits in the kernel's listen queue until the gateway's event
 * loop accepts it, and a SYN dropped from a full queue is sent again only
 * after a second or more, so the two have different causes and cures.
 */
import http from 'node:http';

export class HttpProbe {
  /** Milliseconds from request to the end of the answer, of the answers counted (sent from `countFrom` on). */
  readonly latencies: number[] = [];
  /** Of the same answers: milliseconds from request to the connection being open. */
  readonly connectLatencies: number[] = [];
  /** Of the same answers: milliseconds from the connection being open to the end of the answer. */
  readonly answerLatencies: number[] = [];
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
      const { status, connectedAt } = await timedGet(url, 30_000);
      if (started < this.countFrom) return;
      if (status !== 200) {
        this.failures++;
        return;
      }
      const ended = performance.now();
      this.latencies.push(ended - started);
      this.connectLatencies.push(connectedAt - started);
      this.answerLatencies.push(ended - connectedAt);
    } catch {
      if (started >= this.countFrom) this.failures++;
    }
  }
}

/** A GET on a new connection: its status once the whole answer is read, and when the connection opened (performance.now()). */
function timedGet(url: string, timeoutMs: number): Promise<{ status: number; connectedAt: number }> {
  return new Promise((resolve, reject) => {
    let connectedAt = Number.NaN;
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connectedAt }));
      response.on('error', reject);
    });
    request.on('socket', (socket) => socket.once('connect', () => (connectedAt = performance.now())));
    request.on('timeout', () => request.destroy(new Error(`GET ${url}: no answer within ${timeoutMs / 1000} s`)));
    request.on('error', reject);
  });
}
