/**
 * The service's Prometheus metrics, served at /metrics: tables active and
 * quarantined, commands accepted and refused, command latency, connected sockets. Each
 * gateway has its own registry, so several can run in one process (tests).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Who sent a command: a player (HTTP or socket), a bot, or the turn clock. */
export type CommandSource = 'player' | 'bot' | 'clock';
type SocketRole = 'seat' | 'spectator';

export interface GatewayMetrics {
  readonly registry: Registry;
  commandSettled(source: CommandSource, outcome: 'accepted' | { refused: string }, seconds: number): void;
  socketOpened(role: SocketRole): void;
  socketClosed(role: SocketRole): void;
  /** A connection was closed as it arrived: the gateway held as many as it may (limits.connectionsInAll). */
  connectionRefused(): void;
}

export interface MetricsSources {
  /** Tables whose actor is in memory. */
  readonly residentTables: () => number;
  /** Tables whose game is under way (seated or in play, not finished). */
  readonly tablesInPlay: () => Promise<number>;
  /** Tables found quarantined by this process and not repaired since (host/quarantine.ts). */
  readonly quarantinedTables: () => number;
  /** Writes refused because the storage is full (storageFull.ts): whether it is full now, and how many since start. */
  readonly storage: { readonly full: boolean; readonly refused: number };
  /** The bytes the storage holds on this machine's disk (storage.ts); none: no suitors_storage_bytes (memory, NATS). */
  readonly storageBytes?: () => number;
  /** How many tables the storage has retired (SQLite); none: no suitors_tables_retired. */
  readonly retiredTables?: () => number;
  /** Also export the process's own metrics (CPU, memory, event loop). */
  readonly processMetrics?: boolean;
}

export function createMetrics(sources: MetricsSources): GatewayMetrics {
  const registry = new Registry();
  if (sources.processMetrics === true) collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'suitors_tables_active',
    help: 'Tables whose game is not finished',
    registers: [registry],
    async collect() {
      this.set(await sources.tablesInPlay());
    },
  });
  new Gauge({
    name: 'suitors_tables_resident',
    help: 'Tables held in memory by the table host (the rest are passivated)',
    registers: [registry],
    collect() {
      this.set(sources.residentTables());
    },
  });
  new Gauge({
    name: 'suitors_tables_quarantined',
    help: 'Tables whose log holds an event the machine refuses, known to this process: refused until an operator repairs them',
    registers: [registry],
    collect() {
      this.set(sources.quarantinedTables());
    },
  });
  storageMetrics(registry, sources);
  const commands = new Counter({
    name: 'suitors_commands_total',
    help: 'Commands submitted to tables, by source and outcome (accepted, or the refusal kind)',
    labelNames: ['source', 'outcome'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'suitors_command_duration_seconds',
    help: 'From a command reaching the gateway to its acceptance or refusal (durable when accepted)',
    labelNames: ['source'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [registry],
  });
  const sockets = new Gauge({
    name: 'suitors_sockets_connected',
    help: 'Open WebSocket connections, by role',
    labelNames: ['role'] as const,
    registers: [registry],
  });
  // Each labelled child kept: prom-client hashes a label object on every call made with one, a few on every move.
  const commandCounts = new Map<string, ReturnType<typeof commands.labels>>();
  const latencyBySource = new Map<CommandSource, ReturnType<typeof latency.labels>>();
  sockets.set({ role: 'seat' }, 0);
  sockets.set({ role: 'spectator' }, 0);
  const connectionsRefused = new Counter({
    name: 'suitors_connections_refused_total',
    help: 'Connections closed as they arrived: the gateway held as many as it may at once (SUITORS_CONNECTIONS)',
    registers: [registry],
  });
  return {
    registry,
    commandSettled(source, outcome, seconds) {
      const outcomeLabel = outcome === 'accepted' ? 'accepted' : outcome.refused;
      const key = `${source} ${outcomeLabel}`;
      let count = commandCounts.get(key);
      if (count === undefined) {
        count = commands.labels({ source, outcome: outcomeLabel });
        commandCounts.set(key, count);
      }
      count.inc();
      let durations = latencyBySource.get(source);
      if (durations === undefined) {
        durations = latency.labels({ source });
        latencyBySource.set(source, durations);
      }
      durations.observe(seconds);
    },
    socketOpened(role) {
      sockets.inc({ role });
    },
    socketClosed(role) {
      sockets.dec({ role });
    },
    connectionRefused() {
      connectionsRefused.inc();
    },
  };
}

/** What the storage holds and whether it is full: the gauges and the counter an operator watches the disk by. */
function storageMetrics(registry: Registry, sources: MetricsSources): void {
  new Gauge({
    name: 'suitors_storage_full',
    help: "1 while the service's storage is full (its last write was refused for want of space; 507), else 0",
    registers: [registry],
    collect() {
      this.set(sources.storage.full ? 1 : 0);
    },
  });
  const { storageBytes } = sources;
  if (storageBytes !== undefined) {
    new Gauge({
      name: 'suitors_storage_bytes',
      help: "Bytes the service's storage holds on disk: the SQLite file with its write-ahead log and shared-memory files",
      registers: [registry],
      collect() {
        this.set(storageBytes());
      },
    });
  }
  const { retiredTables } = sources;
  if (retiredTables !== undefined) {
    new Gauge({
      name: 'suitors_tables_retired',
      help: 'Finished games retired from the storage: their game record kept, their log and snapshot deleted (suitors retire, SUITORS_RETAIN_FINISHED_DAYS)',
      registers: [registry],
      collect() {
        this.set(retiredTables());
      },
    });
  }
  new Counter({
    name: 'suitors_storage_full_refusals_total',
    help: "Writes refused because the service's storage was full (each answered 507, or logged for a bot move or a snapshot)",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources.storage.refused);
    },
  });
}
