/**
 * A Traitor of Love's accusation: after the last trick every seat secretly
 * names one of its two teammates (the Traitor too, so nothing gives them
 * away); the Traitor is revealed once all have named.
 */
import type { TraitorAccused } from '../table/events.js';
import { currentHand, isSeat, type TableContext } from '../table/context.js';
import { teammatesOf } from '../rules/sides.js';
import type { Seat } from '../rules/trick.js';
import { seatRangeMessage } from './seating.js';

export function accusationRefusal(context: TableContext, event: TraitorAccused): string | null {
  const { seat, accused } = event;
  if (!isSeat(context, seat)) return seatRangeMessage(context, seat);
  const hand = currentHand(context);
  if (hand.accusations![seat] !== null) return `seat ${seat} has already named a teammate`;
  const mates = teammatesOf(seat, context.seatCount);
  if (!mates.includes(accused)) {
    return `seat ${seat} must name one of its teammates, seat ${mates[0]} or seat ${mates[1]}, not ${JSON.stringify(accused)}`;
  }
  return null;
}

export function recordAccusation(context: TableContext, event: TraitorAccused): Partial<TableContext> {
  const hand = currentHand(context);
  const accusations = hand.accusations!.slice();
  accusations[event.seat] = event.accused;
  return { hand: { ...hand, accusations } };
}

export function allSeatsHaveAccused(context: TableContext): boolean {
  return context.hand?.accusations?.every((accused) => accused !== null) ?? false;
}

export function seatsYetToAccuse(context: TableContext): Seat[] {
  return (context.hand?.accusations ?? []).flatMap((accused, seat) => (accused === null ? [seat] : []));
}

export const accusationState = {
  description: 'Every seat secretly names the teammate it suspects.',
  on: {
    'traitor.accused': { guard: 'isValidAccusation', actions: 'recordAccusation' },
  },
  always: { guard: 'allSeatsHaveAccused', target: 'scoring' },
} as const;
