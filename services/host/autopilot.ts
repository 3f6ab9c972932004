/**
 * What a table does by itself: its bots play and its turn clock runs out.
 * The table's owner runs them as part of the table's life (the TableHost of
 * the embedded service; on NATS, the worker holding the table's lease), so
 * no gateway holds anything a table needs. The owner tells the autopilot of
 * every committed state of a table it holds, and when it lets a table go.
 *
 * Nothing here is remembered that the log does not say: a deadline comes
 * from the last event's time and the table's settings, a bot is awaited
 * because the state awaits it. An owner that takes a table up (a start, a
 * rehydration, a takeover) re-arms both from the log. Moves go through the
 * owner's own queue with the expected version, so a deposed owner's move is
 * refused by the log, never recorded twice.
 */
import type { PlayerCommand } from '../../machines/table/events.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import { createBotRunner } from '../bots/botRunner.js';
import { createTurnClock, turnDeadline } from '../clock/turnClock.js';
import type { Timers } from '../clock/timers.js';
import { isVersionConflict } from '../eventstore/eventStore.js';
import { isTableRefusal } from './errors.js';
import { botKindOf, type TableSettings } from './tableSettings.js';

/** A table as its owner has just committed or taken it up. */
export interface TableState {
  readonly tableId: string;
  readonly version: number;
  readonly snapshot: TableSnapshot;
  readonly settings: TableSettings;
  /** When the last event was accepted (ISO): the turn clock runs from it. */
  readonly lastEventAt: string;
}

/** Who made a move the table made by itself. */
export type OwnMoveSource = 'bot' | 'clock';

/** A move a table made by itself, settled: accepted, or refused with the refusal's kind ('versionConflict' for a move another owner's append overtook, 'internal' for a failure). */
export interface OwnMove {
  readonly tableId: string;
  readonly source: OwnMoveSource;
  readonly outcome: 'accepted' | { readonly refused: string };
  readonly seconds: number;
}

export type OwnMoveListener = (move: OwnMove) => void;

/**
 * The owner's calls the autopilot moves through; they run in the table's
 * queue like any command, and refuse with NotTheOwner when, by the time
 * the move's turn in the queue comes, the owner may no longer act.
 */
export interface AutopilotOwner {
  snapshot(tableId: string): Promise<{ version: number; snapshot: TableSnapshot }>;
  botMove(tableId: string, move: PlayerCommand): Promise<{ version: number }>;
  timeOut(tableId: string, version: number, move: PlayerCommand): Promise<{ version: number }>;
}

export interface AutopilotOptions {
  /** Wait before each bot move, in ms (600 by default, so people can follow the play; 0 in tests). */
  readonly botDelayMs?: number;
  /**
   * Whether this owner may act for the table now (a worker: it still holds
   * the table's lease). A move is dropped, not made, when it may not.
   */
  readonly mayAct?: (tableId: string) => boolean;
  /** A bot move or timeout failed for another reason than the table having moved on. */
  readonly onError?: (error: unknown, tableId: string) => void;
  /**
   * A move the table owed was not made, for another reason than the table
   * having moved on (an append that failed, a lease in doubt): nothing is
   * armed for the table any more, so its owner must take it up again.
   */
  readonly onMoveLost?: (tableId: string) => void;
  readonly now?: () => number;
  /** The timers the bots' delay and the turn clock wait on (the system's; a test's own clock in tests). */
  readonly timers?: Timers;
}

export const DEFAULT_BOT_DELAY_MS = 600;

export class Autopilot {
  private readonly bots;
  private readonly clock;
  private readonly mayAct: (tableId: string) => boolean;
  private readonly listeners = new Set<OwnMoveListener>();

  constructor(owner: AutopilotOwner, options: AutopilotOptions = {}) {
    this.mayAct = options.mayAct ?? (() => true);
    const report = options.onError ?? ((error, tableId) => console.error(`table ${tableId} could not move by itself:`, error));
    // A table given up between the look and the move is its new owner's to move: nothing went wrong.
    const onError = (error: unknown, tableId: string) => {
      options.onMoveLost?.(tableId);
      if (!(error instanceof NotTheOwner)) report(error, tableId);
    };
    // Looked at only while this owner may act: a look loads the table, and would take up one that is now another's.
    const snapshot = (tableId: string) => (this.mayAct(tableId) ? owner.snapshot(tableId) : Promise.reject(new NotTheOwner(tableId)));
    this.bots = createBotRunner({
      snapshot,
      submit: (tableId, move) => this.measured('bot', tableId, () => owner.botMove(tableId, move)),
      delayMs: options.botDelayMs ?? DEFAULT_BOT_DELAY_MS,
      timers: options.timers,
      onError,
    });
    this.clock = createTurnClock({
      snapshot,
      timeOut: (tableId, version, move) => this.measured('clock', tableId, () => owner.timeOut(tableId, version, move)),
      onError,
      timers: options.timers,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  }

  /** The owner committed a change to the table, or took it up: arm what it awaits, disarm what it no longer does. */
  tableChanged(table: TableState): void {
    this.bots.tableChanged(table.tableId, table.snapshot, (seat) => botKindOf(table.settings, seat));
    this.clock.tableChanged(table.tableId, table.version, turnDeadline(table.snapshot, table.settings.turnSeconds, table.lastEventAt));
  }

  /** The owner lets the table go: another owner re-arms it from the log. */
  letGo(tableId: string): void {
    this.bots.letGo(tableId);
    this.clock.tableChanged(tableId, 0, null);
  }

  /** Whether the table has a bot move or a timeout to come (an owner keeps such a table rather than letting it go idle). */
  isArmed(tableId: string): boolean {
    return this.bots.isPlaying(tableId) || this.clock.isRunning(tableId);
  }

  /** Hears every move the tables make by themselves (for metrics). */
  onOwnMove(listener: OwnMoveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    return Promise.all([this.bots.close(), this.clock.close()]).then(() => undefined);
  }

  private async measured<T>(source: OwnMoveSource, tableId: string, move: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      const done = await move();
      this.settled({ tableId, source, outcome: 'accepted', seconds: (performance.now() - started) / 1000 });
      return done;
    } catch (error) {
      // Not a move made and refused: one this owner no longer had to make (its lease went while the move waited).
      if (error instanceof NotTheOwner) throw error;
      const refused = isTableRefusal(error) ? error.kind : isVersionConflict(error) ? 'versionConflict' : 'internal';
      this.settled({ tableId, source, outcome: { refused }, seconds: (performance.now() - started) / 1000 });
      throw error;
    }
  }

  private settled(move: OwnMove): void {
    for (const listener of this.listeners) listener(move);
  }
}

/** The owner no longer holds the table: its new owner makes the move. */
export class NotTheOwner extends Error {
  constructor(readonly tableId: string) {
    super(`table ${tableId} is no longer this owner's; its new owner moves for it`);
    this.name = 'NotTheOwner';
  }
}
