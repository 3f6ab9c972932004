/**
 * The embedded event store: one SQLite file in WAL mode, shared safely by
 * several processes.
 *
 * Durability and throughput come from group commit: every write requested
 * while the last commit was under way, or in one turn of the event loop,
 * goes into ONE `BEGIN IMMEDIATE ... COMMIT` with `synchronous=FULL`, so a
 * batch costs one fsync however many tables it touched (sqliteGroupCommit.mjs).
 * The commits run on a writer thread of their own (sqliteWriter.ts): the
 * event loop never waits for a disk, only reads (one indexed query each)
 * run on it. Each append still checks its own expected version inside the
 * transaction, in the order the appends were called, so appends to one
 * table chain (the second sees the first's events) and a conflicting append
 * is refused alone. Promises settle only after COMMIT has returned, a
 * slice of a batch a turn so a large batch never holds the loop (each
 * answer sets off its caller's work), and subscribers hear of events just
 * before their append resolves.
 *
 * The log is the truth: a table's version is the highest seq in `events`,
 * and PRIMARY KEY (table_id, seq) makes a second event at one position
 * impossible whoever writes it. `tables` is kept in step for listing.
 */
import type { EventStore } from './eventStore.js';
import { sqliteAppends } from './sqliteAppends.js';
import { createCommitQueue, type GroupCommit } from './sqliteCommitQueue.js';
import { prepareReads } from './sqliteReads.js';
import { isInMemory, openDatabase } from './sqliteSchema.js';
import { sqliteRetirements } from './sqliteRetirements.js';
import { sqliteSnapshots } from './sqliteSnapshots.js';
import { writerOnItsOwnThread, writerOnThisThread, type SqliteWriter } from './sqliteWriter.js';
import { checkTableId } from './storeChecks.js';
import { createSubscribers, type ListenerErrorHandler } from './subscribers.js';

export type { GroupCommit } from './sqliteCommitQueue.js';

export interface SqliteEventStoreOptions {
  /** How long a write waits for another process's write lock before it fails, in ms (default 5000). The wait blocks the writer thread. */
  readonly busyTimeoutMs?: number;
  /**
   * The most the file may grow to, in bytes (SQLite's max_page_count on the writing connection; SUITORS_DB_MAX_MB):
   * a write past it is refused whole with SQLITE_FULL, as on a full disk, until pages are freed. Undefined: the disk.
   */
  readonly maxBytes?: number;
  /** Called when a subscriber throws; the default writes to stderr. */
  readonly onListenerError?: ListenerErrorHandler;
  /** Called after every group commit, for metrics and tests. */
  readonly onCommit?: (commit: GroupCommit) => void;
}

/** An SQLite event store, and what only it can say at once, for the metrics. */
export interface SqliteEventStore extends EventStore {
  /** How many tables are retired (suitors_tables_retired). */
  retiredCount(): number;
}

/** The parts (sqliteSchema, sqliteReads, sqliteAppends, sqliteSnapshots, sqliteCommitQueue) behind `EventStore`. */
export function openSqliteEventStore(path: string, options: SqliteEventStoreOptions = {}): SqliteEventStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const db = openDatabase(path, busyTimeoutMs);
  const reads = prepareReads(db, path);
  // The schema exists by now: the writer's own connection finds it.
  const writer: SqliteWriter = isInMemory(path)
    ? writerOnThisThread(db, options.maxBytes)
    : writerOnItsOwnThread(path, busyTimeoutMs, options.maxBytes);
  const queue = createCommitQueue(writer, path, options.onCommit);
  const subscribers = createSubscribers(options.onListenerError);
  let closed = false;
  const checkOpen = () => {
    if (closed) throw new Error(`the SQLite event store ${path} is closed`);
  };
  /** A read's preconditions: open, and a table id that could name a table. */
  const checkRead = (tableId: string) => {
    checkOpen();
    checkTableId(tableId);
  };
  const snapshots = sqliteSnapshots(db, path, queue, checkOpen);
  const retirements = sqliteRetirements(db, path, queue, checkOpen);

  return {
    append: sqliteAppends(queue, subscribers, checkOpen),
    async read(tableId: string, afterVersion = 0) {
      checkRead(tableId);
      return reads.read(tableId, afterVersion);
    },
    async version(tableId: string) {
      checkRead(tableId);
      return reads.version(tableId);
    },
    async listTables() {
      checkOpen();
      return reads.listTables();
    },
    subscribe: (listener) => subscribers.add(listener),
    saveSnapshot: (tableId, snapshot) => snapshots.save(tableId, snapshot),
    async loadSnapshot(tableId: string) {
      checkRead(tableId);
      return snapshots.load(tableId);
    },
    retire: (tableId, retirement) => retirements.retire(tableId, retirement),
    async retired(tableId: string) {
      return retirements.retired(tableId);
    },
    retiredCount: () => retirements.count(),
    // Writes already requested are committed before the file is closed.
    async close() {
      if (closed) return;
      closed = true;
      await queue.drain();
      db.close();
    },
  };
}
