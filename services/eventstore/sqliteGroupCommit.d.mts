// The types of sqliteGroupCommit.mjs (JavaScript so the writer thread starts without tsx).
import type Database from 'better-sqlite3';
import type { GroupCommitter } from './sqliteWrites.js';

/** A connection that writes: WAL, synced on every commit, waiting `busyTimeoutMs` for another process's lock. */
export function openWritingConnection(path: string, busyTimeoutMs: number): Database.Database;

/** Commits batches on `db`, whose schema must exist. */
export function groupCommitter(db: Database.Database): GroupCommitter;
