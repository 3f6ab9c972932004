/**
 * What each table worker tells the operator's page of itself (its status):
 * its memory, event-loop lag, commands served per second and the tables it
 * holds, one record per worker in a KV bucket whose entries expire
 * (`<stream>-worker-status`). A worker puts its record every
 * STATUS_EVERY_MS (worker/workerStatus.ts) and deletes it as it stops; a
 * killed worker's record goes with the bucket's TTL, so the page shows a
 * worker at most STATUS_TTL_MS after it died, and says how long ago it was
 * last heard.
 *
 * Only workers may write the bucket; a gateway reads it by key, with the
 * stream's subject list for the keys (natsPermissions.ts), never a
 * consumer. A record no worker could have written is left out, not trusted.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { deploymentNames } from './deploymentNames.js';
import type { WorkerStatus } from './workerStatusRecord.js';

export type { WorkerStatus };

/** How often a worker puts its record. */
export const STATUS_EVERY_MS = 2_000;
/** How long a record outlives its last put: three puts missed. */
const STATUS_TTL_MS = 3 * STATUS_EVERY_MS;
/** The table ids a record lists (the count is of all); a page shows no more. */
export const TABLES_IN_STATUS = 100;
/** The workers a gateway reads at most for one page: more than any deployment here runs. */
const WORKERS_READ = 64;
/** Records read at once. */
const READS_AT_ONCE = 16;

/** The bucket, created with its TTL when missing (by a worker: a gateway may not create it). */
export async function openWorkerStatusBucket(
  nc: NatsConnection,
  { namespace, replicas = 1, create }: { namespace?: string; replicas?: number; create: boolean },
): Promise<KV> {
  const name = deploymentNames(namespace === undefined ? {} : { streamName: namespace }).buckets.workerStatus;
  const kvm = new Kvm(nc);
  // allow_direct off: a gateway reads by MSG.GET, as its permissions say (no direct gets on this bucket).
  if (create) return kvm.create(name, { ttl: STATUS_TTL_MS, history: 1, replicas, allow_direct: false });
  return kvm.open(name, { allow_direct: false });
}

export type WorkerStatuses = () => Promise<WorkerStatus[]>;

/** Every worker's latest record, by worker id, as a gateway reads them; none while no worker has made the bucket. */
export function workerStatusReads(nc: NatsConnection, settings: { readonly streamName?: string } = {}): WorkerStatuses {
  let bucket: Promise<KV> | undefined;
  const open = () => {
    bucket ??= openWorkerStatusBucket(nc, {
      ...(settings.streamName === undefined ? {} : { namespace: settings.streamName }),
      create: false,
    });
    bucket.catch(() => {
      bucket = undefined;
    });
    return bucket;
  };
  const name = deploymentNames(settings).buckets.workerStatus;
  return async () => {
    const kv = await open();
    const jsm = await jetstreamManager(nc);
    const subjectPrefix = `$KV.${name}.`;
    const info = await jsm.streams.info(`KV_${name}`, { subjects_filter: `${subjectPrefix}*` });
    const workers = Object.keys(info.state.subjects ?? {})
      .map((subject) => subject.slice(subjectPrefix.length))
      .sort()
      .slice(0, WORKERS_READ);
    const statuses: WorkerStatus[] = [];
    for (let start = 0; start < workers.length; start += READS_AT_ONCE) {
      const read = await Promise.all(
        workers.slice(start, start + READS_AT_ONCE).map(async (worker) => statusOf(worker, await kv.get(worker))),
      );
      for (const status of read) if (status !== null) statuses.push(status);
    }
    return statuses;
  };
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The record under `worker`'s key, or null: deleted, or not the shape a worker puts. */
function statusOf(worker: string, entry: KvEntry | null): WorkerStatus | null {
  if (entry === null || entry.operation !== 'PUT') return null;
  let record: Partial<Record<keyof WorkerStatus, unknown>>;
  try {
    record = entry.json() ?? {};
  } catch {
    return null;
  }
  const { at, rssBytes, heapUsedBytes, eventLoopLagMs, commandsPerSecond, tablesHeld, tables } = record;
  const rate = commandsPerSecond === null || (typeof commandsPerSecond === 'number' && commandsPerSecond >= 0);
  const listed = Array.isArray(tables) && tables.length <= TABLES_IN_STATUS && tables.every((id) => typeof id === 'string');
  if (record.worker !== worker || typeof at !== 'string' || Number.isNaN(Date.parse(at)) || !rate || !listed) return null;
  if (!isCount(rssBytes) || !isCount(heapUsedBytes) || !isCount(eventLoopLagMs) || !isCount(tablesHeld)) return null;
  return {
    worker,
    at,
    rssBytes,
    heapUsedBytes,
    eventLoopLagMs,
    commandsPerSecond: commandsPerSecond as number | null,
    tablesHeld,
    tables: tables as string[],
  };
}
