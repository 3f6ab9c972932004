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

/**
 * What a retired table keeps (retire): its game record, and what its log said of it last. Its log and snapshot
 * are gone, so it can no longer be replayed, forked or played on.
 */
export interface RetiredTable {
  readonly tableId: string;
  /** The version its log was at when it was retired. */
  readonly version: number;
  readonly lastEventAt: string;
  readonly status: TableStatus | null;
  /** ISO-8601 time it was retired. */
  readonly retiredAt: string;
  /** Its game record (docs/record-format.md), as given to `retire`. */
  readonly record: unknown;
}

/** What `retire` is given: the log's version it expects (as an append does), the record to keep, and the time. */
export interface Retirement {
  readonly expectedVersion: number;
  readonly record: unknown;
  readonly at: string;
}

/**
 * Refused: the table was retired, so its log is gone and nothing may be
 * appended to it (nor may it be retired again). Nothing was written.
 */
export class TableRetired extends Error {
  readonly kind = 'TableRetired' as const;
  constructor(readonly tableId: string) {
    super(`table ${tableId} was retired: its log is gone and it takes no more events`);
    this.name = 'TableRetired';
  }
}

export function isTableRetired(error: unknown): error is TableRetired {
  return error instanceof TableRetired || (error as { kind?: unknown } | null)?.kind === 'TableRetired';
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
  /**
   * Keeps `retirement.record` for the table and deletes its log and snapshot, all or nothing, only if the log is at
   * exactly `expectedVersion` (VersionConflict otherwise; a table without a log is at 0). Afterwards the table reads
   * as unknown (no events, version 0, no snapshot, not listed), `retired` answers its record, and an append to it,
   * or a second retirement, is refused with TableRetired.
   */
  retire(tableId: string, retirement: Retirement): Promise<void>;
  /** What a retired table keeps; null for a table that was not retired. */
  retired(tableId: string): Promise<RetiredTable | null>;
  loadSnapshot(tableId: string): Promise<StoredSnapshot | null>;
  close(): Promise<void>;
}
