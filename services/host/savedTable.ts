/**
 * What a table's persisted snapshot holds, and when it may be believed. A
 * snapshot is XState's persisted state of one machine: restored into
 * another (a state renamed, a context field added), it would resume a table
 * that never was. So it carries the fingerprint of the machine that wrote
 * it, and is used only by the same machine; any other snapshot, and every
 * snapshot written before fingerprints, is ignored and the table rebuilt
 * from its log, which is the truth.
 */
import { fingerprintOf } from '../../machines/games/fingerprint.js';
import { machineFor } from '../../machines/games/index.js';
import { TABLE_CREATED, tableCreatedOf, type TableCreated } from './tableLog.js';
import { withSchema } from './upcasters.js';

/** A snapshot as the store keeps it: enough to resume the table without its log before the snapshot's version. */
interface SavedTable {
  /** The table's `table.created` data as logged, schema and all, so it is read through the upcasters like the log. */
  readonly created: unknown;
  readonly persisted: unknown;
  /** Absent from snapshots written before the host ran turn clocks: the last event is read instead. */
  readonly lastEventAt?: string;
  /** The fingerprint of the machine that wrote `persisted`; absent from snapshots written before fingerprints. */
  readonly fingerprint?: string;
}

export interface LoadedTable {
  readonly created: TableCreated;
  readonly persisted: unknown;
  readonly lastEventAt?: string;
}

export function savedTableOf(created: TableCreated, persisted: unknown, lastEventAt: string): SavedTable {
  const logged = withSchema({ type: TABLE_CREATED, at: lastEventAt, data: created });
  return { created: logged.data, persisted, lastEventAt, fingerprint: machineFingerprintOf(created) };
}

/** Table `tableId`'s saved table, or null when its machine is not the one that would resume it now. */
export function loadSavedTable(tableId: string, snapshot: unknown): LoadedTable | null {
  const saved = snapshot as Partial<SavedTable> | null;
  if (typeof saved?.fingerprint !== 'string') return null;
  const created = tableCreatedOf({ seq: 1, type: TABLE_CREATED, at: saved.lastEventAt ?? '', data: saved.created }, tableId);
  if (saved.fingerprint !== machineFingerprintOf(created)) return null;
  return { created, persisted: saved.persisted, ...(saved.lastEventAt === undefined ? {} : { lastEventAt: saved.lastEventAt }) };
}

/** The fingerprint of the machine a table runs in: its game's, under its rules. */
function machineFingerprintOf(created: TableCreated): string {
  return fingerprintOf(machineFor(created.game, created.rules), created.game);
}
