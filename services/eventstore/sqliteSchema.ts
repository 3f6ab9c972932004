/**
 * The event store's tables in the service's SQLite file, as numbered steps
 * (sqliteMigrations.ts), and opening the file on the event loop's
 * connection: refused if damaged, in WAL mode, synced on every commit, at
 * the last step.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkIntegrity, namedStorageError, withFileNamed } from './sqliteFile.js';
import { migrate, type SchemaSteps } from './sqliteMigrations.js';

const EVENT_STORE_STEPS: SchemaSteps = {
  adapter: 'event store',
  migrations: [
    {
      step: 1,
      name: 'events, tables and snapshots',
      // IF NOT EXISTS: files made before the migrations have these tables, and the step only records them.
      sql: `
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
      `,
    },
    {
      step: 2,
      name: 'retired tables: the record each keeps',
      sql: `
        CREATE TABLE retired_tables (
          table_id TEXT PRIMARY KEY,
          version INTEGER NOT NULL,
          status TEXT,
          last_event_at TEXT NOT NULL,
          retired_at TEXT NOT NULL,
          record TEXT NOT NULL
        ) WITHOUT ROWID;
      `,
    },
  ],
};

export function isInMemory(path: string): boolean {
  return path === ':memory:' || path === '';
}

/** The event loop's connection to the file at `path` (created with its folders if missing), its schema at the last step. */
export function openDatabase(path: string, busyTimeoutMs: number): Database.Database {
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
    migrateEventStore(db, path);
    return db;
  } catch (error) {
    db.close();
    throw namedStorageError(path, error);
  }
}

/**
 * Runs the event store's steps. `user_version` is kept at the last step as
 * well: code from before the migrations reads only it, and so refuses a file
 * a later step has changed instead of misreading it.
 */
function migrateEventStore(db: Database.Database, path: string): void {
  const last = EVENT_STORE_STEPS.migrations.length;
  const found = db.pragma('user_version', { simple: true }) as number;
  if (found > last) {
    throw new Error(`${path} has event store schema version ${found}; this code reads versions up to ${last} (upgrade the service)`);
  }
  migrate(db, path, EVENT_STORE_STEPS);
  if (found !== last) db.pragma(`user_version = ${last}`);
}
