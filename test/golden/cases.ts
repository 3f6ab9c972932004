/**
 * The games of the golden corpus: every game and every value of each rules
 * option, a finished game of each game, and tables stopped at each kind of
 * moment a live table can be left at (mid-hand, mid-pass, mid-accusation,
 * waiting for a seat). Full deals throughout, as a record cannot say its
 * deal size; few enough games to keep the corpus to a few hundred KB. Each is played by seeded
 * random bots through a real TableHost on a fixed clock, so the same code
 * writes the same log byte for byte.
 */
import { createRng, type Rng } from '../../machines/cards/shuffle.js';
import type { PlayerCommand } from '../../machines/table/events.js';
import { nextBotMove } from '../../drivers/botTurns.js';
import { openLocalStorage } from '../../services/storage/storage.js';
import type { StoredEvent } from '../../services/eventstore/eventStore.js';
import { TableHost } from '../../services/host/tableHost.js';
import type { GameRecord } from '../../machines/record/record.js';
import { GAMES, type GameName } from '../../machines/table/options.js';
import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';
import { outcomeOf, type GoldenOutcome } from './outcome.js';

/** Where a game of the corpus is left: at its end, or at a moment a live table can be taken over at. */
type StopPoint = 'finished' | 'midHand' | 'midPass' | 'midAccusation' | 'seating';

export interface GoldenCase {
  readonly name: string;
  readonly game: GameName;
  readonly options: Record<string, string>;
  readonly stop: StopPoint;
  /** Lets the first seat's turn clock run out once, so the log holds a `turn.timedOut`. */
  readonly timeOutOnce?: boolean;
  /** The first seat leaves and is taken again by a person, so the log holds a seat change and a tenure. */
  readonly seatChange?: boolean;
}

export const GOLDEN_CASES: readonly GoldenCase[] = [
  { name: 'firstLesson-hands2-finished', game: 'firstLesson', options: { end: 'hands:2', specials: 'off' }, stop: 'finished' },
  { name: 'sevenSuitors-allSuits-off-finished', game: 'sevenSuitors', options: { end: 'allSuits', specials: 'off' }, stop: 'finished' },
  { name: 'sevenSuitors-hands1-plain-finished', game: 'sevenSuitors', options: { end: 'hands:1', specials: 'plain' }, stop: 'finished' },
  {
    name: 'sevenSuitors-marriages3-powers-finished',
    game: 'sevenSuitors',
    options: { end: 'marriages:3', specials: 'powers' },
    stop: 'finished',
  },
  {
    name: 'sevenSuitors-hands2-off-midPass',
    game: 'sevenSuitors',
    options: { end: 'hands:2', specials: 'off' },
    stop: 'midPass',
    timeOutOnce: true,
  },
  {
    name: 'sevenSuitors-allSuits-powers-midHand',
    game: 'sevenSuitors',
    options: { end: 'allSuits', specials: 'powers' },
    stop: 'midHand',
    seatChange: true,
  },
  { name: 'sevenSuitors-hands3-plain-seating', game: 'sevenSuitors', options: { end: 'hands:3', specials: 'plain' }, stop: 'seating' },
  { name: 'antiCupid-powers-oneEach-finished', game: 'antiCupid', options: { specials: 'powers', passing: 'oneEach' }, stop: 'finished' },
  { name: 'antiCupid-plain-oneEach-midPass', game: 'antiCupid', options: { specials: 'plain', passing: 'oneEach' }, stop: 'midPass' },
  {
    name: 'antiCupid-powers-none-midHand',
    game: 'antiCupid',
    options: { specials: 'powers', passing: 'none' },
    stop: 'midHand',
    timeOutOnce: true,
  },
  { name: 'traitorOfLove-plain-finished', game: 'traitorOfLove', options: { specials: 'plain' }, stop: 'finished' },
  { name: 'traitorOfLove-plain-midPass', game: 'traitorOfLove', options: { specials: 'plain' }, stop: 'midPass', seatChange: true },
  { name: 'traitorOfLove-powers-midHand', game: 'traitorOfLove', options: { specials: 'powers' }, stop: 'midHand' },
  {
    name: 'traitorOfLove-plain-midAccusation',
    game: 'traitorOfLove',
    options: { specials: 'plain' },
    stop: 'midAccusation',
    timeOutOnce: true,
  },
];

