/**
 * What the parts of a table worker share (tableWorker.ts wires them): its
 * host, its claims, and what it knows of the tables it serves.
 */
import type { EventStore } from '../eventstore/eventStore.js';
import type { TableHost } from '../host/tableHost.js';
import type { TableOwnership } from './tableOwnership.js';
import type { WorkerMetrics } from './workerMetrics.js';

export interface WorkerTables {
  readonly workerId: string;
  readonly host: TableHost;
  /** The shared event log the host appends to. */
  readonly store: EventStore;
  readonly leases: TableOwnership;
  /** How long a claim outlives the worker's last renewal, as the lease bucket keeps it. */
  readonly leaseTtlMs: number;
  readonly log: (line: string) => void;
  /** When each table this worker serves last had a command: what the idle release goes by. */
  readonly lastUsed: Map<string, number>;
  /**
   * Tables the next sweep must take up though no dead life names them: new
   * tables this worker could not claim (NATS trouble), and tables whose owed
   * move was lost (nothing is armed for them any more).
   */
  readonly toTakeUp: Set<string>;
  /** What the worker counts for its /metrics, when it serves them. */
  readonly metrics?: WorkerMetrics;
  /** Whether the worker has begun to stop: it serves no more commands and adopts no more tables. */
  isStopping(): boolean;
}

/** Forgets the table's actor (it may be stale now) and stops its bots and clock; the next owner rebuilds it from the log. */
export function dropTable(tables: Pick<WorkerTables, 'workerId' | 'host' | 'lastUsed' | 'log'>, tableId: string): void {
  tables.lastUsed.delete(tableId);
  tables.host
    .letGo(tableId)
    .catch((error: unknown) => tables.log(`${tables.workerId} could not passivate ${tableId}: ${(error as Error).message}`));
}

/** Passivates the table and gives its claim up, so another worker may take it at once. */
export async function giveBack(tables: WorkerTables, tableId: string): Promise<void> {
  await tables.host.letGo(tableId).catch(() => undefined);
  await tables.leases.release(tableId);
}

export function messageOf(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}
