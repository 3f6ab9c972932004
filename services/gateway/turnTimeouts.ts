/**
 * Tells a table's sockets when a seat's turn clock ran out and what the bot
 * did for it. The table's owner appends `turn.timedOut` and the move made
 * for the seat together (services/host/tableHost.ts), so the move is the
 * next event of that seat after it. Only a played card is named: a pass and
 * an accusation stay secret until the table reveals them.
 */
import type { StoredEvent } from '../eventstore/eventStore.js';
import { TURN_TIMED_OUT } from '../host/tableLog.js';
import type { TimedOutMessage } from './socketProtocol.js';
import type { TableNotices } from './tableNotices.js';

const ACTION_OF: Readonly<Record<string, TimedOutMessage['action']>> = {
  'card.played': 'play',
  'cards.passed': 'pass',
  'traitor.accused': 'accuse',
};

/** Starts telling; the returned function stops. */
export function tellTimeouts(
  changedAnywhere: (onChange: (tableId: string, event: StoredEvent) => void) => () => void,
  notices: TableNotices,
): () => void {
  /** Per table, the seats timed out whose move has not come yet. */
  const timedOut = new Map<string, Set<number>>();
  const dataOf = (event: StoredEvent) => (event.data ?? {}) as { seat?: unknown; card?: unknown };
  return changedAnywhere((tableId, event) => {
    // The table and type first: an event's data is parsed only when read (eventstore/subscribers.ts), and a fork's
    // thousands of events need none of it.
    if (event.type === TURN_TIMED_OUT) {
      const { seat } = dataOf(event);
      if (typeof seat !== 'number' || !notices.hears(tableId)) return;
      const seats = timedOut.get(tableId) ?? new Set<number>();
      seats.add(seat);
      timedOut.set(tableId, seats);
      return;
    }
    const seats = timedOut.get(tableId);
    const action = ACTION_OF[event.type];
    if (seats === undefined || action === undefined) return;
    const data = dataOf(event);
    if (typeof data.seat !== 'number' || !seats.delete(data.seat)) return;
    if (seats.size === 0) timedOut.delete(tableId);
    const card = action === 'play' && typeof data.card === 'string' ? (data.card as TimedOutMessage['card']) : null;
    notices.tellHere(tableId, { type: 'timedOut', seat: data.seat, action, card });
  });
}
