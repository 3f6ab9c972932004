/**
 * The embedded event store: one SQLite file in WAL mode, shared safely by
 * several processes.
 *
 * Durability and throughput come from group commit: every write requested
 * in one turn of the event loop (appends and snapshots) goes into ONE
 * `BEGIN IMMEDIATE ... COMMIT` with `synchronous=FULL`, so a turn costs one
 * fsync however many tables it touched. Each append still checks its own
 * expected version inside that transaction, in the order the appends were
 * called, so appends to one table in one batch chain (the second sees the
 * first's events) and a conflicting append is refused alone. Promises settle
 * only after COMMIT has returned, and subscribers hear of events just before
 * their append resolves.
 *
 * The log is the truth: a table's version is the highest seq in `events`,
 * and PRIMARY KEY (table_id, seq) makes a second event at one position
 * impossible whoever writes it. `tables` is kept in step for listing.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  VersionConflict,
  type EventStore,
  type NewEvent,
  type StoredEvent,
  type StoredSnapshot,
  type TableStatus,
  type TableSummary,
} from './eventStore.js';
import { checkIntegrity, namedStorageError, withFileNamed } from './sqliteFile.js';
import { checkAppend, checkSnapshot, checkTableId, toJson } from './storeChecks.js';
import { createSubscribers, type ListenerErrorHandler } from './subscribers.js';

export interface SqliteEventStoreOptions {
  /** How long a write waits for another process's write lock before it fails, in ms (default 5000). The wait blocks this thread. */
  readonly busyTimeoutMs?: number;
  /** Called when a subscriber throws; the default writes to stderr. */
  readonly onListenerError?: ListenerErrorHandler;
  /** Called after every group commit, for metrics and tests. */
  readonly onCommit?: (commit: GroupCommit) => void;
}

/** What one transaction carried. */
export interface GroupCommit {
  readonly appended: number;
  readonly events: number;
  readonly snapshots: number;
  /** Writes refused inside the transaction (version conflicts, snapshots ahead of the log). */
  readonly refused: number;
  /** From BEGIN to the return of COMMIT (the fsync included). */
  readonly durationMs: number;
}

const SCHEMA_VERSION = 1;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    type TEXT NOT NULL,
    at TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    status TEXT,
    updated_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    snapshot TEXT NOT NULL
  ) WITHOUT ROWID;
