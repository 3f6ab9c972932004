/**
 * The event store: one append-only log per table. Every adapter (memory,
 * SQLite, JetStream) implements this one interface and passes the same
 * contract tests (eventStore.contract.ts).
 */

/** An event as the log holds it: its 1-based position in the table's log, and when the host accepted it. */
export interface StoredEvent<T = unknown> {
  readonly seq: number;
  readonly type: string;
  /** ISO-8601 time the host accepted the event. */
  readonly at: string;
  readonly data: T;
}

export type NewEvent<T = unknown> = Omit<StoredEvent<T>, 'seq'>;

export interface TableSummary {
  readonly tableId: string;
  /** The seq of the table's last event; 0 for none. */
  readonly version: number;
  /** The `at` of the table's last event: how long a table has stood still, and when a finished game ended. */
  readonly lastEventAt: string;
  /** What the host last said about the table (e.g. its game and phase), for listing without replaying. */
  readonly status: TableStatus | null;
}

export interface TableStatus {
  readonly game: string;
  readonly phase: string;
  readonly [key: string]: unknown;
}

export interface StoredSnapshot {
  /** The seq of the last event folded into the snapshot. */
  readonly version: number;
  readonly snapshot: unknown;
}

/**
 * Refused append: the table's log is not at the version the writer
 * expected, so another writer moved it on. Nothing was written.
 */
export class VersionConflict extends Error {
  readonly kind = 'VersionConflict' as const;
  constructor(
    readonly tableId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number | null,
  ) {
    const actual = actualVersion === null ? 'a later version' : `version ${actualVersion}`;
    super(`table ${tableId} is at ${actual}, not at the expected version ${expectedVersion}`);
    this.name = 'VersionConflict';
  }
}

export function isVersionConflict(error: unknown): error is VersionConflict {
  return error instanceof VersionConflict || (error as { kind?: unknown } | null)?.kind === 'VersionConflict';
}

export type EventListener = (tableId: string, event: StoredEvent) => void;

export interface EventStore {
  /**
   * Appends `events` after exactly `expectedVersion` events (0 for a new
   * table), all or nothing, and resolves to the new version once the events
   * are durable. Rejects with VersionConflict when the log is elsewhere.
   */
  append(tableId: string, events: readonly NewEvent[], expectedVersion: number, status?: TableStatus): Promise<number>;
  /** The table's events with seq > afterVersion (all of them by default), in order; [] for an unknown table. */
  read(tableId: string, afterVersion?: number): Promise<StoredEvent[]>;
  /** The table's current version; 0 for an unknown table. */
  version(tableId: string): Promise<number>;
  listTables(): Promise<TableSummary[]>;
  /** Calls `listener` with every event appended from now on (through this store); returns an unsubscribe. */
  subscribe(listener: EventListener): () => void;
  saveSnapshot(tableId: string, snapshot: StoredSnapshot): Promise<void>;
  loadSnapshot(tableId: string): Promise<StoredSnapshot | null>;
  close(): Promise<void>;
}
