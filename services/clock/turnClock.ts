/**
 * The turn clock. A table created with `turnSeconds` gives the seats it
 * awaits that long from its last event; when the time runs out the host
 * records `turn.timedOut` and a bot's move for each seat still awaited.
 *
 * Deadlines come from the log alone (the `at` of the last event and the
 * table's settings), never from a timer's memory, so they survive
 * passivation and restarts: a service that starts after a deadline passed
 * times the seats out at once.
 */
import { heuristicMove } from '../../machines/bots/heuristicBot.js';
import { secureRng } from '../bots/secureRng.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { awaitedActions, type AwaitedAction } from '../../machines/table/refusal.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { viewFor } from '../../machines/view.js';
import { isTableRefusal } from '../host/errors.js';
import { systemTimers, type Timer, type Timers } from './timers.js';

/** The awaited actions the clock runs for: those of seats not held by a bot (bots move by themselves). */
export function clockedActions(snapshot: TableSnapshot): AwaitedAction[] {
  const { occupants } = snapshot.context;
  return awaitedActions(snapshot).filter(({ seat }) => occupants[seat]?.bot !== true);
}

/** When the turn clock runs out (ISO time), or null when the table has no clock or awaits no player. */
export function turnDeadline(snapshot: TableSnapshot, turnSeconds: number | null, lastEventAt: string): string | null {
  if (turnSeconds === null || clockedActions(snapshot).length === 0) return null;
  return new Date(Date.parse(lastEventAt) + turnSeconds * 1000).toISOString();
}

export interface TurnClockOptions {
  readonly snapshot: (tableId: string) => Promise<{ version: number; snapshot: TableSnapshot }>;
  /** Records a timeout and the move made for the seat, if the table is still at `version`. */
  readonly timeOut: (tableId: string, version: number, move: PlayerCommand) => Promise<{ version: number }>;
  /** The clock deadlines are read against (the host's; `timers.now` by default). */
  readonly now?: () => number;
  /** The timers that wait for the deadlines (the system's; a test's own clock in tests). */
  readonly timers?: Timers;
  readonly onError?: (error: unknown, tableId: string) => void;
}

export interface TurnClock {
  /** A table changed: (re)sets its timer for `deadline` (turnDeadline of the change), or clears it. */
  tableChanged(tableId: string, version: number, deadline: string | null): void;
  /** How many tables have a clock running. */
  readonly running: number;
  /** Whether the table's clock is running (or its timeout under way). */
  isRunning(tableId: string): boolean;
  close(): Promise<void>;
}

export function createTurnClock(options: TurnClockOptions): TurnClock {
  const timers = options.timers ?? systemTimers;
  const now = options.now ?? timers.now;
  const onError = options.onError ?? ((error, tableId) => console.error(`turn clock of table ${tableId} failed:`, error));
  const waiting = new Map<string, Timer>();
  const expiring = new Set<Promise<void>>();
  const expiringTables = new Set<string>();
  let closed = false;

  async function expire(tableId: string, version: number): Promise<void> {
    const current = await options.snapshot(tableId);
    if (current.version !== version) return;
    // Every seat still awaited runs out together; their moves do not depend on one another (passes and accusations are secret until all are in).
    const moves = clockedActions(current.snapshot).map(({ seat, action }) =>
      heuristicMove(viewFor(current.snapshot, seat), action, secureRng),
    );
    let at = version;
    for (const move of moves) {
      try {
        at = (await options.timeOut(tableId, at, move)).version;
      } catch (error) {
        // Someone acted just in time: the table moved on and its next change sets the clock again.
        if (isTableRefusal(error) && error.kind === 'notNow') return;
        throw error;
      }
    }
  }

  return {
    tableChanged(tableId, version, deadline) {
      waiting.get(tableId)?.cancel();
      waiting.delete(tableId);
      if (deadline === null || closed) return;
      const due = Date.parse(deadline);
      const arm = () => {
        const timer = timers.after(
          due - now(),
          () => {
            // A timer may fire a millisecond before the wall clock reaches its deadline: the timeout is never early.
            if (now() < due) return arm();
            waiting.delete(tableId);
            expiringTables.add(tableId);
            const run = expire(tableId, version)
              .catch((error: unknown) => onError(error, tableId))
              .finally(() => {
                expiring.delete(run);
                expiringTables.delete(tableId);
              });
            expiring.add(run);
          },
          // A deadline is kept in the log, not in the timer: a process may end before it.
          { keepsProcessAlive: false },
        );
        waiting.set(tableId, timer);
      };
      arm();
    },

    isRunning(tableId) {
      return waiting.has(tableId) || expiringTables.has(tableId);
    },

    get running() {
      return waiting.size;
    },

    async close() {
      closed = true;
      for (const timer of waiting.values()) timer.cancel();
      waiting.clear();
      await Promise.allSettled([...expiring]);
    },
  };
}
