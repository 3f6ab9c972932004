/**
 * A worker's claims over its life: the lease buckets opened (waiting for a
 * cluster still electing its leaders), the lease TTL the bucket really has,
 * and idle tables given back so their claims do not outlive their use.
 */
import type { NatsConnection } from '@nats-io/nats-core';
import { leaseTtlOf, openLeaseBuckets, type LeaseBucketSettings, type LeaseBuckets } from './leaseBuckets.js';
import { TableLeases } from './tableLeases.js';
import { giveBack, type WorkerTables } from './workerTables.js';

export interface LeaseKeeping {
  readonly nc: NatsConnection;
  readonly workerId: string;
  /** The TTL asked for; a bucket made earlier with another keeps its own. */
  readonly wantedTtlMs: number;
  readonly renewEveryMs?: number;
  readonly replicas: number;
  readonly namespace?: string;
  /** Told when a table's claim is lost (another worker changed it, or this worker's life ended). */
  readonly onLost: (tableId: string, why: string) => void;
  readonly log: (line: string) => void;
  readonly onRenewal?: (ok: boolean) => void;
}

/** Begins the worker's life in the lease buckets and keeps its claims in it. */
export async function keepLeases(keeping: LeaseKeeping): Promise<{ leases: TableLeases; leaseTtlMs: number }> {
  const { nc, workerId, wantedTtlMs, log } = keeping;
  const buckets = await openLeaseBucketsPatiently(nc, { ttlMs: wantedTtlMs, replicas: keeping.replicas, namespace: keeping.namespace });
  // The lives bucket's max age is what expires leases; a bucket made earlier with another TTL keeps its own.
  const leaseTtlMs = (await leaseTtlOf(buckets)) || wantedTtlMs;
  if (leaseTtlMs !== wantedTtlMs)
    log(`${workerId}: the lease bucket expires leases after ${leaseTtlMs} ms, not ${wantedTtlMs}; using that`);
  const leases = await TableLeases.start({
    buckets,
    workerId,
    ttlMs: leaseTtlMs,
    ...(keeping.renewEveryMs === undefined ? {} : { renewEveryMs: keeping.renewEveryMs }),
    onLost: keeping.onLost,
    log,
    presence: nc,
    onRenewal: keeping.onRenewal,
  });
  return { leases, leaseTtlMs };
}

/** Opens the lease buckets, waiting (up to 30 s) for a cluster that is still electing its JetStream leaders. */
async function openLeaseBucketsPatiently(nc: NatsConnection, settings: LeaseBucketSettings): Promise<LeaseBuckets> {
  const giveUpAt = Date.now() + 30_000;
  for (;;) {
    try {
      return await openLeaseBuckets(nc, settings);
    } catch (error) {
      if (Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * Every so often gives back the tables with no command for `idleReleaseMs`
 * (passivated, their claims deleted); returns what stops it.
 */
export function releaseIdleTables(tables: WorkerTables, idleReleaseMs: number): () => void {
  const timer = setInterval(
    () => {
      const cutoff = Date.now() - idleReleaseMs;
      for (const [tableId, used] of tables.lastUsed) {
        // A table with a bot move or timeout to come is not idle: letting it go would leave it to nobody.
        if (used > cutoff || tables.host.hasMovesToCome(tableId)) continue;
        tables.lastUsed.delete(tableId);
        void giveBack(tables, tableId);
      }
    },
    Math.min(idleReleaseMs, 60_000),
  );
  timer.unref();
  return () => clearInterval(timer);
}
