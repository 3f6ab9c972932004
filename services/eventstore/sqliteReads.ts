/**
 * The SQLite event store's reads: one indexed query each, on the event
 * loop's own connection (in WAL mode it sees every commit already
 * answered). The writes are the writer's (sqliteGroupCommit.mjs).
 */
import type Database from 'better-sqlite3';
import type { StoredEvent, TableStatus, TableSummary } from './eventStore.js';
import { nextTurn } from './loopTurns.js';
import { withFileNamed } from './sqliteFile.js';
import type { EncodedEvent } from './sqliteWrites.js';

interface SqliteReads {
  version(tableId: string): number;
  read(tableId: string, afterVersion: number): Promise<StoredEvent[]>;
  listTables(): TableSummary[];
}

/**
 * Events read in one turn of the event loop: a long log (a game of 100 hands is
 * 6,000 events, read whole by a fork or an export) is read a page a turn, so it
 * never holds the loop for the whole query and its parsing (15-45 ms for 6,000
 * here, a page about a sixth of that), and the pages of reads under way at
 * once take turns (loopTurns.ts) rather than run back to back.
 */
const EVENTS_PER_PAGE = 1000;

interface EventRow {
  readonly seq: number;
  readonly type: string;
  readonly at: string;
  readonly data: string;
}

interface TableRow {
  readonly table_id: string;
  readonly version: number;
  readonly status: string | null;
  readonly last_event_at: string;
}

export function prepareReads(db: Database.Database, path: string): SqliteReads {
  const version = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?').pluck();
  const readPage = db.prepare('SELECT seq, type, at, data FROM events WHERE table_id = ? AND seq > ? AND seq <= ? ORDER BY seq');
  // The last event's time from the log itself, one primary-key lookup per table.
  const listTables = db.prepare(
    `SELECT tables.table_id, tables.version, tables.status, events.at AS last_event_at
     FROM tables JOIN events ON events.table_id = tables.table_id AND events.seq = tables.version
     ORDER BY tables.table_id`,
  );
  return {
    version: (tableId) => withFileNamed(path, () => version.get(tableId) as number),
    async read(tableId, afterVersion) {
      // Up to the version at the start: the log as it stood then, however many pages it takes.
      const upTo = withFileNamed(path, () => version.get(tableId) as number);
      const events: StoredEvent[] = [];
      for (let after = afterVersion; after < upTo; after += EVENTS_PER_PAGE) {
        if (after > afterVersion) await nextTurn();
        const rows = withFileNamed(path, () => readPage.all(tableId, after, Math.min(after + EVENTS_PER_PAGE, upTo)) as EventRow[]);
        for (const row of rows) events.push(storedEvent(row.seq, { type: row.type, at: row.at, dataJson: row.data }));
      }
      // Only a retirement deletes events: one between two pages leaves the table without a log, as it now reads.
      return events.length === Math.max(0, upTo - afterVersion) ? events : [];
    },
    listTables() {
      const rows = withFileNamed(path, () => listTables.all() as TableRow[]);
      return rows.map(
        (row): TableSummary => ({
          tableId: row.table_id,
          version: row.version,
          lastEventAt: row.last_event_at,
          status: row.status === null ? null : (JSON.parse(row.status) as TableStatus),
        }),
      );
    },
  };
}

function storedEvent(seq: number, event: EncodedEvent): StoredEvent {
  return { seq, type: event.type, at: event.at, data: JSON.parse(event.dataJson) as unknown };
}
