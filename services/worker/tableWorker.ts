/**
 * A table worker: serves, over NATS, the commands of the tables it owns
 * (services/worker/README.md), with a TableHost inside. Every worker listens
 * to `tables.*.cmd` in one queue group, so an undirected command reaches one
 * of them, and to `tables.*.cmd.<its id>` for commands addressed to it. A
 * worker that gets a command for a table nobody owns claims the table and
 * serves it; one owned by another worker it forwards there, once. The
 * accepted events are the log's (JetStream: messages on `tables.<id>.events`),
 * which gateways follow; the reply carries them too.
 *
 * The owner of a table also plays its bots and runs its turn clock (the
 * host's autopilot), and only while it holds the table's lease. Every
 * worker looks out for tables whose owner's life is gone and takes up those
 * with a bot move or a timeout to come, so a table never waits for a
 * command to find a new owner.
 *
 * Workers share the live tables fairly (rebalancing.ts): one that joins is
 * handed its share between moves, and one that stops hands its tables on,
 * spread over the others.
 *
 * A worker that keeps its leases in the buckets puts its status there too
 * (workerStatus.ts): its figures and tables, for the operator's page.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from '@nats-io/nats-core';
import type { Tracer } from '@opentelemetry/api';
import { isVersionConflict, type EventStore } from '../eventstore/eventStore.js';
import { TableHost } from '../host/tableHost.js';
import { DEFAULT_BOT_DELAY_MS } from '../host/autopilot.js';
import { isRoutableTableId, tableSubjects } from '../bus/subjects.js';
import { serveCommands } from './commandServing.js';
import { DEFAULT_LEASE_TTL_MS } from './leaseBuckets.js';
import { keepLeases, releaseIdleTables } from './leaseKeeping.js';
import { adoptOrphans } from './orphanAdoption.js';
import { DEFAULT_REBALANCE_PER_SECOND, handOverAll, rebalanceTables, takeUpHandedTables } from './rebalancing.js';
import { DEFAULT_WORKER_LIMITS, type WorkerRequestLimits } from './requestChecks.js';
import type { SharedOwnership, TableOwnership } from './tableOwnership.js';
import type { WorkerMetrics } from './workerMetrics.js';
import { dropTable, messageOf, type WorkerTables } from './workerTables.js';
import { NO_TRACING } from '../tracing/tracing.js';
import { publishWorkerStatus } from './workerStatus.js';

export interface TableWorkerOptions {
  readonly nc: NatsConnection;
  /** The shared event log (JetStream in production); the worker appends with expected versions. */
  readonly store: EventStore;
  /** A subject token unique among running workers; made from the host name, pid and a random suffix by default. */
  readonly workerId?: string;
  /** How long a worker's lease outlives its last renewal: the longest a crashed worker's tables wait for a new owner. */
  readonly leaseTtlMs?: number;
  readonly renewEveryMs?: number;
  /** Replicas of the lease buckets when this worker creates them (3 on a 3-node cluster). */
  readonly leaseReplicas?: number;
  /** A table with no command for this long is passivated and its claim given up. */
  readonly idleReleaseMs?: number;
  /** A snapshot is written after this many events since the last (WORKER_SNAPSHOT_EVERY by default). */
  readonly snapshotEvery?: number;
  /** How long to wait for the owner when forwarding a command to it. */
  readonly forwardTimeoutMs?: number;
  /** Wait before each bot move, in ms (SUITORS_BOT_DELAY_MS; 600 by default, 0 in tests). */
  readonly botDelayMs?: number;
  /** How often to look for tables whose owner is gone; a quarter of the lease TTL (at most 500 ms) by default. */
  readonly orphanSweepMs?: number;
  /**
   * How many tables a second at most this worker hands to workers holding
   * fewer than their share (WORKER_REBALANCE_PER_SECOND; 50 by default, 0:
   * never). A stopping worker hands all its tables on whatever it is.
   */
  readonly rebalancePerSecond?: number;
  readonly log?: (line: string) => void;
  /** The deployment's subject prefix (NATS_PREFIX), the gateways' too. */
  readonly prefix?: string;
  /** Names the lease buckets (`<namespace>-worker-leases`, `<namespace>-table-owners`): the event stream's name. */
  readonly leaseNamespace?: string;
  /**
   * Who owns which table: the KV leases by default. The fault tests put a
   * worker here that is told every table is its own, to show the log's
   * expected version still lets only one of two such workers append.
   */
  readonly ownership?: (onLost: (tableId: string, why: string) => void) => Promise<TableOwnership>;
  /** What a new table may ask for (requestChecks.ts): the gateway's own limits, held again here. */
  readonly limits?: WorkerRequestLimits;
  /** Counted for the worker's /metrics (workerMetrics.ts); none: nothing is counted. */
  readonly metrics?: WorkerMetrics;
  /** Makes the spans of the requests it serves (services/tracing); none: the no-op tracer. */
  readonly tracer?: Tracer;
}