export interface PlayedCase {
  readonly log: StoredEvent[];
  /** Where the game stands at the end of the log. */
  readonly expected: GoldenOutcome;
  /** The finished game's record; null for a live table. */
  readonly record: GameRecord | null;
}

const START = Date.parse('2026-01-01T00:00:00.000Z');
/** Far more moves than any case needs: a case that never reaches its stop point fails instead of spinning. */
const MOVE_LIMIT = 5000;
/** The tenure (a seat token's hash) of the person who takes the first seat again. */
const RETURNING_HOLDER = 'a'.repeat(64);

export async function playGoldenCase(golden: GoldenCase): Promise<PlayedCase> {
  const store = openLocalStorage({ kind: 'memory' }).store;
  let tick = 0;
  const host = new TableHost({ store, now: () => new Date(START + 1000 * tick++) });
  try {
    const seats = GAMES[golden.game].seats;
    const players = Array.from({ length: seats }, (_, seat) =>
      golden.stop === 'seating' && seat === seats - 1 ? null : { name: `Bot ${seat}`, bot: true },
    );
    const { tableId } = await host.createTable({
      game: golden.game,
      options: golden.options,
      players,
      seed: `golden-${golden.name}`,
    });
    if (golden.seatChange) {
      await host.submit(tableId, { type: 'seat.left', seat: 0 });
      await host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Ann', bot: false }, holder: RETURNING_HOLDER });
    }
    const rng = createRng(golden.name);
    let timedOut = !golden.timeOutOnce;
    for (let moves = 0; golden.stop !== 'seating'; moves++) {
      if (moves > MOVE_LIMIT) throw new Error(`golden case ${golden.name} did not reach ${golden.stop} in ${MOVE_LIMIT} moves`);
      const { version, snapshot } = await host.snapshot(tableId);
      if (reached(golden.stop, snapshot)) break;
      const move = nextBotMove(snapshot, rng) ?? nextPersonMove(snapshot, rng);
      if (move === null) throw new Error(`golden case ${golden.name}: nobody is awaited in ${phaseOf(snapshot)}`);
      if (!timedOut && move.seat === 0) {
        await host.timeOut(tableId, version, move);
        timedOut = true;
      } else {
        await host.submit(tableId, move);
      }
    }
    const log = await host.events(tableId);
    const { snapshot } = await host.snapshot(tableId);
    return { log, expected: outcomeOf(snapshot), record: phaseOf(snapshot) === 'gameOver' ? await host.exportRecord(tableId) : null };
  } finally {
    await host.close();
    await store.close();
  }
}

/** A legal move of any seat the table awaits, people's seats too, chosen as a random bot would. */
export function nextPersonMove(snapshot: TableSnapshot, rng: Rng): PlayerCommand | null {
  const everyoneABot = {
    ...snapshot,
    context: { ...snapshot.context, occupants: snapshot.context.occupants.map(() => ({ name: '', bot: true })) },
  };
  return nextBotMove(everyoneABot as TableSnapshot, rng);
}

function reached(stop: StopPoint, snapshot: TableSnapshot): boolean {
  const phase = phaseOf(snapshot);
  const hand = snapshot.context.hand;
  switch (stop) {
    case 'finished':
      return phase === 'gameOver';
    case 'midPass':
      return phase === 'passing' && hand!.passChoices!.some((choice) => choice !== null);
    case 'midHand':
      return phase === 'trickPlay' && hand!.tricks.length >= 2 && (hand!.trick?.plays.length ?? 0) > 0;
    case 'midAccusation':
      return phase === 'accusation' && hand!.accusations!.some((accused) => accused !== null);
    case 'seating':
      return true;
  }
}
