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
import { writerOnItsOwnThread, writerOnThisThread, type SqliteWriter } from './sqliteWriter.js';
import type { BatchResult, EncodedEvent, Write, WriteOutcome } from './sqliteWrites.js';
import { checkAppend, checkSnapshot, checkTableId, toJson } from './storeChecks.js';
import { createSubscribers, type ListenerErrorHandler } from './subscribers.js';

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

/** What one transaction carried. */
export interface GroupCommit {
  readonly appended: number;
  readonly events: number;
  readonly snapshots: number;
  /** Writes refused inside the transaction (version conflicts, snapshots ahead of the log). */
  readonly refused: number;
  /** From BEGIN to the return of COMMIT (the fsync included), on the writer's thread. */
  readonly durationMs: number;
}

const SCHEMA_VERSION = 1;
/**
 * Committed writes answered in one turn of the event loop: about 3 ms of a
 * gateway's work (each answer's views and sends), so HTTP requests and
 * socket commands are not held long behind them. With 32 a turn (about 13 ms)
 * a saturated gateway's HTTP probe waited two to three times as long at the
 * median, for about the same moves a second (bench:gateway, issue 17's
 * closing note).
 */
const ANSWERS_PER_TURN = 8;

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

/** A write waiting for its commit, and how its caller is answered. */
interface PendingWrite {
  readonly write: Write;
  /** Called once the batch is committed, with what became of this write. */
  readonly settle: (outcome: WriteOutcome) => void;
  readonly reject: (error: unknown) => void;
}

interface EventRow {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly data: string;
}

