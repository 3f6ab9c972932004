/**
 * A soak: client-side bots (drivers/players/) keep `tables` tables in
 * play over WebSocket against the service (drivers/serviceProcesses.ts) for a
 * while, new tables replacing finished games; every 10 s a line of figures
 * (accepted commands/s, p99 latency of the interval, errors, the resident
 * memory of every process of the service, the gateways' heap from
 * /metrics), kept as samples for the memory-trend verdict. The soak run
 * (soak.ts) and the chaos run (../chaos/chaos.ts) are both one of these.
 */
import { latencySummary, megabytes, percentile } from '../../drivers/figures/latency.js';
import { getText, metricValue, parseMetrics } from '../../drivers/figures/metrics.js';
import { procStatus } from '../../drivers/figures/processStatus.js';
import { PlayerPool, REPLY_TIMEOUT_MS, type PlayerPoolOptions } from '../../drivers/players/playerPool.js';
import type { GameName } from '../../machines/table/options.js';
import {
  describeService,
  startServiceProcesses,
  type Backend,
  type ServiceProcesses,
  type ServiceSettings,
} from '../../drivers/serviceProcesses.js';
import { MemorySeries } from './memoryTrend.js';

export const PROGRESS_MS = 10_000;
/** Memory is sampled more often than it is printed: the trend is fitted to each half minute's lowest sample. */
const MEMORY_SAMPLE_MS = 2_000;
/** Tables set up at a time. */
const SETUP_CONCURRENCY = 32;
/** Tables not set up by then are left out (counted as an error). */
const SETUP_MS = 10 * 60_000;

export interface SoakOptions {
  readonly backend: Backend;
  readonly game: GameName;
  /** The rules options of every table (e.g. `end: 'hands:2'`: shorter games, more of them). */
  readonly tableOptions?: Readonly<Record<string, string>>;
  readonly tables: number;
  readonly thinkMs: number;
  readonly service: ServiceSettings;
  /** The pool's hooks (the chaos run's). */
  readonly players?: Partial<Pick<PlayerPoolOptions, 'reconnect' | 'onAccepted' | 'onTableCreated' | 'serverSide'>>;
  readonly log?: (line: string) => void;
}

export interface PlaySummary {
  readonly seconds: number;
  readonly accepted: number;
  readonly stalledTables: number;
  readonly unanswered: number;
}

