/**
 * What the tests on a real 3-node NATS cluster share: the cluster (started
 * before the file's tests, stopped after them with every worker it started),
 * a connection and an event store of the test's own for reading logs, table
 * workers as child processes (of this release or of the next one,
 * test/nextRelease/), and gateways: RemoteTables on a connection of their
 * own, which a test may close at any moment as a gateway dies. Fails, not
 * skips, where nats-server is missing.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll } from 'vitest';
import { RemoteTables } from '../../services/bus/remoteTables.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { startWorkerProcess, type WorkerProcess } from '../../drivers/workerProcess.js';
import { NEXT_RELEASE_ARGS } from '../nextRelease/processes.js';
import { startGatewayProcess, type GatewayProcess } from '../../drivers/gatewayProcess.js';

export interface ClusterOptions {
  /** The workers' lease TTL; also the gateways' request timeout. */
  readonly leaseTtlMs: number;
  readonly botDelayMs: number;
  /** Workers are named `<workerPrefix>-<n>` unless a test names one. */
  readonly workerPrefix: string;
  /** Workers of this release started before the file's tests (none by default). */
  readonly workers?: number;
}

interface TestGateway {
  readonly tables: RemoteTables;
  close(): Promise<void>;
}

interface WorkerStart {
  readonly workerId?: string;
  /** `next`: a worker of the next release (test/nextRelease/), with rules 2 and event schema 3. */
  readonly release?: 'this' | 'next';
}

export interface TestCluster {
  readonly nats: LocalNats;
  /** The test's own connection and store, for reading logs as they are stored. */
  readonly nc: NatsConnection;
  readonly store: EventStore;
  /** Every worker started so far, in order, stopped or not. */
  readonly workers: readonly WorkerProcess[];
  startWorker(start?: WorkerStart): Promise<WorkerProcess>;
  openGateway(): Promise<TestGateway>;
  /** A gateway process (services/gateway/distributed.ts) of this release or the next, on a free port, stopped after the file's tests. */
  startGatewayProcess(release?: 'this' | 'next'): Promise<GatewayProcess>;
}

/** Registers the cluster's start and stop around the calling file's tests (call it at describe level). */
export function natsClusterForTests(options: ClusterOptions): TestCluster {
  const workers: WorkerProcess[] = [];
  const gateways: GatewayProcess[] = [];
  let named = 0;
  let started: { nats: LocalNats; nc: NatsConnection; store: EventStore } | undefined;
  const running = () => {
    if (started === undefined) throw new Error('the cluster is started in beforeAll: use it inside a test');
    return started;
  };

  const cluster: TestCluster = {
    get nats() {
      return running().nats;
    },
    get nc() {
      return running().nc;
    },
    get store() {
      return running().store;
    },
    workers,
    async startWorker(start = {}) {
      const worker = await startWorkerProcess({
        natsEnv: running().nats.env('worker'),
        workerId: start.workerId ?? `${options.workerPrefix}-${++named}`,
        replicas: 3,
        leaseTtlMs: options.leaseTtlMs,
        botDelayMs: options.botDelayMs,
        // The tests' turn clocks run out in seconds, under the service's shortest of 5.
        env: { SUITORS_MIN_TURN_SECONDS: '1' },
        ...(start.release === 'next' ? { nodeArgs: NEXT_RELEASE_ARGS } : {}),
      });
      workers.push(worker);
      return worker;
    },
    async openGateway() {
      const connection = await running().nats.connect('gateway');
      const gatewayStore = await openJetStreamEventStore({ connection, createMissing: false });
      const tables = new RemoteTables({ nc: connection, store: gatewayStore, requestTimeoutMs: options.leaseTtlMs, retryForMs: 20_000 });
      return {
        tables,
        async close() {
          await tables.close();
          await gatewayStore.close();
          await connection.close();
        },
      };
    },
    async startGatewayProcess(release = 'this') {
      // NODE_OPTIONS, as the driver starts the gateway with node's flags of its own. The load shedding of a gateway
      // on this shared test machine would refuse the test's few requests while the workers' start holds the cores.
      const env = {
        SUITORS_SHED_LAG_MS: '10000',
        ...(release === 'next' ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${NEXT_RELEASE_ARGS.join(' ')}`.trim() } : {}),
      };
      const gateway = await startGatewayProcess({ nats: { env: running().nats.env('gateway'), replicas: 3 } }, { env });
      gateways.push(gateway);
      return gateway;
    },
  };

  beforeAll(async () => {
    const nats = await startLocalNats(3);
    // The tests' own look at the cluster is the operator's (admin): they read logs and, to simulate a bug, write them.
    const nc = await nats.connect('admin');
    started = { nats, nc, store: await openJetStreamEventStore({ connection: nc, replicas: 3 }) };
    await Promise.all(Array.from({ length: options.workers ?? 0 }, () => cluster.startWorker()));
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([...workers.map((worker) => worker.kill()), ...gateways.map((gateway) => gateway.stop(5000))]);
    await started?.store.close();
    await started?.nc.close();
    await started?.nats.stop();
  });

  return cluster;
}
