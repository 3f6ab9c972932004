/**
 * The listeners of one store instance. A failing listener is reported and
 * skipped: by the time listeners run the events are durable, so neither the
 * append nor the other listeners may fail with it.
 */
import type { EventListener, StoredEvent } from './eventStore.js';

/**
 * An appended event as its listeners hear it, its data parsed from the
 * stored JSON only when a listener reads it (then once). A fork or an import
 * appends thousands of events at once, and most listeners look at an
 * event's table and type alone: parsing every event's data for them held
 * the event loop for 100 ms and more per fork (issue 26). `data` is an own
 * enumerable property, so spreading, cloning and JSON see it as usual.
 */
export function heardEvent(seq: number, type: string, at: string, dataJson: string): StoredEvent {
  let parsed: { readonly data: unknown } | undefined;
  return {
    seq,
    type,
    at,
    get data() {
      parsed ??= { data: JSON.parse(dataJson) as unknown };
      return parsed.data;
    },
  };
}

export type ListenerErrorHandler = (error: unknown, tableId: string, event: StoredEvent) => void;

export interface Subscribers {
  /** Adds a listener; the returned function removes it (again and again is harmless). */
  add(listener: EventListener): () => void;
  publish(tableId: string, event: StoredEvent): void;
  readonly size: number;
}

function reportListenerError(error: unknown, tableId: string, event: StoredEvent): void {
  console.error(`event store listener failed on table ${tableId}, event ${event.seq} (${event.type}):`, error);
}

export function createSubscribers(onListenerError: ListenerErrorHandler = reportListenerError): Subscribers {
  // One entry per subscription, so the same function subscribed twice is called twice and unsubscribed once each.
  const entries = new Set<{ readonly listener: EventListener }>();
  return {
    add(listener) {
      const entry = { listener };
      entries.add(entry);
      return () => {
        entries.delete(entry);
      };
    },
    publish(tableId, event) {
      for (const entry of [...entries]) {
        if (!entries.has(entry)) continue; // unsubscribed by an earlier listener of this event
        try {
          entry.listener(tableId, event);
        } catch (error) {
          onListenerError(error, tableId, event);
        }
      }
    },
    get size() {
      return entries.size;
    },
  };
}
