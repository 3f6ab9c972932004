/**
 * The event store in memory, for tests and throwaway tables. It keeps what
 * the durable stores keep, JSON text, so data that would not survive SQLite
 * or JetStream fails here too, and no caller can change the log by mutating
 * what it appended or read.
 */
import {
  TableRetired,
  VersionConflict,
  type EventStore,
  type NewEvent,
  type RetiredTable,
  type Retirement,
  type StoredEvent,
  type StoredSnapshot,
  type TableStatus,
  type TableSummary,
} from './eventStore.js';
import { checkAppend, checkRetirement, checkSnapshot, checkTableId, toJson } from './storeChecks.js';
import { createSubscribers, heardEvent, type ListenerErrorHandler } from './subscribers.js';

export interface MemoryEventStoreOptions {
  /** Called when a subscriber throws; the default writes to stderr. */
  readonly onListenerError?: ListenerErrorHandler;
}

interface KeptEvent {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly dataJson: string;
}

interface TableLog {
  readonly events: KeptEvent[];
  statusJson: string | null;
}

export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const logs = new Map<string, TableLog>();
  const snapshots = new Map<string, { readonly version: number; readonly snapshotJson: string }>();
  const retired = new RetiredTables();
  const subscribers = createSubscribers(options.onListenerError);
  let closed = false;

  function checkOpen(): void {
    if (closed) throw new Error('the memory event store is closed');
  }

  function versionOf(tableId: string): number {
    return logs.get(tableId)?.events.length ?? 0;
  }

  return {
    // Everything before the first await runs at once, so appends take effect in the order they were called.
    async append(tableId: string, events: readonly NewEvent[], expectedVersion: number, status?: TableStatus) {
      checkOpen();
      checkAppend(tableId, events, expectedVersion);
      if (retired.has(tableId)) throw new TableRetired(tableId);
      const actualVersion = versionOf(tableId);
      if (actualVersion !== expectedVersion) throw new VersionConflict(tableId, expectedVersion, actualVersion);
      const kept = keptEvents(tableId, events, expectedVersion);
      const statusJson = status === undefined ? undefined : toJson(status, `status of table ${tableId}`);
      const log = logs.get(tableId) ?? { events: [], statusJson: null };
      log.events.push(...kept);
      if (statusJson !== undefined) log.statusJson = statusJson;
      logs.set(tableId, log);
      if (subscribers.size > 0)
        for (const event of kept) subscribers.publish(tableId, heardEvent(event.seq, event.type, event.at, event.dataJson));
      return versionOf(tableId);
    },

    async read(tableId: string, afterVersion = 0) {
      checkOpen();
      checkTableId(tableId);
      return (logs.get(tableId)?.events ?? []).filter((event) => event.seq > afterVersion).map(storedEvent);
    },

    async version(tableId: string) {
      checkOpen();
      checkTableId(tableId);
      return versionOf(tableId);
    },

    async listTables() {
      checkOpen();
      return [...logs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([tableId, log]) => summaryOf(tableId, log));
    },

    subscribe(listener) {
      return subscribers.add(listener);
    },

    async saveSnapshot(tableId: string, snapshot: StoredSnapshot) {
      checkOpen();
      checkSnapshot(tableId, snapshot, versionOf(tableId));
      const snapshotJson = toJson(snapshot.snapshot, `snapshot of table ${tableId}`);
      const kept = snapshots.get(tableId);
      // A snapshot older than the one kept is a stale writer's; the newer cache entry stays.
      if (kept === undefined || snapshot.version >= kept.version) {
        snapshots.set(tableId, { version: snapshot.version, snapshotJson });
      }
    },

    async loadSnapshot(tableId: string) {
      checkOpen();
      checkTableId(tableId);
      const kept = snapshots.get(tableId);
      return kept === undefined ? null : { version: kept.version, snapshot: JSON.parse(kept.snapshotJson) as unknown };
    },

    async retire(tableId, retirement) {
      checkOpen();
      retired.keep(tableId, retirement, logs.get(tableId));
      logs.delete(tableId);
      snapshots.delete(tableId);
    },

    async retired(tableId) {
      checkOpen();
      return retired.of(tableId);
    },

    async close() {
      closed = true;
    },
  };
}

/** What retired tables keep, their records as JSON text like the rest. */
class RetiredTables {
  private readonly kept = new Map<string, Omit<RetiredTable, 'record'> & { readonly recordJson: string }>();

  has(tableId: string): boolean {
    return this.kept.has(tableId);
  }

  /** Keeps the record of the table whose log is `log`, or refuses (TableRetired, VersionConflict) keeping nothing. */
  keep(tableId: string, retirement: Retirement, log: TableLog | undefined): void {
    const recordJson = checkRetirement(tableId, retirement);
    if (this.kept.has(tableId)) throw new TableRetired(tableId);
    const version = log?.events.length ?? 0;
    if (log === undefined || version !== retirement.expectedVersion)
      throw new VersionConflict(tableId, retirement.expectedVersion, version);
    const status = log.statusJson === null ? null : (JSON.parse(log.statusJson) as TableStatus);
    this.kept.set(tableId, { tableId, version, lastEventAt: log.events[version - 1].at, status, retiredAt: retirement.at, recordJson });
  }

  of(tableId: string): RetiredTable | null {
    checkTableId(tableId);
    const kept = this.kept.get(tableId);
    if (kept === undefined) return null;
    const { recordJson, ...table } = kept;
    return { ...table, record: JSON.parse(recordJson) as unknown };
  }
}

/** `events` as kept, JSON text, numbered on from `expectedVersion`. */
function keptEvents(tableId: string, events: readonly NewEvent[], expectedVersion: number): KeptEvent[] {
  return events.map((event, index) => ({
    seq: expectedVersion + index + 1,
    type: event.type,
    at: event.at,
    dataJson: toJson(event.data, `data of event ${index + 1} (${event.type}) for table ${tableId}`),
  }));
}

function summaryOf(tableId: string, log: TableLog): TableSummary {
  return {
    tableId,
    version: log.events.length,
    lastEventAt: log.events[log.events.length - 1].at,
    status: log.statusJson === null ? null : (JSON.parse(log.statusJson) as TableStatus),
  };
}

function storedEvent(event: KeptEvent): StoredEvent {
  return { seq: event.seq, type: event.type, at: event.at, data: JSON.parse(event.dataJson) as unknown };
}