export function openSqliteEventStore(path: string, options: SqliteEventStoreOptions = {}): EventStore {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const db = openDatabase(path, busyTimeoutMs);
  const statements = prepareStatements(db);
  // The schema exists by now: the writer's own connection finds it.
  const writer: SqliteWriter = isInMemory(path)
    ? writerOnThisThread(db, options.maxBytes)
    : writerOnItsOwnThread(path, busyTimeoutMs, options.maxBytes);
  const subscribers = createSubscribers(options.onListenerError);
  let pending: PendingWrite[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  /** The commit under way on the writer, if any: writes requested meanwhile wait for the next. */
  let committing: Promise<void> | null = null;
  /** Committed writes still to be answered (answerSome), and who waits for them all to be. */
  const answers: (() => void)[] = [];
  let answering: NodeJS.Immediate | undefined;
  const whenAnswered: (() => void)[] = [];
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
    if (committing === null) scheduled ??= setImmediate(commitPending);
  }

  function commitPending(): void {
    scheduled = undefined;
    if (committing !== null || pending.length === 0) return;
    const batch = pending;
    pending = [];
    committing = writer.commit(batch.map(({ write }) => write)).then((result) => {
      committing = null;
      // The next batch, of what was requested during this commit, goes to the writer before this one is answered.
      commitPending();
      answerBatch(batch, result);
    });
  }

  function answerBatch(batch: readonly PendingWrite[], result: BatchResult): void {
    if ('failed' in result) {
      const error = storageError(path, result.failed);
      for (const write of batch) answers.push(() => write.reject(error));
    } else {
      reportCommit(batch, result.committed, result.durationMs);
      batch.forEach((write, index) => answers.push(() => write.settle(result.committed[index])));
    }
    answering ??= setImmediate(answerSome);
  }

  /**
   * Answers the writes of committed batches, in commit order, a slice a turn:
   * each answer sets off its caller's work (a move's views and sends), and a
   * batch of hundreds answered at once would hold the loop for all of it.
   */
  function answerSome(): void {
    answering = undefined;
    for (const answer of answers.splice(0, ANSWERS_PER_TURN)) answer();
    if (answers.length > 0) answering = setImmediate(answerSome);
    else for (const resolve of whenAnswered.splice(0)) resolve();
  }

  function reportCommit(batch: readonly PendingWrite[], outcomes: readonly WriteOutcome[], durationMs: number): void {
    if (options.onCommit === undefined) return;
    let appended = 0;
    let events = 0;
    let snapshots = 0;
    let refused = 0;
    outcomes.forEach((outcome, index) => {
      const { write } = batch[index];
      switch (outcome.kind) {
        case 'appended':
          appended++;
          if (write.kind === 'append') events += write.events.length;
          break;
        case 'snapshotSaved':
          snapshots++;
          break;
        case 'conflict':
        case 'snapshotAhead':
          refused++;
          break;
      }
    });
    try {
      options.onCommit({ appended, events, snapshots, refused, durationMs });
    } catch (error) {
      console.error('event store onCommit callback failed:', error);
    }
  }

  return {
    append(tableId: string, events: readonly NewEvent[], expectedVersion: number, status?: TableStatus) {
      return new Promise<number>((resolve, reject) => {
        checkOpen();
        checkAppend(tableId, events, expectedVersion);
        // Encoded now, so the caller may reuse its objects as soon as append returns.
        const encoded: EncodedEvent[] = events.map((event, index) => ({
          type: event.type,
          at: event.at,
          dataJson: toJson(event.data, `data of event ${index + 1} (${event.type}) for table ${tableId}`),
        }));
        const statusJson = status === undefined ? undefined : toJson(status, `status of table ${tableId}`);
        const settle = (outcome: WriteOutcome) => {
          if (outcome.kind !== 'appended') {
            reject(new VersionConflict(tableId, expectedVersion, outcome.kind === 'conflict' ? outcome.actualVersion : null));
            return;
          }
          if (subscribers.size > 0)
            encoded.forEach((event, index) => subscribers.publish(tableId, storedEvent(expectedVersion + index + 1, event)));
          resolve(outcome.version);
        };
        enqueue({ write: { kind: 'append', tableId, events: encoded, expectedVersion, statusJson }, settle, reject });
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
        // The version's shape now; whether the log has reached it, in the transaction.
        checkSnapshot(tableId, snapshot, Number.MAX_SAFE_INTEGER);
        const snapshotJson = toJson(snapshot.snapshot, `snapshot of table ${tableId}`);
        const settle = (outcome: WriteOutcome) => {
          if (outcome.kind === 'snapshotSaved') return resolve();
          if (outcome.kind !== 'snapshotAhead') return reject(new RangeError(`snapshot of table ${tableId} was not saved`));
          try {
            checkSnapshot(tableId, snapshot, outcome.logVersion);
          } catch (error) {
            return reject(error);
          }
          reject(
            new RangeError(`snapshot of table ${tableId} at version ${snapshot.version} was refused with the log at ${outcome.logVersion}`),
          );
        };
        enqueue({ write: { kind: 'snapshot', tableId, version: snapshot.version, snapshotJson }, settle, reject });
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
      while (committing !== null) await committing;
      if (answering !== undefined) await new Promise<void>((resolve) => whenAnswered.push(resolve));
      await writer.close();
      db.close();
    },
  };
}

function isInMemory(path: string): boolean {
  return path === ':memory:' || path === '';
}

/** The error that undid a whole batch, named as SQLite named it, with the file it is about. */
function storageError(path: string, failed: { readonly message: string; readonly code: string | undefined }): Error {
  if (failed.code === undefined) return new Error(failed.message);
  const named = new Error(`SQLite database ${path}: ${failed.message}`);
  named.name = 'StorageError';
  return Object.assign(named, { code: failed.code });
}

function openDatabase(path: string, busyTimeoutMs: number): Database.Database {
  const inMemory = isInMemory(path);
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
      throw new Error(`${path} has event store schema version ${found}; this code reads version ${SCHEMA_VERSION} (upgrade the service)`);
    }
    db.exec(SCHEMA);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** The reads, on the event loop's own connection; the writes are the writer's (sqliteGroupCommit.mjs). */
function prepareStatements(db: Database.Database) {
  return {
    version: db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?').pluck(),
    readAfter: db.prepare('SELECT seq, type, at, data FROM events WHERE table_id = ? AND seq > ? ORDER BY seq'),
    // The last event's time from the log itself, one primary-key lookup per table.
    listTables: db.prepare(
      `SELECT tables.table_id, tables.version, tables.status, events.at AS last_event_at
       FROM tables JOIN events ON events.table_id = tables.table_id AND events.seq = tables.version
       ORDER BY tables.table_id`,
    ),
    loadSnapshot: db.prepare('SELECT version, snapshot FROM snapshots WHERE table_id = ?'),
  };
}

function storedEvent(seq: number, event: EncodedEvent): StoredEvent {
  return { seq, type: event.type, at: event.at, data: JSON.parse(event.dataJson) as unknown };
}
