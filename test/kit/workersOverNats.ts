/**
 * Table workers in this process on one real nats-server (secured as
 * production), for the tests of the worker's parts: the server starts
 * before the file's tests and stops after them; each test's workers and
 * gateway tables are stopped after it, whatever it left running.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startLocalNats, type LocalNats } from '../../drivers/localNats.js';
import { RemoteTables } from '../../services/bus/remoteTables.js';
import type { EventStore } from '../../services/eventstore/eventStore.js';
import type { NatsRole } from '../../services/nats/security/roles.js';
import { startTableWorker, type TableWorker, type TableWorkerOptions } from '../../services/worker/tableWorker.js';

export interface WorkersOverNats {
  readonly nats: LocalNats;
  /** A connection of its own as `role`, closed after the file's tests. */
  connection(role: NatsRole): Promise<NatsConnection>;
  /** The workers this test started, in order; stopping one twice stops it once. */
  readonly workers: readonly TableWorker[];
  /** A worker on a connection of its own, stopped after the test. */
  startWorker(options: Omit<TableWorkerOptions, 'nc'>): Promise<TableWorker>;
  /** The gateway's side over `store`: RemoteTables on a gateway connection of their own, closed after the test. */
  openTables(store: EventStore): Promise<{ readonly tables: RemoteTables; readonly nc: NatsConnection }>;
}

/** Registers the server's start and stop around the calling file's tests, and the workers' stop after each (call it in a describe). */
export function workersOverNatsForTests(): WorkersOverNats {
  let nats: LocalNats | undefined;
  const connections: NatsConnection[] = [];
  const workers: TableWorker[] = [];
  const tables: RemoteTables[] = [];
  const running = () => {
    if (nats === undefined) throw new Error('the server is started in beforeAll: use it inside a test');
    return nats;
  };
  const connection = async (role: NatsRole) => {
    const nc = await running().connect(role);
    connections.push(nc);
    return nc;
  };

  beforeAll(async () => {
    nats = await startLocalNats(1);
  });
  afterEach(async () => {
    await Promise.allSettled(tables.splice(0).map((remote) => remote.close()));
    await Promise.allSettled(workers.splice(0).map((worker) => worker.stop()));
  });
  afterAll(async () => {
    await Promise.allSettled(connections.map((nc) => nc.close()));
    await nats?.stop();
  });

  return {
    get nats() {
      return running();
    },
    connection,
    workers,
    async startWorker(options) {
      const worker = await startTableWorker({ ...options, nc: await connection('worker') });
      // A test may stop a worker itself, as a worker ends: the stop after the test must not stop it again.
      let stopped: Promise<void> | undefined;
      const once: TableWorker = { ...worker, stop: () => (stopped ??= worker.stop()) };
      workers.push(once);
      return once;
    },
    async openTables(store) {
      const nc = await connection('gateway');
      const remote = new RemoteTables({ nc, store, requestTimeoutMs: 3000, retryForMs: 5000 });
      tables.push(remote);
      return { tables: remote, nc };
    },
  };
}
