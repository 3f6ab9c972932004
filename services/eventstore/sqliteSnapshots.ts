/**
 * The SQLite event store's snapshots: the latest of each table, saved
 * through the group commit (whose transaction refuses one ahead of the log)
 * and read on the event loop's connection.
 */
import type Database from 'better-sqlite3';
import type { StoredSnapshot } from './eventStore.js';
import type { CommitQueue } from './sqliteCommitQueue.js';
import { withFileNamed } from './sqliteFile.js';
import type { WriteOutcome } from './sqliteWrites.js';
import { checkSnapshot, checkTableId, toJson } from './storeChecks.js';

interface SqliteSnapshots {
  save(tableId: string, snapshot: StoredSnapshot): Promise<void>;
  load(tableId: string): StoredSnapshot | null;
}

/** `checkOpen` throws once the store is closed: a save is refused before anything is queued. */
export function sqliteSnapshots(db: Database.Database, path: string, queue: CommitQueue, checkOpen: () => void): SqliteSnapshots {
  const load = db.prepare('SELECT version, snapshot FROM snapshots WHERE table_id = ?');
  return {
    save(tableId, snapshot) {
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
        queue.enqueue({ write: { kind: 'snapshot', tableId, version: snapshot.version, snapshotJson }, settle, reject });
      });
    },
    load(tableId) {
      const row = withFileNamed(path, () => load.get(tableId) as { version: number; snapshot: string } | undefined);
      return row === undefined ? null : { version: row.version, snapshot: JSON.parse(row.snapshot) as unknown };
    },
  };
}
