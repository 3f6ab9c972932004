/**
 * Snapshots: one KV value per table (`{"version","snapshot"}`, history 1),
 * the newest kept. A save is compare-and-set on the key's revision, so a
 * stale writer never replaces a newer snapshot.
 */
import type { KV } from '@nats-io/kv';
import type { TableQueues } from '../../tableQueues/tableQueues.js';
import type { StoredSnapshot } from '../eventStore.js';
import { checkSnapshot, toJson } from '../storeChecks.js';
import type { TableHeads } from './heads.js';
import { tableToken, type JetStreamLayout } from './layout.js';
import type { ServerRequests } from './serverRequests.js';
import { isWrongLastSequence } from '../../nats/natsErrors.js';
import { checkFitsInMessage } from './wireFormat.js';

/** Compare-and-set attempts before a save gives up on a key other writers keep changing. */
const SAVE_ATTEMPTS = 10;

export class TableSnapshots {
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly bucket: KV,
    private readonly layout: JetStreamLayout,
    private readonly server: ServerRequests,
    private readonly heads: TableHeads,
    private readonly queues: TableQueues,
    private readonly maxPayload: number,
  ) {}

  /** Checks and encodes the snapshot now (throwing what is wrong with it), then saves it after the table's queued appends. */
  save(tableId: string, snapshot: StoredSnapshot): Promise<void> {
    checkSnapshot(tableId, snapshot, Number.MAX_SAFE_INTEGER);
    const snapshotJson = toJson(snapshot.snapshot, `snapshot of table ${tableId}`);
    const value = this.encoder.encode(`{"version":${snapshot.version},"snapshot":${snapshotJson}}`);
    checkFitsInMessage(value, this.maxPayload, `snapshot of table ${tableId}`, 'the JetStream store keeps snapshots up to');
    // Queued, so it is checked against the log the caller's earlier appends made.
    return this.queues.run(tableId, () => this.put(tableId, snapshot, value));
  }

  async load(tableId: string): Promise<StoredSnapshot | null> {
    const entry = await this.server.persist(() => this.bucket.get(tableToken(tableId)));
    if (entry === null || entry.operation !== 'PUT') return null;
    // Only workers write snapshots; one that is not one (nothing should write it) is no snapshot: the log is read.
    try {
      const { version, snapshot } = entry.json<{ version: unknown; snapshot: unknown }>() ?? {};
      return Number.isSafeInteger(version) && (version as number) > 0 ? { version: version as number, snapshot } : null;
    } catch {
      return null;
    }
  }

  private async put(tableId: string, snapshot: StoredSnapshot, value: Uint8Array): Promise<void> {
    const { version } = snapshot;
    const known = this.heads.known(tableId);
    const current = known !== undefined && known.version >= version ? known : (await this.heads.lookup(tableId)).head;
    checkSnapshot(tableId, snapshot, current.version);
    const key = tableToken(tableId);
    for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
      const entry = await this.server.persist(() => this.bucket.get(key));
      const live = entry !== null && entry.operation === 'PUT';
      // A snapshot older than the one kept is a stale writer's; the newer cache entry stays. After a
      // conflict, one at our version is ours (a retried put that was stored) or as good as ours.
      const kept = live ? entry.json<{ version: number }>().version : -1;
      if (kept > version || (attempt > 0 && kept === version)) return;
      try {
        await this.server.putIfAt(this.layout.snapshotsBucket, key, value, entry?.revision ?? 0);
        return;
      } catch (error) {
        if (!isWrongLastSequence(error)) throw error;
      }
    }
    throw new Error(`the snapshot of table ${tableId} kept changing under this writer`);
  }
}
