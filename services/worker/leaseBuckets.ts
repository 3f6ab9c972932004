/**
 * Where table ownership is kept (tableLeases.ts says how it is used): two
 * KV buckets named after the event stream, one for workers' lives, which
 * expire, and one for tables' claims, which do not; what a claim holds; and
 * the compare-and-set writes both are kept with.
 */
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { bucketNames, presenceSubject } from '../bus/deploymentNames.js';
import { isWrongLastSequence } from '../nats/natsErrors.js';

/** The buckets are named after the event stream (`TABLE_EVENTS-worker-leases`), so two deployments on one NATS stay apart. */
export const DEFAULT_LEASE_NAMESPACE = 'TABLE_EVENTS';
/**
 * Long enough that a worker keeps its life through a NATS leader election:
 * the lives bucket's took 5-8 s after its leader's node was killed, under
 * load, and at 10 s (trusted for 7) a worker now and then lost its life and
 * gave up every table. A dead worker's tables do not wait for it: its life
 * ends when nobody answers for it (otherLives.ts), within about a renewal.
 */
export const DEFAULT_LEASE_TTL_MS = 15_000;

export interface LeaseBuckets {
  /** Workers' lives: expire `ttlMs` after their last renewal. */
  readonly lives: KV;
  /** Tables' claims: never expire; they are worth what the life they name is worth. */
  readonly claims: KV;
  /** What the buckets are named after; the lives' presence subjects too. */
  readonly namespace: string;
}

/** Opens (creating if needed) both buckets. A lives bucket made earlier keeps its own TTL: see `leaseTtlOf`. */
export interface LeaseBucketSettings {
  /** How long a life outlives its last renewal (the lives bucket's max age). */
  readonly ttlMs: number;
  /** Replicas of each bucket when this call creates it (1 by default; 3 on a 3-node cluster). */
  readonly replicas?: number | undefined;
  /** Names the buckets (`<namespace>-worker-leases`, `<namespace>-table-owners`); DEFAULT_LEASE_NAMESPACE by default. */
  readonly namespace?: string | undefined;
}

export async function openLeaseBuckets(
  nc: NatsConnection,
  { ttlMs, replicas = 1, namespace = DEFAULT_LEASE_NAMESPACE }: LeaseBucketSettings,
): Promise<LeaseBuckets> {
  // A renewal that hangs through a leader election must give up well within the TTL, so the next one can be tried.
  const kvm = new Kvm(jetstream(nc, { timeout: Math.max(250, Math.min(2000, Math.floor(ttlMs / 4))) }));
  // allow_direct off: reads go to each bucket's leader, so a lagging replica never shows a live lease as gone.
  const names = bucketNames(namespace);
  const lives = await kvm.create(names.workerLives, { ttl: ttlMs, history: 1, replicas, allow_direct: false });
  const claims = await kvm.create(names.tableOwners, { history: 1, replicas, allow_direct: false });
  return { lives, claims, namespace };
}

/** The TTL the lives bucket really has: the one that expires leases. */
export async function leaseTtlOf(buckets: LeaseBuckets): Promise<number> {
  return (await buckets.lives.status()).ttl;
}

/**
 * How late a renewal may be before the life's worker is asked whether it is
 * still connected (otherLives.ts); so a worker whose connection came back
 * within this long of its last renewal knows nobody has asked (workerLife.ts).
 */
export const PRESENCE_GRACE_MS = 500;

/**
 * The subject a worker's life answers on (tableLeases.ts): named after the
 * buckets, so two deployments on one NATS stay apart. Worker ids are
 * subject tokens already (bus/subjects.ts).
 */
export function lifeSubject(buckets: LeaseBuckets, workerId: string): string {
  return presenceSubject(buckets.namespace, workerId);
}

/** A table's claim: the worker that holds the table, and in which of its lives. */
export interface Claim {
  readonly worker: string;
  readonly incarnation: string;
  /**
   * The worker that wrote this claim for the one it names, handing the table
   * over (rebalancing.ts); absent on a claim its holder took itself. Tells the
   * holder to take the table up at once: nobody else will tell it.
   */
  readonly handedBy?: string;
}

/**
 * The claim a bucket entry holds, or null when it holds none: deleted, or a
 * value no worker wrote (only workers may write claims, but nothing they
 * read should stop them). A table whose claim is no claim may be taken.
 */
export function claimOf(entry: KvEntry | null): Claim | null {
  if (entry === null || entry.operation !== 'PUT') return null;
  try {
    const { worker, incarnation, handedBy } = entry.json<Partial<Claim>>() ?? {};
    if (typeof worker !== 'string' || typeof incarnation !== 'string') return null;
    return typeof handedBy === 'string' ? { worker, incarnation, handedBy } : { worker, incarnation };
  } catch {
    return null;
  }
}

/** The write's revision, or 0 when another writer got there first. */
export async function orRaced(write: Promise<number>): Promise<number> {
  try {
    return await write;
  } catch (error) {
    if (isWrongLastSequence(error)) return 0;
    throw error;
  }
}
