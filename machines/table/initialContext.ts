/** A table's context before its first seat is taken, as the game's rules (machines/games/rules/) shape it. */
import { rulesOf } from '../games/rules/index.js';
import type { TableContext, TableInput } from './context.js';
import { cardsPerSeat } from './options.js';

export function initialContext(input: TableInput): TableContext {
  const rules = rulesOf(input.game);
  const seatCount = rules.seats;
  return {
    game: input.game,
    options: input.options,
    seatCount,
    cardsPerSeat: input.cardsPerSeat ?? cardsPerSeat(input.game, input.options),
    occupants: Array.from({ length: seatCount }, () => null),
    holders: Array.from({ length: seatCount }, () => null),
    hand: null,
    handResults: [],
    revealedDeals: [],
    nextDeal: input.firstCommitment === undefined ? null : { index: 0, commitment: input.firstCommitment },
    lastHand: null,
    scores: Array.from({ length: seatCount }, () => 0),
    marked: rules.marksSuits ? { A: [], B: [] } : null,
    marriageCount: rules.marksSuits ? { A: 0, B: 0 } : null,
    tieBreak: false,
    firstAntiCupid: null,
    outcome: null,
  };
}
