/**
 * One group commit of the SQLite event store: a batch of appends and
 * snapshot saves in ONE `BEGIN IMMEDIATE ... COMMIT` (synchronous=FULL, so
 * one fsync for the batch). Each append checks its own expected version
 * inside the transaction, in the order of the batch, so appends to one table
 * chain and a conflicting append is refused alone. Plain data in and out: it
 * runs on the writer thread (sqliteWriterThread.ts), or on the caller's for
 * an in-memory file.
 */
import Database from 'better-sqlite3';
import { checkSnapshot } from './storeChecks.js';

export interface EncodedEvent {
  readonly type: string;
  readonly at: string;
  readonly dataJson: string;
}

export interface AppendWrite {
  readonly kind: 'append';
  readonly tableId: string;
  readonly events: readonly EncodedEvent[];
  readonly expectedVersion: number;
  /** undefined keeps the table's last status. */
  readonly statusJson: string | undefined;
}

export interface SnapshotWrite {
  readonly kind: 'snapshot';
  readonly tableId: string;
  readonly version: number;
  readonly snapshotJson: string;
}

export type Write = AppendWrite | SnapshotWrite;

/** What became of one write of a committed batch. */
export type WriteOutcome =
  | { readonly kind: 'appended'; readonly version: number }
  | { readonly kind: 'snapshotSaved' }
  /** The log is not where the append expected it: at `actualVersion`, or (null) a position it meant to take is taken. */
  | { readonly kind: 'conflict'; readonly actualVersion: number | null }
  /** A snapshot ahead of the log (checkSnapshot's words). */
  | { readonly kind: 'snapshotRefused'; readonly message: string };

/** A batch as committed, or the error that undid all of it (lock timeout, disk full), as SQLite named it. */
export type BatchResult =
  | { readonly committed: readonly WriteOutcome[]; readonly durationMs: number }
  | { readonly failed: { readonly message: string; readonly code: string | undefined } };

/** A connection that writes: WAL, synced on every commit, waiting `busyTimeoutMs` for another process's lock. */
export function openWritingConnection(path: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(path, { timeout: busyTimeoutMs });
  // FULL: the WAL is synced on every commit, so an acknowledged append survives power loss.
  db.pragma('synchronous = FULL');
  return db;
}

export type GroupCommitter = (batch: readonly Write[]) => BatchResult;

/** Commits batches on `db`, whose schema must exist. */
export function groupCommitter(db: Database.Database): GroupCommitter {
  const statements = prepareStatements(db);
  const versionOf = (tableId: string) => statements.version.get(tableId) as number;

  function applyAppend(write: AppendWrite, updatedAt: string): WriteOutcome {
    const { tableId, events, expectedVersion } = write;
    const actualVersion = versionOf(tableId);
    if (actualVersion !== expectedVersion) return { kind: 'conflict', actualVersion };
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
      return { kind: 'appended', version };
    } catch (error) {
      // Anything but a taken position (disk full, I/O) fails the whole batch, through the caller's rollback.
      if (!isUniqueViolation(error)) throw error;
      if (needsSavepoint) {
        statements.rollbackToSavepoint.run();
        statements.release.run();
      }
      // Someone wrote at a position this append meant to take: the table is at a later version than expected.
      return { kind: 'conflict', actualVersion: null };
    }
  }

  function applySnapshot(write: SnapshotWrite): WriteOutcome {
    try {
      checkSnapshot(write.tableId, { version: write.version, snapshot: null }, versionOf(write.tableId));
    } catch (error) {
      return { kind: 'snapshotRefused', message: (error as Error).message };
    }
    statements.upsertSnapshot.run(write.tableId, write.version, write.snapshotJson);
    return { kind: 'snapshotSaved' };
  }

  // The error that made us roll back is the one worth reporting; a failing ROLLBACK only means SQLite already did it.
  function rollbackQuietly(): void {
    try {
      if (db.inTransaction) statements.rollback.run();
    } catch {
      // the transaction is gone either way
    }
  }

  return (batch) => {
    const started = performance.now();
    try {
      statements.begin.run();
      try {
        const updatedAt = new Date().toISOString();
        const committed = batch.map((write) => (write.kind === 'append' ? applyAppend(write, updatedAt) : applySnapshot(write)));
        statements.commit.run();
        return { committed, durationMs: performance.now() - started };
      } catch (error) {
        rollbackQuietly();
        throw error;
      }
    } catch (error) {
      return { failed: { message: (error as Error).message, code: (error as { code?: string }).code } };
    }
  };
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
    // A snapshot older than the one kept is a stale writer's; the newer cache entry stays.
    upsertSnapshot: db.prepare(
      `INSERT INTO snapshots (table_id, version, snapshot) VALUES (?, ?, ?)
       ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, snapshot = excluded.snapshot
       WHERE excluded.version >= snapshots.version`,
    ),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof Database.SqliteError &&
    (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || error.code === 'SQLITE_CONSTRAINT_UNIQUE')
  );
}
