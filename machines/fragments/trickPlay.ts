/**
 * Trick play: the holder of the 1 card leads the first trick; the winner of
 * each trick leads the next until every card is played.
 */
import { ONE_CARD, describeNonCard, isCard } from '../cards/card.js';
import type { CardPlayed } from '../table/events.js';
import { currentHand, isSeat, type TableContext } from '../table/context.js';
import { legalPlays, playRefusal as trickPlayRefusal, resolveTrick, trumpAfterPlay, type Seat } from '../rules/trick.js';
import { holderOf } from './dealing.js';
import { seatRangeMessage } from './seating.js';

export function playRefusal(context: TableContext, event: CardPlayed): string | null {
  const { seat, card } = event;
  if (!isSeat(context, seat)) return seatRangeMessage(context, seat);
  if (!isCard(card)) return describeNonCard(card);
  const hand = currentHand(context);
  if (hand.turn !== seat) return `it is seat ${hand.turn}'s turn`;
  return trickPlayRefusal(seat, hand.holdings[seat], hand.trick?.plays ?? [], card);
}

export function legalPlaysFor(context: TableContext, seat: Seat) {
  const hand = currentHand(context);
  return hand.turn === seat ? legalPlays(hand.holdings[seat], hand.trick?.plays ?? []) : [];
}

export function startFirstTrick(context: TableContext): Partial<TableContext> {
  const hand = currentHand(context);
  const leader = holderOf(hand.holdings, ONE_CARD);
  return { hand: { ...hand, trick: { leader, plays: [] }, turn: leader } };
}

export function playCard(context: TableContext, event: CardPlayed): Partial<TableContext> {
  const hand = currentHand(context);
  const trick = hand.trick!;
  const holdings = hand.holdings.slice();
  holdings[event.seat] = holdings[event.seat].filter((card) => card !== event.card);
  // Trump is the suit of the first card led in the hand; a special card led first sets none.
  const trump = trumpAfterPlay(hand.trump, hand.tricks.length, event.card);
  const plays = [...trick.plays, { seat: event.seat, card: event.card }];
  return {
    hand: {
      ...hand,
      holdings,
      trump,
      trick: { leader: trick.leader, plays },
      turn: (event.seat + 1) % context.seatCount,
    },
  };
}

/** Whether a card played now would complete the trick. */
export function isLastCardOfTrick(context: TableContext): boolean {
  return context.hand?.trick?.plays.length === context.seatCount - 1;
}

/** Whether a card played now would be the last of the hand. */
export function isLastCardOfHand(context: TableContext): boolean {
  return isLastCardOfTrick(context) && context.hand!.holdings.reduce((sum, cards) => sum + cards.length, 0) === 1;
}

export function completeTrick(context: TableContext): Partial<TableContext> {
  const hand = currentHand(context);
  const trick = hand.trick!;
  const { winner, capturedBy } = resolveTrick(trick.plays, hand.trump, context.options.specials, context.seatCount);
  const tricks = [...hand.tricks, { leader: trick.leader, plays: trick.plays, winner, capturedBy }];
  const playedOut = hand.holdings.every((cards) => cards.length === 0);
  return {
    hand: {
      ...hand,
      tricks,
      trick: playedOut ? null : { leader: winner, plays: [] },
      turn: playedOut ? null : winner,
    },
  };
}

export const trickPlayState = {
  description: 'Tricks are played until every card is out.',
  entry: 'startFirstTrick',
  initial: 'leading',
  states: {
    leading: {
      description: 'The trick is empty; the seat to lead plays its first card.',
      on: { 'card.played': { guard: 'isLegalPlay', actions: 'playCard', target: 'following' } },
    },
    following: {
      description: 'The other seats play to the trick in turn; the last card resolves it.',
      on: {
        'card.played': [
          { guard: 'isLegalLastCardOfHand', actions: ['playCard', 'completeTrick'], target: 'playedOut' },
          { guard: 'isLegalLastCardOfTrick', actions: ['playCard', 'completeTrick'], target: 'leading' },
          { guard: 'isLegalPlay', actions: 'playCard' },
        ],
      },
    },
    playedOut: { type: 'final', description: 'Every card of the hand is played.' },
  },
} as const;
