/**
 * One group commit of the SQLite event store: a batch of appends and
 * snapshot saves in ONE `BEGIN IMMEDIATE ... COMMIT` (synchronous=FULL, so
 * one fsync for the batch). Each append checks its own expected version
 * inside the transaction, in the order of the batch, so appends to one table
 * chain and a conflicting append is refused alone. Plain data in and out
 * (the shapes are in sqliteWrites.ts): it runs on the writer thread
 * (sqliteWriterThread.mjs), or on the caller's for an in-memory file.
 *
 * JavaScript, not TypeScript, so the writer thread starts without tsx,
 * which took most of a store's first second and about 15 MB of RSS
 * (README.md has the figures). Its types are in sqliteGroupCommit.d.mts.
 */
import Database from 'better-sqlite3';

/**
 * A connection that writes: WAL, synced on every commit, waiting `busyTimeoutMs` for another process's lock; with
 * `maxBytes`, the file may grow no larger (a write past it fails whole with SQLITE_FULL, as on a full disk).
 */
export function openWritingConnection(path, busyTimeoutMs, maxBytes) {
  const db = new Database(path, { timeout: busyTimeoutMs });
  // FULL: the WAL is synced on every commit, so an acknowledged append survives power loss.
  db.pragma('synchronous = FULL');
  if (maxBytes !== undefined) capFileSize(db, maxBytes);
  return db;
}

/** Holds the file `db` writes to at `maxBytes` at most (SQLite keeps a cap below the file's size at that size). */
export function capFileSize(db, maxBytes) {
  const pageSize = db.pragma('page_size', { simple: true });
  db.pragma(`max_page_count = ${Math.max(1, Math.floor(maxBytes / pageSize))}`);
}

/** Commits batches on `db`, whose schema must exist. */
export function groupCommitter(db) {
  const statements = prepareStatements(db);
  const versionOf = (tableId) => statements.version.get(tableId);
  const isRetired = (tableId) => statements.retiredVersion.get(tableId) !== undefined;

  function applyAppend(write, updatedAt) {
    const { tableId, events, expectedVersion } = write;
    const actualVersion = versionOf(tableId);
    // Only a table without events can be a retired one: the lookup costs nothing to a table in play.
    if (actualVersion === 0 && isRetired(tableId)) return { kind: 'alreadyRetired' };
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

  function applySnapshot(write) {
    // The caller words the refusal (storeChecks.ts): here only the log's version is known.
    const logVersion = versionOf(write.tableId);
    if (write.version > logVersion) return { kind: 'snapshotAhead', logVersion };
    statements.upsertSnapshot.run(write.tableId, write.version, write.snapshotJson);
    return { kind: 'snapshotSaved' };
  }

  /** Keeps the record and deletes the log, its listing row and its snapshot, in this transaction. */
  function applyRetire(write) {
    const { tableId, expectedVersion } = write;
    const actualVersion = versionOf(tableId);
    if (actualVersion === 0 && isRetired(tableId)) return { kind: 'alreadyRetired' };
    if (actualVersion !== expectedVersion) return { kind: 'conflict', actualVersion };
    // Nothing is deleted unless the record was kept: a listing row out of step with the log refuses the retirement.
    if (statements.insertRetired.run(write.retiredAt, write.recordJson, tableId, expectedVersion).changes !== 1) {
      return { kind: 'conflict', actualVersion: null };
    }
    statements.deleteEvents.run(tableId);
    statements.deleteTable.run(tableId);
    statements.deleteSnapshot.run(tableId);
    return { kind: 'retired' };
  }

  const apply = (write, updatedAt) =>
    write.kind === 'append' ? applyAppend(write, updatedAt) : write.kind === 'snapshot' ? applySnapshot(write) : applyRetire(write);

  // The error that made us roll back is the one worth reporting; a failing ROLLBACK only means SQLite already did it.
  function rollbackQuietly() {
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
        const committed = batch.map((write) => apply(write, updatedAt));
        statements.commit.run();
        return { committed, durationMs: performance.now() - started };
      } catch (error) {
        rollbackQuietly();
        throw error;
      }
    } catch (error) {
      return { failed: { message: error.message, code: error.code } };
    }
  };
}

function prepareStatements(db) {
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT append_one'),
    release: db.prepare('RELEASE append_one'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO append_one'),
    version: db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?').pluck(),
    retiredVersion: db.prepare('SELECT version FROM retired_tables WHERE table_id = ?').pluck(),
    // The table's listing row and its last event give what the retired table keeps of its log.
    insertRetired: db.prepare(
      `INSERT INTO retired_tables (table_id, version, status, last_event_at, retired_at, record)
       SELECT tables.table_id, tables.version, tables.status, events.at, ?, ?
       FROM tables JOIN events ON events.table_id = tables.table_id AND events.seq = tables.version
       WHERE tables.table_id = ? AND tables.version = ?`,
    ),
    deleteEvents: db.prepare('DELETE FROM events WHERE table_id = ?'),
    deleteTable: db.prepare('DELETE FROM tables WHERE table_id = ?'),
    deleteSnapshot: db.prepare('DELETE FROM snapshots WHERE table_id = ?'),
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

function isUniqueViolation(error) {
  return (
    error instanceof Database.SqliteError && (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || error.code === 'SQLITE_CONSTRAINT_UNIQUE')
  );
}
