// The types of sqliteGroupCommit.mjs (JavaScript so the writer thread starts without tsx).
import type Database from 'better-sqlite3';
import type { GroupCommitter } from './sqliteWrites.js';

/**
 * A connection that writes: WAL, synced on every commit, waiting `busyTimeoutMs` for another process's lock; with
 * `maxBytes`, the file may grow no larger (SQLite's max_page_count; a write past it fails whole with SQLITE_FULL).
 */
export function openWritingConnection(path: string, busyTimeoutMs: number, maxBytes?: number): Database.Database;

/** Holds the file `db` writes to at `maxBytes` at most (never below its size now, which SQLite keeps it at). */
export function capFileSize(db: Database.Database, maxBytes: number): void;

/** Commits batches on `db`, whose schema must exist. */
export function groupCommitter(db: Database.Database): GroupCommitter;
