/**
 * Rebuilding a table from its log, at its end or at any event: the same
 * fold the host uses to rehydrate, as a library call for the CLI and the
 * gateway.
 */
import { recordFromEvents, type GameRecord } from '../../machines/record/record.js';
import { offer, startTable, type TableActor, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { EventStore, StoredEvent } from '../eventstore/eventStore.js';
import { unknownTable } from './errors.js';
import { isMachineEvent, tableCreatedOf, toTableEvent, type TableCreated } from './tableLog.js';

export interface ReplayedTable {
  readonly created: TableCreated;
  /** How many events of the log were folded in (the seq of the last one). */
  readonly version: number;
  readonly snapshot: TableSnapshot;
}

/** A table's log after `afterVersion` (all of it by default); refused as unknown when the table has no log. */
export async function readTableLog(store: EventStore, tableId: string, afterVersion = 0): Promise<StoredEvent[]> {
  const events = await store.read(tableId, afterVersion);
  if (events.length === 0 && (await store.version(tableId)) === 0) throw unknownTable(tableId);
  return events;
}

/** Folds `events` (a log from its start) into a live actor; every event must be accepted. */
export function foldLog(tableId: string, events: readonly StoredEvent[]): { created: TableCreated; actor: TableActor } {
  const created = tableCreatedOf(events[0], tableId);
  const actor = startTable(created);
  applyLogEvents(tableId, actor, events.slice(1));
  return { created, actor };
}

export function applyLogEvents(tableId: string, actor: TableActor, events: readonly StoredEvent[]): void {
  for (const stored of events) {
    if (!isMachineEvent(stored)) continue;
    if (!offer(actor, toTableEvent(stored))) {
      throw new Error(`table ${tableId}: logged event ${stored.seq} (${stored.type}) is refused on replay`);
    }
  }
}

/**
 * The table as it stood right after event `at` (1 = just created); the
 * whole log when `at` is omitted.
 */
export function replayLog(tableId: string, events: readonly StoredEvent[], at?: number): ReplayedTable {
  const upTo = at === undefined ? events.length : Math.max(1, Math.min(at, events.length));
  const { created, actor } = foldLog(tableId, events.slice(0, upTo));
  const snapshot = actor.getSnapshot();
  actor.stop();
  return { created, version: upTo, snapshot };
}

export function recordOfLog(tableId: string, events: readonly StoredEvent[]): GameRecord {
  const created = tableCreatedOf(events[0], tableId);
  return recordFromEvents(created, events.filter(isMachineEvent).map(toTableEvent));
}
