/**
 * Which worker holds a table, as a gateway reads it for the operator's page:
 * the table's claim in the table-owners bucket (worker/leaseBuckets.ts), one
 * key at a time, read-only (natsPermissions.ts). A claim names the worker
 * that took the table; whether that worker still lives is its life's, which
 * the page does not judge: a dead worker's tables are claimed anew within a
 * lease's time.
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { deploymentNames } from './deploymentNames.js';

/** Claims read at once: the page lists at most a few hundred tables. */
const READS_AT_ONCE = 16;

export type TableOwners = (tableIds: readonly string[]) => Promise<ReadonlyMap<string, string>>;

/** The owners of the tables asked for (those with no claim left out), from the deployment named by `settings`. */
export function tableOwnerReads(nc: NatsConnection, settings: { readonly streamName?: string } = {}): TableOwners {
  let bucket: Promise<KV> | undefined;
  const open = () => {
    bucket ??= new Kvm(nc).open(deploymentNames(settings).buckets.tableOwners, { allow_direct: false });
    // A failed open (no worker made the bucket yet) is tried again next time.
    bucket.catch(() => {
      bucket = undefined;
    });
    return bucket;
  };
  return async (tableIds) => {
    const kv = await open();
    const owners = new Map<string, string>();
    for (let start = 0; start < tableIds.length; start += READS_AT_ONCE) {
      await Promise.all(
        tableIds.slice(start, start + READS_AT_ONCE).map(async (tableId) => {
          const worker = workerOf(await kv.get(tableId));
          if (worker !== null) owners.set(tableId, worker);
        }),
      );
    }
    return owners;
  };
}

function workerOf(entry: Awaited<ReturnType<KV['get']>>): string | null {
  if (entry === null || entry.operation !== 'PUT') return null;
  try {
    const { worker } = entry.json<{ worker?: unknown }>() ?? {};
    return typeof worker === 'string' ? worker : null;
  } catch {
    return null;
  }
}
