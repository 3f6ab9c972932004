/**
 * A table worker's Prometheus metrics, served at /metrics on
 * WORKER_METRICS_PORT (off when unset): the commands it served by outcome,
 * its appends and their latency, the tables it holds, the tables it took
 * over from dead workers and those handed to it or by it, its bots' moves and turn timeouts, its lease
 * renewals, and the process's own (memory, CPU, event-loop lag). Each worker
 * has its own registry, so several can run in one process (tests).
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { isVersionConflict, type EventStore } from '../eventstore/eventStore.js';
import type { OwnMoveListener } from '../host/autopilot.js';
import type { TableReply } from '../bus/protocol.js';

export interface WorkerMetrics {
  readonly registry: Registry;
  /** A request served: answered here (its reply) or forwarded to the table's owner. */
  requestServed(op: string, answer: TableReply | 'forwarded', seconds: number): void;
  /** A move a table made by itself here: a bot's, or the turn clock's. */
  readonly ownMove: OwnMoveListener;
  tookOver(): void;
  /** A table handed to another worker (`out`, rebalancing or a drain) or by another to this one (`in`). */
  handOff(direction: 'out' | 'in'): void;
  leaseRenewal(ok: boolean): void;
  /** The event store, its appends counted and timed. */
  measured(store: EventStore): EventStore;
  /** Where the tables-held figure is read from, once the worker is running. */
  countHeldTables(count: () => number): void;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export function createWorkerMetrics({ processMetrics = true }: { processMetrics?: boolean } = {}): WorkerMetrics {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'suitors_worker_requests_total',
    help: 'Requests this worker served, by operation and outcome (accepted, a refusal kind, unavailable, forwarded)',
    labelNames: ['op', 'outcome'] as const,
    registers: [registry],
  });
  const requestLatency = new Histogram({
    name: 'suitors_worker_request_duration_seconds',
    help: 'From a request reaching this worker to its answer (durable when accepted), by operation',
    labelNames: ['op'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const ownMoves = new Counter({
    name: 'suitors_worker_own_moves_total',
    help: 'Moves tables made by themselves here: bot moves (source bot) and turn timeouts (source clock), by outcome',
    labelNames: ['source', 'outcome'] as const,
    registers: [registry],
  });
  const appends = new Counter({
    name: 'suitors_worker_appends_total',
    help: 'Appends to the event log, by outcome (ok, conflict: another writer was first, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const appendLatency = new Histogram({
    name: 'suitors_worker_append_duration_seconds',
    help: 'From an append to its acknowledgement by the event log (JetStream)',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const takeovers = new Counter({
    name: 'suitors_worker_takeovers_total',
    help: 'Tables this worker took up because their owner was gone',
    registers: [registry],
  });
  const handOffs = new Counter({
    name: 'suitors_worker_hand_offs_total',
    help: 'Tables this worker handed to another (direction out: sharing them fairly, or stopping) or was handed (in)',
    labelNames: ['direction'] as const,
    registers: [registry],
  });
  const renewals = new Counter({
    name: 'suitors_worker_lease_renewals_total',
    help: "Renewals of this worker's life in the lease bucket, by outcome (ok, failed)",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  let heldTables: () => number = () => 0;
  new Gauge({
    name: 'suitors_worker_tables_held',
    help: 'Tables whose lease this worker holds (and serves)',
    registers: [registry],
    collect() {
      this.set(heldTables());
    },
  });
  for (const outcome of ['ok', 'conflict', 'failed']) appends.inc({ outcome }, 0);
  for (const outcome of ['ok', 'failed']) renewals.inc({ outcome }, 0);
  for (const direction of ['out', 'in']) handOffs.inc({ direction }, 0);
  return {
    registry,
    requestServed(op, answer, seconds) {
      requests.inc({ op, outcome: answer === 'forwarded' ? answer : answer.ok ? 'accepted' : answer.kind });
      requestLatency.observe({ op }, seconds);
    },
    ownMove: ({ source, outcome }) => ownMoves.inc({ source, outcome: outcome === 'accepted' ? outcome : outcome.refused }),
    tookOver: () => takeovers.inc(),
    handOff: (direction) => handOffs.inc({ direction }),
    leaseRenewal: (ok) => renewals.inc({ outcome: ok ? 'ok' : 'failed' }),
    measured(store) {
      return {
        ...bound(store),
        async append(tableId, events, expectedVersion, status) {
          const stop = appendLatency.startTimer();
          try {
            const version = await store.append(tableId, events, expectedVersion, status);
            appends.inc({ outcome: 'ok' });
            return version;
          } catch (error) {
            appends.inc({ outcome: isVersionConflict(error) ? 'conflict' : 'failed' });
            throw error;
          } finally {
            stop();
          }
        },
      };
    },
    countHeldTables(count) {
      heldTables = count;
    },
  };
}

/** The store's calls bound to it, so a measured copy can replace one of them. */
function bound(store: EventStore): EventStore {
  return {
    append: store.append.bind(store),
    read: store.read.bind(store),
    version: store.version.bind(store),
    listTables: store.listTables.bind(store),
    subscribe: store.subscribe.bind(store),
    saveSnapshot: store.saveSnapshot.bind(store),
    loadSnapshot: store.loadSnapshot.bind(store),
    retire: store.retire.bind(store),
    retired: store.retired.bind(store),
    close: store.close.bind(store),
  };
}

/** Serves GET /metrics (and nothing else: 404) on `port` of `host`; resolves once listening, to its close. */
export async function serveWorkerMetrics(metrics: WorkerMetrics, { port, host }: { port: number; host: string }): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('a worker serves only GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
