/**
 * The SQLite event store's retired tables: retiring through the group
 * commit (one transaction keeps the record and deletes the log, its listing
 * row and its snapshot, sqliteGroupCommit.mjs), and reading what a retired
 * table keeps on the event loop's connection.
 */
import type Database from 'better-sqlite3';
import { TableRetired, VersionConflict, type RetiredTable, type Retirement, type TableStatus } from './eventStore.js';
import type { CommitQueue } from './sqliteCommitQueue.js';
import { withFileNamed } from './sqliteFile.js';
import type { WriteOutcome } from './sqliteWrites.js';
import { checkRetirement, checkTableId } from './storeChecks.js';

interface SqliteRetirements {
  retire(tableId: string, retirement: Retirement): Promise<void>;
  retired(tableId: string): RetiredTable | null;
  /** How many tables are retired: what a retention run has kept as records alone. */
  count(): number;
}

interface RetiredRow {
  readonly version: number;
  readonly status: string | null;
  readonly last_event_at: string;
  readonly retired_at: string;
  readonly record: string;
}

/** `checkOpen` throws once the store is closed: a retirement is refused before anything is queued. */
export function sqliteRetirements(db: Database.Database, path: string, queue: CommitQueue, checkOpen: () => void): SqliteRetirements {
  const load = db.prepare('SELECT version, status, last_event_at, retired_at, record FROM retired_tables WHERE table_id = ?');
  const count = db.prepare('SELECT COUNT(*) FROM retired_tables').pluck();
  return {
    retire(tableId, retirement) {
      return new Promise<void>((resolve, reject) => {
        checkOpen();
        const recordJson = checkRetirement(tableId, retirement);
        const { expectedVersion } = retirement;
        const settle = (outcome: WriteOutcome) => {
          if (outcome.kind === 'retired') return resolve();
          if (outcome.kind === 'alreadyRetired') return reject(new TableRetired(tableId));
          reject(new VersionConflict(tableId, expectedVersion, outcome.kind === 'conflict' ? outcome.actualVersion : null));
        };
        queue.enqueue({ write: { kind: 'retire', tableId, expectedVersion, recordJson, retiredAt: retirement.at }, settle, reject });
      });
    },
    retired(tableId) {
      checkOpen();
      checkTableId(tableId);
      const row = withFileNamed(path, () => load.get(tableId) as RetiredRow | undefined);
      if (row === undefined) return null;
      return {
        tableId,
        version: row.version,
        lastEventAt: row.last_event_at,
        status: row.status === null ? null : (JSON.parse(row.status) as TableStatus),
        retiredAt: row.retired_at,
        record: JSON.parse(row.record) as unknown,
      };
    },
    count() {
      checkOpen();
      return withFileNamed(path, () => count.get() as number);
    },
  };
}
