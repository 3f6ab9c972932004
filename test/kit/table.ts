/**
 * The core test kit: a table given, an event accepted or refused, play
 * until a point of the game, on the pure machine alone (no host, no store),
 * so the core's own tests may use it too (.dependency-cruiser.cjs). Each
 * helper checks what it does, so a test that leans on it fails where the
 * machine goes wrong, not three steps later.
 */
import { expect } from 'vitest';
import { randomMove } from '../../machines/bots/randomBot.js';
import type { Rng } from '../../machines/cards/shuffle.js';
import { shuffleDeal } from '../../machines/fragments/dealing.js';
import type { Seat } from '../../machines/rules/trick.js';
import type { TableContext } from '../../machines/table/context.js';
import type { TableEvent } from '../../machines/table/events.js';
import { parseOptions, type GameName, type TableOptions } from '../../machines/table/options.js';
import { awaitedActions, refusalOf, type AwaitedAction } from '../../machines/table/refusal.js';
import { offer, phaseOf, startTable, type Phase, type TableActor, type TableSnapshot } from '../../machines/table/snapshot.js';

/** The game's options from `given` (rules options as a client names them), defaults filled in; a refused option fails. */
export function optionsOf(game: GameName, given: Record<string, unknown> = {}): TableOptions {
  const parsed = parseOptions(game, given);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.options;
}

export interface NewTable {
  /** Rules options as a client names them (the game's defaults otherwise). */
  readonly options?: Record<string, unknown>;
  /** Cards dealt to each seat (the whole deck shared out otherwise). */
  readonly cardsPerSeat?: number;
  /** Every seat taken, by people (`P0`, `P1`, ...), before the table is returned. */
  readonly seated?: boolean;
  /** The seats bots take (`'all'` for every seat): the other seats are taken by people. */
  readonly bots?: readonly Seat[] | 'all';
}

/** Given: a new table of `game`, empty unless `seated` or `bots` says who sits at it. */
export function newTable(game: GameName, { options, cardsPerSeat, seated = false, bots }: NewTable = {}): TableActor {
  const table = startTable({ game, options: optionsOf(game, options), cardsPerSeat });
  if (seated || bots !== undefined) seatEveryone(table, { bots });
  return table;
}

/** Every seat still open taken, by bots on the `bots` seats and by people on the others. */
export function seatEveryone(table: TableActor, { bots = [] }: { readonly bots?: readonly Seat[] | 'all' } = {}): void {
  const { occupants } = table.getSnapshot().context;
  occupants.forEach((occupant, seat) => {
    if (occupant !== null) return;
    const bot = bots === 'all' || bots.includes(seat);
    accept(table, { type: 'seat.joined', seat, player: { name: `P${seat}`, bot } });
  });
}

/** When: the table takes `event` (the rules find nothing wrong with it, and the machine moves). */
export function accept(table: TableActor, event: TableEvent): void {
  expect(refusalOf(table.getSnapshot(), event), JSON.stringify(event)).toBeNull();
  expect(offer(table, event)).toBe(true);
}

/** Then: `event` is refused with exactly `message`, and the table does not change at all. */
export function expectRefused(table: TableActor, event: unknown, message: string): void {
  const before = table.getSnapshot();
  const context = JSON.stringify(before.context);
  expect(refusalOf(before, event)).toBe(message);
  expect(offer(table, event as TableEvent)).toBe(false);
  expect(table.getSnapshot()).toBe(before);
  expect(JSON.stringify(table.getSnapshot().context)).toBe(context);
}

export interface PlaySettings {
  /** The host's deal (a seeded shuffle from the play's rng by default). */
  readonly deal?: (context: TableContext, rng: Rng) => TableEvent;
  /** A seat's move when the table awaits it (a random legal move by default). */
  readonly move?: (snapshot: TableSnapshot, awaited: AwaitedAction, rng: Rng) => TableEvent;
  /** Hears every event the table took on the way. */
  readonly accepted?: (event: TableEvent) => void;
}

/**
 * Plays on until `stop` holds: people take the open seats, the host deals,
 * the first seat awaited moves. Fails if the game ends first or nothing is
 * awaited, naming where it stuck.
 */
export function playUntil(table: TableActor, rng: Rng, stop: (snapshot: TableSnapshot) => boolean, settings: PlaySettings = {}): void {
  const { deal = shuffleDeal, move = (snapshot, { seat, action }, moveRng) => randomMove(snapshot, seat, action, moveRng) } = settings;
  const take = (event: TableEvent) => {
    accept(table, event);
    settings.accepted?.(event);
  };
  for (let snapshot = table.getSnapshot(); !stop(snapshot); snapshot = table.getSnapshot()) {
    const phase = phaseOf(snapshot);
    if (phase === 'gameOver') throw new Error('the game ended first');
    if (phase === 'seating') {
      const seat = snapshot.context.occupants.indexOf(null);
      take({ type: 'seat.joined', seat, player: { name: `P${seat}`, bot: false } });
    } else if (phase === 'dealing') take(deal(snapshot.context, rng));
    else {
      const [next] = awaitedActions(snapshot);
      if (next === undefined) throw new Error(`nothing to do in ${phase}`);
      take(move(snapshot, next, rng));
    }
  }
}

/** A stop for playUntil: the table is in `phase`. */
export const inPhase =
  (phase: Phase) =>
  (snapshot: TableSnapshot): boolean =>
    phaseOf(snapshot) === phase;
