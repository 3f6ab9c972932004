/**
 * Seat tokens in the service's SQLite file, beside the event store's tables,
 * so players keep their seats across restarts. Only SHA-256 hashes are kept.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { withFileNamed } from '../eventstore/sqliteFile.js';
import { migrate, type SchemaSteps } from '../eventstore/sqliteMigrations.js';
import { hashToken, looksLikeToken, newToken, type SeatTokens } from './seatTokens.js';

/** The seat tokens' numbered schema steps, beside the event store's in one file (sqliteMigrations.ts). */
const SEAT_TOKEN_STEPS: SchemaSteps = {
  adapter: 'seat tokens',
  migrations: [
    {
      step: 1,
      name: 'seat_tokens and its index by seat',
      // IF NOT EXISTS: files made before the migrations have these, and the step only records them.
      sql: `
        CREATE TABLE IF NOT EXISTS seat_tokens (
          token_hash TEXT PRIMARY KEY,
          table_id TEXT NOT NULL,
          seat INTEGER NOT NULL,
          issued_at TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS seat_tokens_by_seat ON seat_tokens (table_id, seat);
      `,
    },
  ],
};

export function openSqliteSeatTokens(path: string, busyTimeoutMs = 5000): SeatTokens {
  const inMemory = path === ':memory:' || path === '';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const db = withFileNamed(path, () => openTokensDatabase(path, busyTimeoutMs));
  // A token indexed again (a join retried, a token found in the log) replaces its row: issuing is idempotent.
  const insert = db.prepare('INSERT OR REPLACE INTO seat_tokens (token_hash, table_id, seat, issued_at) VALUES (?, ?, ?, ?)');
  const find = db.prepare('SELECT table_id, seat FROM seat_tokens WHERE token_hash = ?');
  const revoke = db.prepare('DELETE FROM seat_tokens WHERE table_id = ? AND seat = ?');
  const revokeOne = db.prepare('DELETE FROM seat_tokens WHERE token_hash = ?');
  let closed = false;
  const checkOpen = () => {
    if (closed) throw new Error(`the seat tokens of ${path} are closed`);
  };
  return {
    async issue({ tableId, seat }, token = newToken()) {
      checkOpen();
      withFileNamed(path, () => insert.run(hashToken(token), tableId, seat, new Date().toISOString()));
      return token;
    },
    async resolve(token) {
      checkOpen();
      if (!looksLikeToken(token)) return null;
      const row = withFileNamed(path, () => find.get(hashToken(token)) as { table_id: string; seat: number } | undefined);
      return row === undefined ? null : { tableId: row.table_id, seat: row.seat };
    },
    async revokeSeat({ tableId, seat }) {
      checkOpen();
      return withFileNamed(path, () => revoke.run(tableId, seat).changes);
    },
    async revoke(holder) {
      checkOpen();
      withFileNamed(path, () => revokeOne.run(holder));
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

function openTokensDatabase(path: string, busyTimeoutMs: number): Database.Database {
  const db = new Database(path, { timeout: busyTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    // Only an index of the logs, which name every seat's token hash: a row lost with the machine (not the process)
    // is found again in the table's log on first use. So a commit need not wait for the disk, which held the event
    // loop for a whole fsync at every seat taken; in WAL mode NORMAL still keeps the file whole.
    db.pragma('synchronous = NORMAL');
    migrate(db, path, SEAT_TOKEN_STEPS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
