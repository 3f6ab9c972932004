/**
 * A table's live views over the WebSocket. After a drop it reconnects with
 * `after` = the last version seen, so it misses no change and sees none twice.
 * Each version but a connection's first comes as what changed since the
 * version held (`views=changes`), applied here to make the whole view.
 */
import { nextVersionOf } from '../../../../machines/viewChanges.js';
import type { ChatMessage, ServerMessage, TimedOutMessage } from '../../socketProtocol.js';
import { socketUrl, type Rematch, type VersionedView } from './api.js';

export type LiveState = 'connecting' | 'open' | 'reconnecting';

export interface LiveHandlers {
  readonly onView: (update: VersionedView) => void;
  readonly onState: (state: LiveState) => void;
  readonly onRefused?: (message: string) => void;
  /** A rematch of the finished table proposed or answered (not a view: it is in no version). */
  readonly onRematch?: (rematch: Rematch) => void;
  /** A seat's time ran out and a bot moved for it. */
  readonly onTimedOut?: (notice: TimedOutMessage) => void;
  /** A seat said a preset phrase. */
  readonly onChat?: (message: ChatMessage) => void;
  /** The seat was left or changed hands (close code 4001): its token is no longer good. */
  readonly onSeatLost?: () => void;
}

const SEAT_CHANGED_HANDS = 4001;
/** socketProtocol.ts's GATEWAY_GOING_AWAY: a stopping gateway's hint to connect again at once. */
const GATEWAY_GOING_AWAY = 1012;

const MAX_DELAY_MS = 5_000;

/** Follows a table from the view held (its first view, read over HTTP) until the returned function is called. */
export function followTable(tableId: string, token: string | null, first: VersionedView, handlers: LiveHandlers): () => void {
  let held = first;
  let lastVersion = first.version;
  let socket: WebSocket | null = null;
  let retryDelay = 250;
  let retryTimer: number | undefined;
  let stopped = false;

  const see = (update: VersionedView) => {
    held = update;
    lastVersion = update.version;
    handlers.onView(update);
  };

  const connect = () => {
    handlers.onState(socket === null ? 'connecting' : 'reconnecting');
    socket = new WebSocket(socketUrl(tableId, token, lastVersion));
    // The first view of a connection is taken whatever its version: a service that lost its tables starts over.
    let firstOfConnection = true;
    socket.addEventListener('open', () => {
      retryDelay = 250;
      handlers.onState('open');
    });
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as ServerMessage;
      if (message.type === 'view') {
        if (message.version <= lastVersion && !firstOfConnection) return;
        firstOfConnection = false;
        see({ version: message.version, view: message.view, turnDeadline: message.turnDeadline, activeStates: message.activeStates });
      } else if (message.type === 'changes') {
        firstOfConnection = false;
        const next = nextVersionOf(held, message);
        // Changes to a version not held cannot be applied: connect again from the one held, which brings it whole.
        if (next === null) socket?.close();
        else see(next);
      } else if (message.type === 'refused') {
        handlers.onRefused?.(message.message);
      } else if (message.type === 'rematch') {
        handlers.onRematch?.(message.rematch);
      } else if (message.type === 'timedOut') {
        handlers.onTimedOut?.(message);
      } else if (message.type === 'chat') {
        handlers.onChat?.(message);
      }
    });
    socket.addEventListener('close', (event) => {
      if (stopped) return;
      if (event.code === SEAT_CHANGED_HANDS && token !== null) {
        stopped = true;
        handlers.onSeatLost?.();
        return;
      }
      handlers.onState('reconnecting');
      // A stopping gateway asks for a reconnect at once; spread over a moment, so its clients do not all land together.
      if (event.code === GATEWAY_GOING_AWAY) retryDelay = Math.random() * 250;
      retryTimer = window.setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, MAX_DELAY_MS);
    });
  };
  connect();

  return () => {
    stopped = true;
    window.clearTimeout(retryTimer);
    socket?.close();
  };
}
