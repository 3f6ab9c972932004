/**
 * Plays whole games with bots (random ones unless told otherwise) through
 * the real machines, taking the host's part too (seating the bots and
 * dealing). A simulation has no one to
 * hide its deals from, so each hand's seed is drawn from the seeded rng: the
 * same seed plays the same games, and every deal is still provable.
 */
import { createRng, seedFrom, type Rng } from '../../machines/cards/shuffle.js';
import { noteEvent, recordOf, type GameRecord, type RecordedHand } from '../../machines/record/record.js';
import { fairDeal } from '../../machines/fragments/dealing.js';
import { randomMove } from '../../machines/bots/randomBot.js';
import type { TableInput } from '../../machines/table/context.js';
import type { PlayerCommand, TableEvent } from '../../machines/table/events.js';
import { awaitedActions, type Action } from '../../machines/table/refusal.js';
import type { Seat } from '../../machines/rules/trick.js';
import { offer, phaseOf, startTable, type TableSnapshot } from '../../machines/table/snapshot.js';

export interface SimulationSettings extends TableInput {
  readonly seed: number | string;
  /** Stop before dealing this many hands more; the game is then unfinished. */
  readonly maxHands?: number;
  /** How the bots choose a move: at random unless told otherwise (the lab plays the heuristic bot too). */
  readonly move?: BotMove;
}

export type BotMove = (snapshot: TableSnapshot, seat: Seat, action: Action, rng: Rng) => PlayerCommand;

export interface SimulatedGame {
  readonly events: TableEvent[];
  readonly snapshot: TableSnapshot;
  /** The game's record, written as it was played. */
  readonly record: GameRecord;
}

/** The next event the host or a bot would send, or null when the game has nothing more to do. */
export function nextSimulatedEvent(snapshot: TableSnapshot, rng: Rng, maxHands = Infinity, move: BotMove = randomMove): TableEvent | null {
  const phase = phaseOf(snapshot);
  if (phase === 'gameOver') return null;
  const { context } = snapshot;
  if (phase === 'seating') {
    const seat = context.occupants.indexOf(null);
    return { type: 'seat.joined', seat, player: { name: `Bot ${seat}`, bot: true } };
  }
  if (phase === 'dealing') return context.handResults.length >= maxHands ? null : fairDeal(context, seedFrom(rng));
  const awaited = awaitedActions(snapshot);
  const { seat, action } = awaited[rng.below(awaited.length)];
  return move(snapshot, seat, action, rng);
}

export function simulateGame(settings: SimulationSettings): SimulatedGame {
  const rng = createRng(settings.seed);
  const table = startTable(settings);
  const events: TableEvent[] = [];
  const hands: RecordedHand[] = [];
  for (let event = nextSimulatedEvent(table.getSnapshot(), rng, settings.maxHands, settings.move); event !== null; ) {
    if (!offer(table, event)) throw new Error(`the machine refused a simulated ${event.type}: ${JSON.stringify(event)}`);
    events.push(event);
    noteEvent(hands, table.getSnapshot(), event);
    event = nextSimulatedEvent(table.getSnapshot(), rng, settings.maxHands, settings.move);
  }
  table.stop();
  const snapshot = table.getSnapshot();
  return { events, snapshot, record: recordOf(settings, hands, snapshot) };
}