`;

interface EncodedEvent {
  readonly type: string;
  readonly at: string;
  readonly dataJson: string;
}

interface PendingAppend {
  readonly kind: 'append';
  readonly tableId: string;
  readonly events: readonly EncodedEvent[];
  readonly expectedVersion: number;
  /** undefined keeps the table's last status. */
  readonly statusJson: string | undefined;
  readonly resolve: (version: number) => void;
  readonly reject: (error: unknown) => void;
}

interface PendingSnapshot {
  readonly kind: 'snapshot';
  readonly tableId: string;
  readonly version: number;
  readonly snapshotJson: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

type PendingWrite = PendingAppend | PendingSnapshot;

type WriteOutcome =
  | { readonly kind: 'appended'; readonly write: PendingAppend; readonly version: number }
  | { readonly kind: 'snapshotSaved'; readonly write: PendingSnapshot }
  | { readonly kind: 'refused'; readonly write: PendingWrite; readonly error: unknown };

interface EventRow {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly data: string;
}

export function openSqliteEventStore(path: string, options: SqliteEventStoreOptions = {}): EventStore {
  const db = openDatabase(path, options.busyTimeoutMs ?? 5000);
  const statements = prepareStatements(db);
  const subscribers = createSubscribers(options.onListenerError);
  let pending: PendingWrite[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  let closed = false;

  function checkOpen(): void {
    if (closed) throw new Error(`the SQLite event store ${path} is closed`);
  }

  function versionOf(tableId: string): number {
    return withFileNamed(path, () => statements.version.get(tableId) as number);
  }

  function enqueue(write: PendingWrite): void {
    pending.push(write);
    // setImmediate, not a microtask: it gathers every write made while this turn's callbacks run, not just one tick's.
    scheduled ??= setImmediate(commitPending);
  }

  function commitPending(): void {
    scheduled = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const started = performance.now();
    let outcomes: WriteOutcome[];
    try {
      outcomes = writeInOneTransaction(batch);
    } catch (error) {
      const named = namedStorageError(path, error);
      for (const write of batch) write.reject(named);
      return;
    }
    reportCommit(outcomes, performance.now() - started);
    for (const outcome of outcomes) settle(outcome);
  }

  function writeInOneTransaction(batch: readonly PendingWrite[]): WriteOutcome[] {
    statements.begin.run();
    try {
      const updatedAt = new Date().toISOString();
      const outcomes = batch.map((write) =>
        write.kind === 'append' ? applyAppend(write, updatedAt) : applySnapshot(write),
      );
      statements.commit.run();
      return outcomes;
    } catch (error) {
      rollbackQuietly();
      throw error;
    }
  }

  // The error that made us roll back is the one worth reporting; a failing ROLLBACK only means SQLite already did it.
  function rollbackQuietly(): void {
    try {
      if (db.inTransaction) statements.rollback.run();
    } catch {
      // the transaction is gone either way
    }
  }

  function applyAppend(write: PendingAppend, updatedAt: string): WriteOutcome {
    const { tableId, events, expectedVersion } = write;
    const actualVersion = versionOf(tableId);
    if (actualVersion !== expectedVersion) {
      return { kind: 'refused', write, error: new VersionConflict(tableId, expectedVersion, actualVersion) };
    }
    // A savepoint lets a multi-event append fail halfway without undoing the rest of the batch. A single event
    // needs none: a failed INSERT undoes itself, and it is this append's first write. (Savepoints cost a third of
    // the batch's time.)
    const needsSavepoint = events.length > 1;
    if (needsSavepoint) statements.savepoint.run();
    try {
      events.forEach((event, index) => {
        statements.insertEvent.run(tableId, expectedVersion + index + 1, event.type, event.at, event.dataJson);
      });
      const version = expectedVersion + events.length;
      statements.upsertTable.run(tableId, version, write.statusJson ?? null, updatedAt);
      if (needsSavepoint) statements.release.run();
      return { kind: 'appended', write, version };
    } catch (error) {
      // Anything but a taken position (disk full, I/O) fails the whole batch, through the caller's rollback.
      if (!isUniqueViolation(error)) throw error;
      if (needsSavepoint) {
        statements.rollbackToSavepoint.run();
        statements.release.run();
      }
      // Someone wrote at a position this append meant to take: the table is at a later version than expected.
      return { kind: 'refused', write, error: new VersionConflict(tableId, expectedVersion, null) };
    }
  }

  function applySnapshot(write: PendingSnapshot): WriteOutcome {
    try {
      checkSnapshot(write.tableId, { version: write.version, snapshot: null }, versionOf(write.tableId));
    } catch (error) {
      return { kind: 'refused', write, error };
    }
    statements.upsertSnapshot.run(write.tableId, write.version, write.snapshotJson);
    return { kind: 'snapshotSaved', write };
  }

  function reportCommit(outcomes: readonly WriteOutcome[], durationMs: number): void {
    if (options.onCommit === undefined) return;
    let appended = 0;
    let events = 0;
    let snapshots = 0;
    let refused = 0;
    for (const outcome of outcomes) {
      switch (outcome.kind) {
        case 'appended':
          appended++;
          events += outcome.write.events.length;
          break;
        case 'snapshotSaved':
          snapshots++;
          break;
        case 'refused':
          refused++;
          break;
      }
    }
    try {
      options.onCommit({ appended, events, snapshots, refused, durationMs });
    } catch (error) {
      console.error('event store onCommit callback failed:', error);
    }
  }

  function settle(outcome: WriteOutcome): void {
    switch (outcome.kind) {
      case 'appended': {
        const { write, version } = outcome;
        if (subscribers.size > 0) {
          write.events.forEach((event, index) => {
            subscribers.publish(write.tableId, storedEvent(write.expectedVersion + index + 1, event));
          });
        }
        write.resolve(version);
        break;
      }
      case 'snapshotSaved':
        outcome.write.resolve();
        break;
      case 'refused':
        outcome.write.reject(outcome.error);
        break;
    }
  }

  return {
    append(tableId: string, events: readonly NewEvent[], expectedVersion: number, status?: TableStatus) {
      return new Promise<number>((resolve, reject) => {
        checkOpen();
        checkAppend(tableId, events, expectedVersion);
        // Encoded now, so the caller may reuse its objects as soon as append returns.
        const encoded = events.map((event, index) => ({
          type: event.type,
          at: event.at,
          dataJson: toJson(event.data, `data of event ${index + 1} (${event.type}) for table ${tableId}`),
        }));
        const statusJson = status === undefined ? undefined : toJson(status, `status of table ${tableId}`);
        enqueue({ kind: 'append', tableId, events: encoded, expectedVersion, statusJson, resolve, reject });
      });
    },

    async read(tableId: string, afterVersion = 0) {
      checkOpen();
      checkTableId(tableId);
      const rows = withFileNamed(path, () => statements.readAfter.all(tableId, afterVersion) as EventRow[]);
      return rows.map((row) => storedEvent(row.seq, { type: row.type, at: row.at, dataJson: row.data }));
    },

    async version(tableId: string) {
      checkOpen();
      checkTableId(tableId);
      return versionOf(tableId);
    },

    async listTables() {
      checkOpen();
      const rows = withFileNamed(
        path,
        () => statements.listTables.all() as { table_id: string; version: number; status: string | null; last_event_at: string }[],
      );
      return rows.map(
        (row): TableSummary => ({
          tableId: row.table_id,
          version: row.version,
          lastEventAt: row.last_event_at,
          status: row.status === null ? null : (JSON.parse(row.status) as TableStatus),
        }),
      );
    },

    subscribe(listener) {
      return subscribers.add(listener);
    },

    saveSnapshot(tableId: string, snapshot: StoredSnapshot) {
      return new Promise<void>((resolve, reject) => {
        checkOpen();
        checkTableId(tableId);
        const snapshotJson = toJson(snapshot.snapshot, `snapshot of table ${tableId}`);
        enqueue({ kind: 'snapshot', tableId, version: snapshot.version, snapshotJson, resolve, reject });
      });
    },

    async loadSnapshot(tableId: string) {
      checkOpen();
      checkTableId(tableId);
      const row = withFileNamed(path, () => statements.loadSnapshot.get(tableId) as { version: number; snapshot: string } | undefined);
      return row === undefined ? null : { version: row.version, snapshot: JSON.parse(row.snapshot) as unknown };
    },

    // Writes already requested are committed before the file is closed.
    async close() {
      if (closed) return;
      closed = true;
      if (scheduled !== undefined) clearImmediate(scheduled);
      commitPending();
      db.close();
    },
  };
}

function openDatabase(path: string, busyTimeoutMs: number): Database.Database {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  // `timeout` is SQLite's busy_timeout: a writer waits for another process's lock instead of failing at once.
  const db = withFileNamed(path, () => new Database(path, { timeout: busyTimeoutMs }));
  try {
    if (!inMemory) checkIntegrity(db, path);
    const journalMode = db.pragma('journal_mode = WAL', { simple: true });
    if (!inMemory && journalMode !== 'wal') {
      throw new Error(`${path} could not be put in WAL mode (it is in ${String(journalMode)} mode)`);
    }
    // FULL: the WAL is synced on every commit, so an acknowledged append survives power loss.
    db.pragma('synchronous = FULL');
    createSchema(db, path);
    return db;
  } catch (error) {
    db.close();
    throw namedStorageError(path, error);
  }
}

function createSchema(db: Database.Database, path: string): void {
  // Immediate, so two processes opening a new file at once do not both try to create it.
  db.transaction(() => {
    const found = db.pragma('user_version', { simple: true }) as number;
    if (found > SCHEMA_VERSION) {
      throw new Error(
        `${path} has event store schema version ${found}; this code reads version ${SCHEMA_VERSION} (upgrade the service)`,
      );
    }
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

function prepareStatements(db: Database.Database) {
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT append_one'),
    release: db.prepare('RELEASE append_one'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO append_one'),
    version: db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?').pluck(),
    insertEvent: db.prepare('INSERT INTO events (table_id, seq, type, at, data) VALUES (?, ?, ?, ?, ?)'),
    upsertTable: db.prepare(
      `INSERT INTO tables (table_id, version, status, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (table_id) DO UPDATE SET
         version = excluded.version,
         status = COALESCE(excluded.status, tables.status),
         updated_at = excluded.updated_at`,
    ),
    readAfter: db.prepare('SELECT seq, type, at, data FROM events WHERE table_id = ? AND seq > ? ORDER BY seq'),
    // The last event's time from the log itself, one primary-key lookup per table.
    listTables: db.prepare(
      `SELECT tables.table_id, tables.version, tables.status, events.at AS last_event_at
       FROM tables JOIN events ON events.table_id = tables.table_id AND events.seq = tables.version
       ORDER BY tables.table_id`,
    ),
    // A snapshot older than the one kept is a stale writer's; the newer cache entry stays.
    upsertSnapshot: db.prepare(
      `INSERT INTO snapshots (table_id, version, snapshot) VALUES (?, ?, ?)
       ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, snapshot = excluded.snapshot
       WHERE excluded.version >= snapshots.version`,
    ),
    loadSnapshot: db.prepare('SELECT version, snapshot FROM snapshots WHERE table_id = ?'),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Database.SqliteError &&
    (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || error.code === 'SQLITE_CONSTRAINT_UNIQUE')
  );
}

function storedEvent(seq: number, event: EncodedEvent): StoredEvent {
  return { seq, type: event.type, at: event.at, data: JSON.parse(event.dataJson) as unknown };
}
