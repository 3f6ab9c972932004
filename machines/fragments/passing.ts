/**
 * Passing: every seat chooses its passes in secret; no card moves until all
 * have chosen, so a received card can never be passed on.
 */
import { isCard, type Card } from '../cards/card.js';
import type { CardsPassed } from '../table/events.js';
import { currentHand, isSeat, type Pass, type TableContext } from '../table/context.js';
import { rulesOf } from '../games/rules/index.js';
import type { Seat } from '../rules/trick.js';
import { seatRangeMessage } from './seating.js';

export function tablePasses(context: TableContext): boolean {
  return rulesOf(context.game).passes(context.options);
}

/** The seats a seat passes one card each to. */
export function passRecipients(context: Pick<TableContext, 'game' | 'seatCount'>, seat: Seat): Seat[] {
  return rulesOf(context.game).passRecipients(seat, context.seatCount);
}

export function passRefusal(context: TableContext, event: CardsPassed): string | null {
  const { seat, passes } = event;
  if (!isSeat(context, seat)) return seatRangeMessage(context, seat);
  const hand = currentHand(context);
  if (hand.passChoices === null) return 'this table does not pass cards';
  if (hand.passChoices[seat] !== null) return `seat ${seat} has already passed`;
  const recipients = passRecipients(context, seat);
  const mustPass = `seat ${seat} must pass one card to each of seats ${recipients.join(', ')}`;
  if (!Array.isArray(passes) || passes.length !== recipients.length) return mustPass;
  const cards = new Set<Card>();
  const targets = new Set<Seat>();
  for (const pass of passes) {
    if (typeof pass !== 'object' || pass === null) return mustPass;
    if (!recipients.includes(pass.to)) return `${mustPass}; ${JSON.stringify(pass.to)} is not one of them`;
    if (targets.has(pass.to)) return `${mustPass}; seat ${pass.to} is named twice`;
    if (!isCard(pass.card)) return `${JSON.stringify(pass.card)} is not a card`;
    if (!hand.holdings[seat].includes(pass.card)) return `${pass.card} is not in seat ${seat}'s hand`;
    if (cards.has(pass.card)) return `${pass.card} is passed twice`;
    targets.add(pass.to);
    cards.add(pass.card);
  }
  return null;
}

export function choosePasses(context: TableContext, event: CardsPassed): Partial<TableContext> {
  const hand = currentHand(context);
  const passChoices = hand.passChoices!.slice();
  passChoices[event.seat] = event.passes.map((pass): Pass => ({ from: event.seat, to: pass.to, card: pass.card }));
  return { hand: { ...hand, passChoices } };
}

export function allSeatsHavePassed(context: TableContext): boolean {
  const choices = context.hand?.passChoices;
  return choices?.every((choice) => choice !== null) ?? false;
}

export function seatsYetToPass(context: TableContext): Seat[] {
  const choices = context.hand?.passChoices ?? [];
  return choices.flatMap((choice, seat) => (choice === null ? [seat] : []));
}

export function exchangePasses(context: TableContext): Partial<TableContext> {
  const hand = currentHand(context);
  const passes = hand.passChoices!.flatMap((choice) => choice!);
  const holdings = hand.holdings.map((cards) => cards.slice());
  for (const pass of passes) holdings[pass.from] = holdings[pass.from].filter((card) => card !== pass.card);
  for (const pass of passes) holdings[pass.to].push(pass.card);
  return { hand: { ...hand, holdings, passes } };
}

const passingEvents = {
  'cards.passed': { guard: 'isValidPass', actions: 'choosePasses' },
} as const;

const exchangeWhenAllHavePassed = { guard: 'allSeatsHavePassed', actions: 'exchangePasses', target: 'trickPlay' } as const;

/** Passing in a game that always passes. */
export const passingState = {
  description: 'Every seat chooses its passes in secret; cards move once all have chosen.',
  always: exchangeWhenAllHavePassed,
  on: passingEvents,
} as const;

/** Passing in a game that never passes (a first lesson): left at once, so the chart has no transition the game cannot take. */
export const skippedPassingState = {
  description: 'This game does not pass: straight on to trick play.',
  always: { target: 'trickPlay' },
} as const;

/** Passing where a table option may turn it off (Anti-Cupid's `passing`). */
export const optionalPassingState = {
  description: 'Skipped unless the table passes; otherwise as in every passing game.',
  always: [{ guard: 'tableDoesNotPass', target: 'trickPlay' }, exchangeWhenAllHavePassed],
  on: passingEvents,
} as const;
