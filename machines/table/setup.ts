/**
 * The vocabulary every game machine is built from: the named guards and
 * actions of all fragments, so the diagrams show them by name.
 */
import { assign, setup } from 'xstate';
import type { TableContext, TableInput } from './context.js';
import type { TableEvent } from './events.js';
import { allSeatsTaken, freeSeat, seatJoinRefusal, seatLeaveRefusal, takeSeat } from '../fragments/seating.js';
import { dealHand, dealRefusal } from '../fragments/dealing.js';
import { allSeatsHavePassed, choosePasses, exchangePasses, passRefusal, tablePasses } from '../fragments/passing.js';
import { completeTrick, isLastCardOfHand, isLastCardOfTrick, playCard, playRefusal, startFirstTrick } from '../fragments/trickPlay.js';
import { accusationRefusal, allSeatsHaveAccused, recordAccusation } from '../fragments/accusation.js';
import { gameIsOver, recordHandScore } from '../fragments/scoring.js';

type Args = { context: TableContext; event: TableEvent };

/**
 * Guards on commands accept only the event they are written for, and only
 * when the fragment's refusal function finds nothing wrong, so the machine
 * and the explanation of a refusal can never disagree.
 */
export const tableSetup = setup({
  types: {
    context: {} as TableContext,
    events: {} as TableEvent,
    input: {} as TableInput,
  },
  guards: {
    seatIsOpen: ({ context, event }: Args) => event.type === 'seat.joined' && seatJoinRefusal(context, event) === null,
    seatIsTaken: ({ context, event }: Args) => event.type === 'seat.left' && seatLeaveRefusal(context, event) === null,
    allSeatsTaken: ({ context }: Args) => allSeatsTaken(context),
    isValidDeal: ({ context, event }: Args) => event.type === 'hand.dealt' && dealRefusal(context, event) === null,
    tableDoesNotPass: ({ context }: Args) => !tablePasses(context),
    isValidPass: ({ context, event }: Args) => event.type === 'cards.passed' && passRefusal(context, event) === null,
    allSeatsHavePassed: ({ context }: Args) => allSeatsHavePassed(context),
    isLegalPlay: ({ context, event }: Args) => event.type === 'card.played' && playRefusal(context, event) === null,
    isLegalLastCardOfTrick: ({ context, event }: Args) =>
      event.type === 'card.played' && isLastCardOfTrick(context) && playRefusal(context, event) === null,
    isLegalLastCardOfHand: ({ context, event }: Args) =>
      event.type === 'card.played' && isLastCardOfHand(context) && playRefusal(context, event) === null,
    isValidAccusation: ({ context, event }: Args) => event.type === 'traitor.accused' && accusationRefusal(context, event) === null,
    allSeatsHaveAccused: ({ context }: Args) => allSeatsHaveAccused(context),
    gameIsOver: ({ context }: Args) => gameIsOver(context),
  },
  actions: {
    takeSeat: assign(({ context, event }) => (event.type === 'seat.joined' ? takeSeat(context, event) : {})),
    freeSeat: assign(({ context, event }) => (event.type === 'seat.left' ? freeSeat(context, event) : {})),
    dealHand: assign(({ context, event }) => (event.type === 'hand.dealt' ? dealHand(context, event) : {})),
    choosePasses: assign(({ context, event }) => (event.type === 'cards.passed' ? choosePasses(context, event) : {})),
    exchangePasses: assign(({ context }) => exchangePasses(context)),
    startFirstTrick: assign(({ context }) => startFirstTrick(context)),
    playCard: assign(({ context, event }) => (event.type === 'card.played' ? playCard(context, event) : {})),
    completeTrick: assign(({ context }) => completeTrick(context)),
    recordAccusation: assign(({ context, event }) => (event.type === 'traitor.accused' ? recordAccusation(context, event) : {})),
    scoreHand: assign(({ context }) => recordHandScore(context)),
  },
});
