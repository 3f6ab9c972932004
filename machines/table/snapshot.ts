/**
 * A table's state is XState's snapshot of its machine; a table in play is
 * an actor. Replays, records and the simulator drive actors too: the pure
 * `transition()` builds a throwaway actor on every call, which makes it
 * several times slower than sending to a live one.
 */
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import { machineFor, type TableMachine } from '../games/index.js';
import type { TableInput } from './context.js';
import type { TableEvent } from './events.js';

export type TableSnapshot = SnapshotFrom<TableMachine>;
export type TableActor = Actor<TableMachine>;

export type Phase = 'seating' | 'dealing' | 'passing' | 'trickPlay' | 'accusation' | 'scoring' | 'gameOver';

/** The top-level state: where in the flow of a game the table is. */
export function phaseOf(snapshot: { value: unknown }): Phase {
  const value = snapshot.value;
  return (typeof value === 'string' ? value : Object.keys(value as object)[0]) as Phase;
}

export function startTable(input: TableInput): TableActor {
  return createActor(machineFor(input.game, input.rules), { input }).start();
}

/**
 * Rebuilds a live table from a persisted snapshot (XState's own format),
 * into the machine of its rules version (the current rules by default).
 */
export function resumeTable(persisted: unknown, rules?: number): TableActor {
  const game = (persisted as { context?: { game?: unknown } })?.context?.game;
  const machine = machineFor(game as TableInput['game'], rules);
  // The input is only read to build a first context, which a restored snapshot already has.
  return createActor(machine, { snapshot: persisted as TableSnapshot, input: undefined as never }).start();
}

/**
 * Sends an event and tells whether the table took it. A machine that takes
 * no transition keeps its snapshot object, which is how a refusal shows.
 */
export function offer(table: TableActor, event: TableEvent): boolean {
  const before = table.getSnapshot();
  table.send(event);
  return table.getSnapshot() !== before;
}
