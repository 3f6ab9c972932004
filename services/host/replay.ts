/**
 * Rebuilding a table from its log, at its end or at any event: the same
 * fold the host uses to rehydrate, as a library call for the CLI and the
 * gateway.
 */
import { recordFromEvents, type GameRecord } from '../../machines/record/record.js';
import type { TableEvent } from '../../machines/table/events.js';
import type { GameName } from '../../machines/table/options.js';
import { offer, startTable, type TableActor, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { EventStore, StoredEvent } from '../eventstore/eventStore.js';
import { missingTable, unknownTable } from './errors.js';
import { reasonRefused, TableQuarantined } from './quarantine.js';
import { machineEventsOf, tableCreatedOf, toTableEvent, voidedIn, type TableCreated } from './tableLog.js';

export interface ReplayedTable {
  readonly created: TableCreated;
  /** How many events of the log were folded in (the seq of the last one). */
  readonly version: number;
  readonly snapshot: TableSnapshot;
}

/** A table's log after `afterVersion` (all of it by default); refused as unknown when the table has no log. */
export async function readTableLog(store: EventStore, tableId: string, afterVersion = 0): Promise<StoredEvent[]> {
  const events = await store.read(tableId, afterVersion);
  if (events.length === 0 && (await store.version(tableId)) === 0) throw await missingTable(store, tableId);
  return events;
}

/**
 * Folds `log` (from its start) into a live actor, up to event `upTo` (the
 * whole log by default). What a later repair in the log voids is skipped
 * even when the fold stops before the repair.
 */
export function foldLog(
  tableId: string,
  log: readonly StoredEvent[],
  { upTo = log.length }: { upTo?: number } = {},
): { created: TableCreated; actor: TableActor } {
  const created = tableCreatedOf(log[0], tableId);
  const actor = startTable(created);
  try {
    applyLogEvents(tableId, actor, log.slice(1, upTo), { voided: voidedIn(log) });
  } catch (error) {
    actor.stop();
    throw error;
  }
  return { created, actor };
}

/** A logged event the machine refused, and why, at a table of `game`. */
interface RefusedEvent {
  readonly stored: StoredEvent;
  readonly game: GameName;
  readonly reason: string;
}

export interface LogFoldOptions {
  /** The seqs voided by the repairs of the whole log (by default those in `events`: enough when they reach its end). */
  readonly voided?: ReadonlySet<number>;
  /** Told of each event the machine refuses, the fold going on past it; by default the first quarantines the table. */
  readonly onRefused?: (refused: RefusedEvent) => void;
}

/**
 * Folds logged events into `actor`: their machine events, less the voided.
 * Every one must be accepted: the first the machine refuses quarantines the
 * table (TableQuarantined, naming the event and why), unless `onRefused`
 * takes it (a repair).
 */
export function applyLogEvents(tableId: string, actor: TableActor, events: readonly StoredEvent[], options: LogFoldOptions = {}): void {
  const { voided = voidedIn(events), onRefused = quarantine(tableId) } = options;
  for (const stored of machineEventsOf(events, voided)) {
    const before = actor.getSnapshot();
    const event = readableEvent(stored);
    if (typeof event === 'string') onRefused({ stored, game: before.context.game, reason: event });
    else if (!offer(actor, event)) onRefused({ stored, game: before.context.game, reason: reasonRefused(before, event) });
  }
}

/**
 * The logged event as the machine takes it, or why it cannot be read (a
 * schema that no release ever wrote). An event of a newer release's schema
 * is not unreadable: it is refused as such (upcasters.ts), for a release
 * that reads it to serve the table.
 */
function readableEvent(stored: StoredEvent): TableEvent | string {
  try {
    return toTableEvent(stored);
  } catch (error) {
    if (error instanceof RangeError) return error.message;
    throw error;
  }
}

function quarantine(tableId: string): (refused: RefusedEvent) => never {
  return ({ stored, game, reason }) => {
    throw new TableQuarantined({ tableId, game, seq: stored.seq, eventType: stored.type, reason });
  };
}

/**
 * The table as it stood right after event `at` (1 = just created); the
 * whole log when `at` is omitted.
 */
export function replayLog(tableId: string, events: readonly StoredEvent[], at?: number): ReplayedTable {
  const upTo = at === undefined ? events.length : Math.max(1, Math.min(at, events.length));
  const { created, actor } = foldLog(tableId, events, { upTo });
  const snapshot = actor.getSnapshot();
  actor.stop();
  return { created, version: upTo, snapshot };
}

/** The table's game record: from its log, or the one kept when it was retired. */
export async function recordOfTable(store: EventStore, tableId: string): Promise<GameRecord> {
  const events = await store.read(tableId);
  if (events.length > 0) return recordOfLog(tableId, events);
  const retired = await store.retired(tableId);
  if (retired === null) throw unknownTable(tableId);
  return retired.record as GameRecord;
}

export function recordOfLog(tableId: string, events: readonly StoredEvent[]): GameRecord {
  const created = tableCreatedOf(events[0], tableId);
  return recordFromEvents(created, machineEventsOf(events).map(toTableEvent));
}