/** Ctrl-C or SIGTERM ends the run (the one `current` gives, once started) early, with its figures. */
export function stopEarlyOnSignal(current: () => SoakRun | null): void {
  const onSignal = (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: stopping early`);
    current()?.interrupt();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

export class SoakRun {
  /** Memory samples by series name (`gateway RSS`, `gateway heap`, `worker-1 RSS`, `nats n1 RSS`). */
  readonly series = new Map<string, MemorySeries>();
  /** Lines of figures the run adds to each progress line (the chaos run's fault counts). */
  extraProgress: () => string = () => '';
  private wakeEnd: () => void = () => undefined;
  private memoryNow = '';
  /** Each gateway's latest heap figure, and the gateways whose /metrics scrape is under way. */
  private readonly lastHeap = new Map<string, number>();
  private readonly scraping = new Set<string>();

  private constructor(
    readonly options: SoakOptions,
    readonly service: ServiceProcesses,
    readonly players: PlayerPool,
    readonly log: (line: string) => void,
  ) {}

  /** Starts the service and sets up every table; on failure stops what it started. */
  static async start(options: SoakOptions): Promise<SoakRun> {
    const log = options.log ?? ((line: string) => console.log(line));
    const service = await startServiceProcesses(options.backend, options.service, log);
    log(describeService(service));
    const players = new PlayerPool({
      game: options.game,
      ...(options.tableOptions === undefined ? {} : { tableOptions: options.tableOptions }),
      tables: options.tables,
      clientAddresses: options.tables,
      thinkMs: options.thinkMs,
      gatewayFor: (slot, seat) => service.gatewayPortFor(slot.index, seat),
      ...options.players,
    });
    const run = new SoakRun(options, service, players, log);
    try {
      await run.setUp();
    } catch (error) {
      await run.stop();
      throw error;
    }
    return run;
  }

  /** Stops playing early (a signal): `play` returns at its next step. */
  interrupt(): void {
    this.players.stopping = true;
    this.wakeEnd();
  }

  private async setUp(): Promise<void> {
    const { players, options } = this;
    const counters = players.counters;
    const started = performance.now();
    const tried = await players.setUp({
      concurrency: SETUP_CONCURRENCY,
      deadline: started + SETUP_MS,
      progressMs: PROGRESS_MS,
      onProgress: () =>
        this.log(
          `[setup ${((performance.now() - started) / 1000).toFixed(0)}s] ${counters.tablesSetUp}/${options.tables} tables, ${players.openSockets()} sockets open, errors ${counters.errorCount()}`,
        ),
    });
    if (tried < options.tables && !players.stopping)
      counters.countError('tables left out: setup ran past 10 minutes', `${options.tables - tried} tables`);
    this.log(
      `set up ${counters.tablesSetUp}/${options.tables} tables, ${players.openSockets()} sockets, in ${((performance.now() - started) / 1000).toFixed(1)}s; errors so far ${counters.errorCount()}`,
    );
  }

  /**
   * Plays for `minutes` with a line of figures every 10 s; `during` runs
   * alongside (the chaos run's faults) and is awaited before the end. Then
   * waits (5 s at most) for the last replies.
   */
  async play(minutes: number, during?: (endsAt: number) => Promise<void>): Promise<PlaySummary> {
    const { players } = this;
    const counters = players.counters;
    const started = performance.now();
    const endsAt = started + minutes * 60_000;
    players.replaceUntil = endsAt;
    players.steadyFrom = started;
    players.play();
    let lastTick = started;
    let acceptedAtTick = counters.accepted;
    const progress = setInterval(() => {
      const now = performance.now();
      const rate = (counters.accepted - acceptedAtTick) / ((now - lastTick) / 1000);
      lastTick = now;
      acceptedAtTick = counters.accepted;
      const recent = counters.takeRecentLatencies().sort((a, b) => a - b);
      const figures =
        `[${clock(now - started)}] ${rate.toFixed(0)} commands/s, p99 ${recent.length === 0 ? 'n/a' : `${percentile(recent, 99).toFixed(0)} ms`}, errors ${counters.errorCount()}, ` +
        `${players.openSockets()} sockets, ${counters.gamesFinished} games finished`;
      this.log(`${figures} | ${this.memoryNow}${this.extraProgress()}`);
    }, PROGRESS_MS);
    const memory = setInterval(() => this.sampleMemory(() => (performance.now() - started) / 60_000), MEMORY_SAMPLE_MS);
    const watchdog = players.watchLateReplies();
    const alongside = during?.(endsAt) ?? Promise.resolve();
    await new Promise<void>((resolve) => {
      this.wakeEnd = resolve;
      setTimeout(resolve, Math.max(0, endsAt - performance.now()));
    });
    await alongside;
    players.stopping = true;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(progress);
    clearInterval(memory);
    await players.drain(5_000);
    clearInterval(watchdog);
    const unanswered = players.pendingCommands();
    if (unanswered > 0 && !players.options.reconnect)
      counters.countError('commands unanswered 5 s after the run', `${unanswered} commands`);
    return { seconds, accepted: counters.accepted, stalledTables: players.stalledTables(REPLY_TIMEOUT_MS).length, unanswered };
  }

  private seriesNamed(name: string): MemorySeries {
    let series = this.series.get(name);
    if (series === undefined) {
      series = new MemorySeries(name);
      this.series.set(name, series);
    }
    return series;
  }

  /**
   * Samples every process's resident memory into `series`, and starts a
   * /metrics scrape for the heap of each gateway that has none under way (a
   * saturated gateway may take seconds to answer one: its heap is sampled
   * when the answer comes, and the RSS samples do not wait for it). The
   * latest figures, as text, into `memoryNow`.
   */
  private sampleMemory(minuteNow: () => number): void {
    const parts: string[] = [];
    for (const process of this.service.processes()) {
      const rss = procStatus(process.pid)?.rss ?? null;
      this.seriesNamed(`${process.name} RSS`).add(minuteNow(), rss);
      const heap = this.lastHeap.get(process.name);
      parts.push(`${process.name} RSS ${rss === null ? 'n/a' : megabytes(rss)}${heap === undefined ? '' : ` heap ${megabytes(heap)}`}`);
      const { metricsUrl, name } = process;
      if (metricsUrl === null || this.scraping.has(name)) continue;
      this.scraping.add(name);
      void heapUsed(metricsUrl)
        .then((bytes) => {
          if (bytes === null) return;
          this.seriesNamed(`${name} heap`).add(minuteNow(), bytes);
          this.lastHeap.set(name, bytes);
        })
        .finally(() => this.scraping.delete(name));
    }
    for (const node of this.service.nats?.nodes ?? []) {
      const rss = node.process?.pid === undefined ? null : (procStatus(node.process.pid)?.rss ?? null);
      this.seriesNamed(`nats ${node.name} RSS`).add(minuteNow(), rss);
      parts.push(`${node.name} ${rss === null ? 'down' : megabytes(rss)}`);
    }
    this.memoryNow = parts.join(', ');
  }

  /** The run's closing figures. */
  summarize(summary: PlaySummary): string[] {
    const counters = this.players.counters;
    const lines = [
      `accepted commands: ${summary.accepted} in ${summary.seconds.toFixed(0)}s = ${(summary.accepted / summary.seconds).toFixed(0)}/s ` +
        `(${counters.commandsSent} sent; ${counters.gamesFinished} games finished, ${counters.tablesReplaced} new tables in their place)`,
      `latency, socket send to 'accepted': ${latencySummary(counters.latencies)} (max ${counters.latencies.reduce((most, value) => Math.max(most, value), 0).toFixed(0)} ms)`,
      `table set-up (create, take the seats, open the sockets, first views): ${latencySummary(counters.setUpMs)}`,
      `errors: ${counters.errorCount()}`,
      ...counters.errorLines().map((line) => `  ${line}`),
    ];
    if (counters.lateReplies > 0)
      lines.push(`late: ${counters.lateReplies} commands waited more than ${REPLY_TIMEOUT_MS / 1000} s for their reply`);
    if (summary.stalledTables > 0)
      lines.push(`stalled: ${summary.stalledTables} tables in play had no accepted command in the last ${REPLY_TIMEOUT_MS / 1000} s`);
    for (const gateway of this.service.gateways) {
      if (gateway.complaints.length === 0) continue;
      lines.push(`gateway pid ${gateway.pid} logged ${gateway.complaints.length} lines at warn or above; the first:`);
      for (const line of gateway.complaints.slice(0, 5)) lines.push(`  ${line}`);
    }
    return lines;
  }

  async stop(): Promise<void> {
    await this.players.close();
    await this.service.stop();
  }
}

/** How long a /metrics scrape may take: a saturated gateway can take seconds to answer one. */
const METRICS_TIMEOUT_MS = 30_000;

async function heapUsed(metricsUrl: string): Promise<number | null> {
  try {
    const { status, body } = await getText(metricsUrl, METRICS_TIMEOUT_MS);
    return status === 200 ? metricValue(parseMetrics(body), 'nodejs_heap_size_used_bytes') : null;
  } catch {
    return null;
  }
}

function clock(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
