/**
 * The game record (docs/record-format.md): the types of the document, and
 * the conversions between a table's events and a record.
 */
import { inCanonicalOrder, type Card, type Suit } from '../cards/card.js';
import type { DealFairness, DealScheme } from '../fairness/fairDeal.js';
import { rulesOf } from '../games/rules/index.js';
import { revealedDealsOf, type GameOutcome, type HandResult, type TableInput } from '../table/context.js';
import type { Occupant, TableEvent } from '../table/events.js';
import { GAMES, type GameName, type TableOptions } from '../table/options.js';
import { offer, startTable, type TableSnapshot } from '../table/snapshot.js';
import { outcomeSoFar } from '../rules/scoring.js';
import type { Seat } from '../rules/trick.js';

export const RECORD_FORMAT = 'seven-suitors-record/3';
/** The second format: deals proven by their seeds, with no contributions (scheme 1 only). Still read and verified. */
export const RECORD_FORMAT_2 = 'seven-suitors-record/2';
/** The first format, whose hands carry no fairness: still read and verified, its deals reported unverified. */
export const RECORD_FORMAT_1 = 'seven-suitors-record/1';
type RecordFormat = typeof RECORD_FORMAT | typeof RECORD_FORMAT_2 | typeof RECORD_FORMAT_1;

/** How a hand's deal can be checked (docs/fairness.md); the seed is null until the hand is scored. */
interface RecordedFairness {
  scheme: DealScheme;
  commitment: string;
  seed: string | null;
  /**
   * Format 3: each seat's contribution (null: it sent none) to a scheme 2
   * deal, revealed with the seed (null until then); null for a scheme 1
   * deal. Absent in format 2.
   */
  contributions?: (string | null)[] | null;
}

export interface RecordedHand {
  deal: Card[][];
  roles: Suit[] | null;
  antiCupid: Seat | null;
  passes: { from: Seat; to: Seat; card: Card }[];
  plays: [Seat, Card][];
  accusations: (Seat | null)[] | null;
  result: HandResult | null;
  /** Format 2: null for a deal made without a seed (before deals were provable); absent in format 1. */
  fairness?: RecordedFairness | null;
}

export interface GameRecord {
  format: RecordFormat;
  game: GameName;
  options: TableOptions & Record<string, unknown>;
  /**
   * The rules version the game was played under (machines/games/rulebooks.ts).
   * Absent from records written before records carried it: those games were
   * all played under rules 1.
   */
  rules?: number;
  seats: number;
  hands: RecordedHand[];
  result: GameOutcome;
}

/**
 * Writes the record of a game from its events, folding them through the
 * machine so that every result in it is the machine's own.
 */
export function recordFromEvents(input: TableInput, events: readonly TableEvent[]): GameRecord {
  const table = startTable(input);
  const hands: RecordedHand[] = [];
  for (const event of events) {
    if (offer(table, event)) noteEvent(hands, table.getSnapshot(), event);
  }
  table.stop();
  return recordOf(input, hands, table.getSnapshot());
}

export function recordOf(input: TableInput, hands: RecordedHand[], snapshot: TableSnapshot): GameRecord {
  return {
    format: RECORD_FORMAT,
    game: input.game,
    options: { ...input.options },
    ...(input.rules === undefined ? {} : { rules: input.rules }),
    seats: GAMES[input.game].seats,
    hands,
    result: outcomeSoFar(snapshot.context),
  };
}

/** Adds an accepted event to the hands of a record under construction. */
export function noteEvent(hands: RecordedHand[], after: TableSnapshot, event: TableEvent): void {
  const { context } = after;
  if (event.type === 'hand.dealt') {
    hands.push({
      // A log written before deals were provable holds each seat's cards in dealt order, which can give its shuffle away.
      deal: event.deal.map((cards) => inCanonicalOrder(cards)),
      roles: event.roles === null ? null : event.roles.slice(),
      antiCupid: context.hand!.antiCupid,
      passes: [],
      plays: [],
      accusations: rulesOf(context.game).accuses ? new Array<Seat | null>(context.seatCount).fill(null) : null,
      result: null,
      fairness:
        event.fairness === undefined
          ? null
          : { scheme: event.fairness.scheme, commitment: event.fairness.commitment, seed: null, contributions: null },
    });
    return;
  }
  const current = hands[hands.length - 1];
  if (current === undefined) return;
  if (event.type === 'cards.passed') {
    for (const pass of event.passes) current.passes.push({ from: event.seat, to: pass.to, card: pass.card });
  } else if (event.type === 'card.played') {
    current.plays.push([event.seat, event.card]);
  } else if (event.type === 'traitor.accused') {
    current.accusations![event.seat] = event.accused;
  }
  if (context.handResults.length === hands.length && current.result === null) {
    current.result = context.handResults[hands.length - 1];
    const revealed = revealedDealsOf(context).find((deal) => deal.index === hands.length - 1);
    if (current.fairness && revealed !== undefined) {
      current.fairness.seed = revealed.seed;
      current.fairness.contributions = revealed.contributions === undefined ? null : revealed.contributions.slice();
    }
  }
}

/** Players of an imported game: the record names none, so seats are named by number. */
export function importedOccupant(seat: Seat): Occupant {
  return { name: `Seat ${seat}`, bot: false };
}

/**
 * The events that replay a record: seats taken, then each hand's deal,
 * passes (one event per passing seat), plays and accusations, in the order
 * the rules need them. Results are not events: the machine derives them.
 */
export function eventsFromRecord(record: GameRecord): TableEvent[] {
  const events: TableEvent[] = [];
  for (let seat = 0; seat < record.seats; seat++) events.push({ type: 'seat.joined', seat, player: importedOccupant(seat) });
  for (const hand of record.hands) events.push(...eventsOfHand(hand));
  return events;
}

/** The proof a deal event carries for a hand's recorded fairness: none until its seed is revealed. */
function provenBy(proof: RecordedFairness | null | undefined): DealFairness | undefined {
  if (typeof proof?.seed !== 'string') return undefined;
  const { scheme, commitment, seed, contributions } = proof;
  return Array.isArray(contributions) ? { scheme, commitment, seed, contributions } : { scheme, commitment, seed };
}

/**
 * A hand's events. Its deal carries its proof when the record reveals the
 * seed; a hand cut off before its seed was revealed goes on unproven.
 */
export function eventsOfHand(hand: RecordedHand): TableEvent[] {
  const fairness = provenBy(hand.fairness);
  const events: TableEvent[] = [
    { type: 'hand.dealt', deal: hand.deal, roles: hand.roles, ...(fairness === undefined ? {} : { fairness }) },
  ];
  const passers = [...new Set(hand.passes.map((pass) => pass.from))].sort((a, b) => a - b);
  for (const seat of passers) {
    const passes = hand.passes.filter((pass) => pass.from === seat).map(({ to, card }) => ({ to, card }));
    events.push({ type: 'cards.passed', seat, passes });
  }
  for (const [seat, card] of hand.plays) events.push({ type: 'card.played', seat, card });
  (hand.accusations ?? []).forEach((accused, seat) => {
    if (accused !== null) events.push({ type: 'traitor.accused', seat, accused });
  });
  return events;
}
