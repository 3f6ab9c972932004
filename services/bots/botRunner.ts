/**
 * Plays the bot seats of the running service. It is told of every accepted
 * change to a table and, when a bot seat is awaited, submits that bot's move
 * through the same path as a player's command, after a small delay (so
 * people can follow the play). One move at a time per table; each accepted
 * move is itself a change, which brings the next.
 */
import { heuristicMove } from '../../machines/bots/heuristicBot.js';
import { randomMove } from '../../machines/bots/randomBot.js';
import type { Rng } from '../../machines/cards/shuffle.js';
import { secureRng } from './secureRng.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { awaitedActions, type Action, type AwaitedAction } from '../../machines/table/refusal.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { viewFor } from '../../machines/view.js';
import type { Seat } from '../../machines/rules/trick.js';
import { isTableRefusal, type TableRefusal } from '../host/errors.js';
import { systemTimers, type Timer, type Timers } from '../clock/timers.js';

export type BotKind = 'heuristic' | 'random';
export const BOT_KINDS: readonly BotKind[] = ['heuristic', 'random'];
export const DEFAULT_BOT_KIND: BotKind = 'heuristic';

/** A bot's move for a seat. The heuristic bot is given only the seat's view. */
export function botMove(snapshot: TableSnapshot, seat: Seat, action: Action, kind: BotKind, rng: Rng): PlayerCommand {
  return kind === 'random' ? randomMove(snapshot, seat, action, rng) : heuristicMove(viewFor(snapshot, seat), action, rng);
}

/** The actions the table awaits from seats bots hold. */
export function awaitedBots(snapshot: TableSnapshot): AwaitedAction[] {
  const { occupants } = snapshot.context;
  return awaitedActions(snapshot).filter(({ seat }) => occupants[seat]?.bot === true);
}

export interface BotRunnerOptions {
  readonly snapshot: (tableId: string) => Promise<{ version: number; snapshot: TableSnapshot }>;
  readonly submit: (tableId: string, move: PlayerCommand) => Promise<unknown>;
  /** Wait before each bot move, in ms (0 in tests). */
  readonly delayMs?: number;
  /** The timers the wait runs on (the system's; a test's own clock in tests). */
  readonly timers?: Timers;
  readonly onError?: (error: unknown, tableId: string) => void;
}

export interface BotRunner {
  /** A table changed: plays its bots if any is awaited. `kindOf` says which bot plays a seat. */
  tableChanged(tableId: string, snapshot: TableSnapshot, kindOf: (seat: Seat) => BotKind): void;
  /** The table is no longer this runner's to play: a move waiting for its delay is dropped, none is scheduled after one under way. */
  letGo(tableId: string): void;
  /** Whether a bot move of the table is waiting or under way. */
  isPlaying(tableId: string): boolean;
  /** Stops scheduling moves and waits for the ones under way. */
  close(): Promise<void>;
}

interface TableLane {
  kindOf: (seat: Seat) => BotKind;
  timer?: Timer;
  running?: Promise<void>;
  /** A change arrived while a move was scheduled or under way: look again afterwards. */
  again: boolean;
  /** Let go while a move was under way: nothing follows it. */
  dropped?: boolean;
}

export function createBotRunner(options: BotRunnerOptions): BotRunner {
  const delayMs = options.delayMs ?? 0;
  const timers = options.timers ?? systemTimers;
  const onError = options.onError ?? ((error, tableId) => console.error(`bot move at table ${tableId} failed:`, error));
  const lanes = new Map<string, TableLane>();
  let closed = false;

  function schedule(tableId: string, lane: TableLane): void {
    lane.timer = timers.after(delayMs, () => {
      lane.timer = undefined;
      lane.running = playOneMove(tableId, lane).finally(() => {
        lane.running = undefined;
        if (lane.again && !closed && lane.dropped !== true) {
          lane.again = false;
          schedule(tableId, lane);
        } else if (lanes.get(tableId) === lane) {
          lanes.delete(tableId);
        }
      });
    });
  }

  async function playOneMove(tableId: string, lane: TableLane): Promise<void> {
    try {
      const { snapshot } = await options.snapshot(tableId);
      const [awaited] = awaitedBots(snapshot);
      if (awaited === undefined) return;
      const kind = lane.kindOf(awaited.seat);
      try {
        await options.submit(tableId, botMove(snapshot, awaited.seat, awaited.action, kind, secureRng));
      } catch (error) {
        // A heuristic move the table refuses is a bug to report, but must not stall the game: the random bot's move is always legal.
        if (!isTableRefusal(error) || tableMovedOn(error) || kind === 'random') throw error;
        onError(error, tableId);
        await options.submit(tableId, botMove(snapshot, awaited.seat, awaited.action, 'random', secureRng));
      }
    } catch (error) {
      // The table moved on between the look and the move (a player acted, a seat changed hands): the next change brings a new look.
      if (isTableRefusal(error) && tableMovedOn(error)) return;
      onError(error, tableId);
    }
  }

  return {
    tableChanged(tableId, snapshot, kindOf) {
      if (closed) return;
      const lane = lanes.get(tableId);
      if (lane !== undefined) {
        lane.kindOf = kindOf;
        lane.again = true;
        return;
      }
      if (awaitedBots(snapshot).length === 0) return;
      const fresh: TableLane = { kindOf, again: false };
      lanes.set(tableId, fresh);
      schedule(tableId, fresh);
    },

    letGo(tableId) {
      const lane = lanes.get(tableId);
      if (lane === undefined) return;
      lanes.delete(tableId);
      lane.dropped = true;
      lane.timer?.cancel();
    },

    isPlaying(tableId) {
      return lanes.has(tableId);
    },

    async close() {
      closed = true;
      const running: Promise<void>[] = [];
      for (const lane of lanes.values()) {
        lane.timer?.cancel();
        if (lane.running !== undefined) running.push(lane.running);
      }
      await Promise.allSettled(running);
      lanes.clear();
    },
  };
}

/** The table moved on between a bot's look and its move: a player acted, or a person took the bot's seat. */
function tableMovedOn(refusal: TableRefusal): boolean {
  return refusal.kind === 'notNow' || refusal.kind === 'notHolder';
}