export interface TableWorker {
  readonly workerId: string;
  /** The tables this worker owns (and may serve) now. */
  ownedTables(): string[];
  /** Stops taking commands, finishes those under way, gives up every lease (so others take over at once) and closes the host. */
  stop(): Promise<void>;
}

export const DEFAULT_IDLE_RELEASE_MS = 5 * 60_000;
const DEFAULT_FORWARD_TIMEOUT_MS = 4000;
/**
 * Snapshots four times as often as the embedded host: taking a dead
 * worker's tables up reads each one's events after its snapshot, a
 * JetStream request per append, and at 25 a take-up costs the worker about
 * 3 ms of CPU where at 100 it cost 7 (bench/takeover.ts). The price is a
 * 6 KB KV write per ~20 appends, which no answer waits for.
 */
const WORKER_SNAPSHOT_EVERY = 25;

function newWorkerId(): string {
  const host = hostname()
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .slice(0, 30);
  return `w-${host}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

export async function startTableWorker(options: TableWorkerOptions): Promise<TableWorker> {
  const { nc, store } = options;
  const workerId = options.workerId ?? newWorkerId();
  if (!isRoutableTableId(workerId)) throw new RangeError(`worker id ${JSON.stringify(workerId)} must be letters, digits, - and _`);
  const log = options.log ?? (() => undefined);
  const lastUsed = new Map<string, number>();
  const toTakeUp = new Set<string>();
  let stopping = false;
  // The host asks for the leases only once it moves a table, after they are kept.
  let leases: TableOwnership | undefined;
  const host = workerHost(options, workerId, log, {
    holds: (tableId) => leases?.holds(tableId) ?? false,
    verify: (tableId) => void leases?.verify(tableId),
    toTakeUp,
  });
  const onLost = (tableId: string, why: string): void => {
    log(`${workerId} stops serving ${tableId}: ${why}`);
    dropTable({ workerId, host, lastUsed, log }, tableId);
  };
  const kept = await ownershipOf(options, workerId, onLost, log);
  leases = kept.leases;
  const { sharing } = kept;
  const { leaseTtlMs } = kept;
  const { metrics } = options;
  const tables: WorkerTables = { workerId, host, store, leases, leaseTtlMs, log, lastUsed, toTakeUp, metrics, isStopping: () => stopping };

  const subjects = tableSubjects(options.prefix);
  const server = await serveCommands({
    tables,
    nc,
    subjects,
    limits: options.limits ?? DEFAULT_WORKER_LIMITS,
    forwarding: { nc, subjects, workerId, timeoutMs: options.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS, leaseTtlMs },
    tracer: options.tracer ?? NO_TRACING.tracer,
  });
  const stopReleasing = releaseIdleTables(tables, options.idleReleaseMs ?? DEFAULT_IDLE_RELEASE_MS);
  if (sharing !== null) takeUpHandedTables(tables, sharing);
  const rebalancing =
    sharing === null ? null : rebalanceTables(tables, sharing, options.rebalancePerSecond ?? DEFAULT_REBALANCE_PER_SECOND);
  const adoption = adoptOrphans(tables, options.orphanSweepMs ?? Math.max(100, Math.min(500, Math.floor(leaseTtlMs / 4))));
  log(`${workerId} serving tables (lease TTL ${leaseTtlMs} ms)`);
  const ownedTables = () => tables.leases.heldTables().filter((tableId) => tables.leases.holds(tableId));
  metrics?.countHeldTables(() => ownedTables().length);
  const status =
    options.ownership === undefined
      ? await publishWorkerStatus({
          nc,
          workerId,
          ownedTables,
          ...(metrics === undefined ? {} : { metrics }),
          ...(options.leaseNamespace === undefined ? {} : { namespace: options.leaseNamespace }),
          replicas: options.leaseReplicas ?? 1,
          log,
        })
      : null;
  return {
    workerId,
    ownedTables,
    async stop() {
      stopping = true;
      await status?.stop();
      stopReleasing();
      await rebalancing?.stop();
      await adoption.stop();
      await server.finish();
      // Before the life ends: handed on, the tables are spread over the others, not left to whichever sweeps first.
      if (sharing !== null) await handOverAll(tables, sharing);
      await host.close();
      await tables.leases.stop({ endLife: true });
      log(`${workerId} stopped`);
    },
  };
}

/** The worker's leases, kept in the KV buckets, or the ownership the options give (shared with nobody). */
async function ownershipOf(
  options: TableWorkerOptions,
  workerId: string,
  onLost: (tableId: string, why: string) => void,
  log: (line: string) => void,
): Promise<{ leases: TableOwnership; leaseTtlMs: number; sharing: SharedOwnership | null }> {
  const wantedTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  if (options.ownership !== undefined) return { leases: await options.ownership(onLost), leaseTtlMs: wantedTtlMs, sharing: null };
  const kept = await keepLeases({
    nc: options.nc,
    workerId,
    wantedTtlMs,
    renewEveryMs: options.renewEveryMs,
    replicas: options.leaseReplicas ?? 1,
    namespace: options.leaseNamespace,
    onLost,
    log,
    onRenewal: options.metrics?.leaseRenewal,
  });
  return { ...kept, sharing: kept.leases };
}

/** What the host asks of the worker's leases while its tables move by themselves. */
interface MoveFencing {
  holds(tableId: string): boolean;
  verify(tableId: string): void;
  readonly toTakeUp: Set<string>;
}

/** The TableHost inside the worker: it plays a table's bots and runs its clock only while the worker holds the table. */
function workerHost(options: TableWorkerOptions, workerId: string, log: (line: string) => void, fencing: MoveFencing): TableHost {
  const host = new TableHost({
    store: options.store,
    snapshotEvery: options.snapshotEvery ?? WORKER_SNAPSHOT_EVERY,
    ...(options.tracer === undefined ? {} : { tracer: options.tracer }),
    onQuarantined: (verdict) => log(`${workerId}: ${verdict.message}`),
    autopilot: {
      botDelayMs: options.botDelayMs ?? DEFAULT_BOT_DELAY_MS,
      // Fenced twice: the lease says who may move, and the log's expected version refuses a deposed owner's move.
      mayAct: (tableId) => fencing.holds(tableId),
      // The next sweep takes the table up again if this worker still holds it, or takes it if nobody does.
      onMoveLost: (tableId) => fencing.toTakeUp.add(tableId),
      onError: (error, tableId) => {
        if (isVersionConflict(error)) fencing.verify(tableId);
        else log(`${workerId}: table ${tableId} could not move by itself: ${messageOf(error)}`);
      },
    },
  });
  // A refused move of the table's own is worth a line: the chaos run counts them (a second owner's move, a bot's bug).
  if (options.metrics !== undefined) host.onOwnMove(options.metrics.ownMove);
  host.onOwnMove(({ tableId, source, outcome }) => {
    if (outcome !== 'accepted') log(`${workerId}: ${source} move at ${tableId} refused (${outcome.refused})`);
  });
  return host;
}
