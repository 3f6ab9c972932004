/**
 * An HTTP probe: a plain GET every `everyMs` while sockets carry the load,
 * from its own address (127.0.0.1, apart from the players' 127.1.y.z, so
 * the players' rate limits are not its own). Each is sent on time, whether
 * the last was answered or not, so a stall shows in every probe it held up.
 * What it times is whether a person opening a page would be answered while
 * the gateway is busy with socket traffic.
 *
 * The probe runs on a thread of its own (httpProbeThread.mjs): on the load
 * generator's event loop, busy with thousands of sockets, its timings were
 * the generator's delays as much as the gateway's. Each probe opens a new
 * connection, as a first visit does, and the time to connect is kept apart
 * from the time from connected to the whole answer.
 */
import { Worker } from 'node:worker_threads';

interface ProbeFigures {
  readonly latencies: number[];
  readonly connectLatencies: number[];
  readonly answerLatencies: number[];
  readonly failures: number;
}

const URLS_EVERY_MS = 5_000;

export class HttpProbe {
  /** Milliseconds from request to the end of the answer, of the answers counted (sent from `countFrom` on). */
  readonly latencies: number[] = [];
  /** Of the same answers: milliseconds from request to the connection being open. */
  readonly connectLatencies: number[] = [];
  /** Of the same answers: milliseconds from the connection being open to the end of the answer. */
  readonly answerLatencies: number[] = [];
  /** Probes counted that were answered with anything but 200, or not at all. */
  failures = 0;
  private worker: Worker | undefined;
  private urlsTimer: NodeJS.Timeout | undefined;

  constructor(
    /** The URLs to get, in turn (a table's view each, say); asked again every few seconds, as tables come and go. */
    private readonly urls: () => string[],
    private readonly everyMs = 100,
    /** performance.now() from which answers are counted (after a warm-up). */
    private readonly countFrom = 0,
  ) {}

  start(): void {
    const worker = new Worker(new URL('./httpProbeThread.mjs', import.meta.url), {
      workerData: { everyMs: this.everyMs, countFrom: performance.timeOrigin + this.countFrom, timeoutMs: 30_000 },
    });
    this.worker = worker;
    const sendUrls = () => worker.postMessage({ urls: this.urls() });
    sendUrls();
    this.urlsTimer = setInterval(sendUrls, URLS_EVERY_MS);
  }

  /** Stops probing and takes the figures (probes still unanswered are left out). */
  async stop(): Promise<void> {
    clearInterval(this.urlsTimer);
    const worker = this.worker;
    if (worker === undefined) return;
    const figures = await new Promise<ProbeFigures>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage({ stop: true });
    });
    await worker.terminate();
    this.latencies.push(...figures.latencies);
    this.connectLatencies.push(...figures.connectLatencies);
    this.answerLatencies.push(...figures.answerLatencies);
    this.failures += figures.failures;
  }
}
