/**
 * Marriages: a side that captured both 7s of a suit in one hand marries it.
 * Captured 7s are public, so views show them too.
 */
import { faceOf, isSeven, type Card, type Suit } from '../cards/card.js';
import type { CompletedTrick, Marriage, Side } from '../table/context.js';
import type { Seat } from './trick.js';

export interface CapturedSeven {
  readonly card: Card;
  readonly seat: Seat;
}

/** Every 7 captured so far in the hand, with its captor, in the order captured. */
export function capturedSevens(tricks: readonly CompletedTrick[]): CapturedSeven[] {
  const sevens: CapturedSeven[] = [];
  for (const trick of tricks) {
    if (trick.capturedBy === null) continue;
    for (const play of trick.plays) if (isSeven(play.card)) sevens.push({ card: play.card, seat: trick.capturedBy });
  }
  return sevens;
}

/** The hand's marriages, by suit; a 7 set aside by a Chaperone marries nothing. */
export function marriagesOf(tricks: readonly CompletedTrick[], sideOfSeat: (seat: Seat) => Side): Marriage[] {
  const captorsBySuit = new Map<Suit, Seat[]>();
  for (const seven of capturedSevens(tricks)) {
    const suit = faceOf(seven.card)!.suit;
    const captors = captorsBySuit.get(suit) ?? [];
    captors.push(seven.seat);
    captorsBySuit.set(suit, captors);
  }
  const marriages: Marriage[] = [];
  for (const [suit, captors] of captorsBySuit) {
    if (captors.length !== 2) continue;
    const side = sideOfSeat(captors[0]);
    if (side === sideOfSeat(captors[1])) marriages.push({ suit, by: side });
  }
  return marriages.sort((a, b) => a.suit - b.suit);
}
