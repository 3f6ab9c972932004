/**
 * The SQLite event store's appends: encoded at once (the caller may reuse
 * its objects as soon as append returns), committed through the group
 * commit, whose transaction checks each one's expected version in call
 * order; subscribers hear of the events just before the append resolves.
 */
import { TableRetired, VersionConflict, type NewEvent, type TableStatus } from './eventStore.js';
import type { CommitQueue } from './sqliteCommitQueue.js';
import type { EncodedEvent, WriteOutcome } from './sqliteWrites.js';
import { checkAppend, toJson } from './storeChecks.js';
import { heardEvent, type Subscribers } from './subscribers.js';

type Append = (tableId: string, events: readonly NewEvent[], expectedVersion: number, status?: TableStatus) => Promise<number>;

/** `checkOpen` throws once the store is closed: the append is refused before anything is queued. */
export function sqliteAppends(queue: CommitQueue, subscribers: Subscribers, checkOpen: () => void): Append {
  return (tableId, events, expectedVersion, status) =>
    new Promise<number>((resolve, reject) => {
      checkOpen();
      checkAppend(tableId, events, expectedVersion);
      const encoded: EncodedEvent[] = events.map((event, index) => ({
        type: event.type,
        at: event.at,
        dataJson: toJson(event.data, `data of event ${index + 1} (${event.type}) for table ${tableId}`),
      }));
      const statusJson = status === undefined ? undefined : toJson(status, `status of table ${tableId}`);
      const settle = (outcome: WriteOutcome) => {
        if (outcome.kind === 'alreadyRetired') {
          reject(new TableRetired(tableId));
          return;
        }
        if (outcome.kind !== 'appended') {
          reject(new VersionConflict(tableId, expectedVersion, outcome.kind === 'conflict' ? outcome.actualVersion : null));
          return;
        }
        if (subscribers.size > 0)
          encoded.forEach((event, index) =>
            subscribers.publish(tableId, heardEvent(expectedVersion + index + 1, event.type, event.at, event.dataJson)),
          );
        resolve(outcome.version);
      };
      queue.enqueue({ write: { kind: 'append', tableId, events: encoded, expectedVersion, statusJson }, settle, reject });
    });
}
