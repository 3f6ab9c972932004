/**
 * The argument checks and the JSON encoding every adapter applies, so a
 * malformed append or snapshot is refused with the same words whichever
 * store is behind the interface.
 */
import type { NewEvent, Retirement, StoredSnapshot } from './eventStore.js';

/** Throws when an append could never be valid, whatever the log holds. */
export function checkAppend(tableId: string, events: readonly NewEvent[], expectedVersion: number): void {
  checkTableId(tableId);
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 0) {
    throw new RangeError(
      `append to table ${tableId}: expectedVersion must be a whole number >= 0 (0 for a new table), not ${expectedVersion}`,
    );
  }
  if (!Array.isArray(events) || events.length === 0) {
    throw new RangeError(`append to table ${tableId} needs at least one event; got none`);
  }
  events.forEach((event, index) => {
    if (typeof event?.type !== 'string' || event.type === '') {
      throw new TypeError(`append to table ${tableId}: event ${index + 1} needs a non-empty string type`);
    }
    if (typeof event.at !== 'string' || event.at === '') {
      throw new TypeError(`append to table ${tableId}: event ${index + 1} (${event.type}) needs an ISO-8601 time in 'at'`);
    }
  });
}

export function checkTableId(tableId: string): void {
  if (typeof tableId !== 'string' || tableId === '') {
    throw new TypeError(`a table id must be a non-empty string, not ${JSON.stringify(tableId)}`);
  }
}

/** Throws unless the snapshot folds in events the table's log already holds. */
export function checkSnapshot(tableId: string, snapshot: StoredSnapshot, currentVersion: number): void {
  checkTableId(tableId);
  const { version } = snapshot;
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new RangeError(`snapshot of table ${tableId}: version must be a whole number >= 0, not ${version}`);
  }
  if (version > currentVersion) {
    throw new RangeError(
      `snapshot of table ${tableId} is at version ${version}, but the log is only at version ${currentVersion}; ` +
        'a snapshot may only fold in events already appended',
    );
  }
}

/**
 * The JSON text a store keeps for a value. `undefined` is kept as null, the
 * way JSON keeps it inside objects; anything JSON cannot hold is refused
 * here, before it reaches a transaction.
 */
export function toJson(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value ?? null);
  } catch (error) {
    throw new TypeError(`${what} is not JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw new TypeError(`${what} is not JSON (a ${typeof value})`);
  return text;
}

/** Throws when a retirement could never be valid, whatever the log holds; answers the record as JSON text. */
export function checkRetirement(tableId: string, retirement: Retirement): string {
  checkTableId(tableId);
  const { expectedVersion, at } = retirement;
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 1) {
    throw new RangeError(
      `retiring table ${tableId}: expectedVersion must be the version of its log, a whole number >= 1, not ${expectedVersion}`,
    );
  }
  if (typeof at !== 'string' || at === '') throw new TypeError(`retiring table ${tableId} needs an ISO-8601 time in 'at'`);
  return toJson(retirement.record, `the record of table ${tableId}`);
}
