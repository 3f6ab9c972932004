/**
 * A worker's status for the operator's page (bus/workerStatus.ts says what
 * it holds and who reads it): put every STATUS_EVERY_MS while the worker
 * runs, deleted as it stops. A put that fails is told once and tried again
 * at the next beat: the page shows the worker late, the tables never wait
 * on it.
 */
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { counterRate } from '../bus/counterRate.js';
import { openWorkerStatusBucket, STATUS_EVERY_MS, TABLES_IN_STATUS, type WorkerStatus } from '../bus/workerStatus.js';
import { EventLoopLag } from '../eventLoopLag.js';
import type { WorkerMetrics } from './workerMetrics.js';

export interface WorkerStatusOptions {
  readonly nc: NatsConnection;
  readonly workerId: string;
  /** The tables the worker holds now. */
  readonly ownedTables: () => readonly string[];
  /** Its requests served and its tables' own moves are counted here (the commands per second); none: not measured. */
  readonly metrics?: WorkerMetrics;
  /** The deployment's stream name, which names the bucket. */
  readonly namespace?: string;
  readonly replicas?: number;
  readonly log: (line: string) => void;
  readonly everyMs?: number;
}

export async function publishWorkerStatus(options: WorkerStatusOptions): Promise<{ stop(): Promise<void> }> {
  const { workerId, metrics, log } = options;
  const kv = await openWorkerStatusBucket(options.nc, {
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    replicas: options.replicas ?? 1,
    create: true,
  });
  const lag = new EventLoopLag(1000);
  const rate = metrics === undefined ? null : counterRate(async () => commandsTaken(metrics), { windowMs: 0, now: Date.now });
  const statusNow = async (): Promise<WorkerStatus> => {
    const held = [...options.ownedTables()].sort();
    const memory = process.memoryUsage();
    return {
      worker: workerId,
      at: new Date().toISOString(),
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      eventLoopLagMs: lag.currentMs,
      commandsPerSecond: rate === null ? null : await rate(),
      tablesHeld: held.length,
      tables: held.slice(0, TABLES_IN_STATUS),
    };
  };
  let failing = false;
  const beat = async (bucket: KV) => {
    try {
      await bucket.put(workerId, JSON.stringify(await statusNow()));
      failing = false;
    } catch (error) {
      if (!failing) log(`${workerId} could not put its status for the operator's page: ${(error as Error).message}`);
      failing = true;
    }
  };
  let beating = beat(kv);
  const timer = setInterval(() => {
    beating = beating.then(() => beat(kv));
  }, options.everyMs ?? STATUS_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      lag.stop();
      await beating;
      // Gone from the page at once, rather than after the bucket's TTL.
      await kv.delete(workerId).catch(() => undefined);
    },
  };
}

/** Commands this worker took: requests served, and the moves its tables made by themselves (bots, turn clocks). */
async function commandsTaken(metrics: WorkerMetrics): Promise<number> {
  let total = 0;
  for (const name of ['suitors_worker_requests_total', 'suitors_worker_own_moves_total']) {
    const counted = await metrics.registry.getSingleMetric(name)?.get();
    total += (counted?.values ?? []).reduce((sum, { value }) => sum + value, 0);
  }
  return total;
}
