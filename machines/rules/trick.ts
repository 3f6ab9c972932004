/**
 * Trick play common to the three games (docs/rules.md, "Trick play" and
 * "Special cards"): what may be played, and who wins and captures a trick.
 */
import { cardInWords, faceOf, isSpecial, suitOf, SUIT_NAMES, type Card, type SpecialCard, type Suit } from '../cards/card.js';
import type { Specials } from '../table/optionTypes.js';

export type Seat = number;

export interface Play {
  readonly seat: Seat;
  readonly card: Card;
}

export interface TrickOutcome {
  /** The seat that won the trick and leads the next one. */
  readonly winner: Seat;
  /** The seat that takes the cards; null when a Chaperone set them aside. */
  readonly capturedBy: Seat | null;
}

/** The suit led: that of the first suit card in the trick (a special card led sets none). */
export function ledSuitOf(plays: readonly Play[]): Suit | null {
  for (const play of plays) {
    const suit = suitOf(play.card);
    if (suit !== undefined) return suit;
  }
  return null;
}

/**
 * Whether `card`, held in `holding`, may be played to a trick holding
 * `plays`. Special cards may always be played, but not led while a suit
 * card is held; a suit card must follow the suit led when it can.
 */
export function mayPlay(holding: readonly Card[], plays: readonly Play[], card: Card): boolean {
  if (!holding.includes(card)) return false;
  if (isSpecial(card)) return plays.length > 0 || holding.every(isSpecial);
  const led = ledSuitOf(plays);
  if (led === null || suitOf(card) === led) return true;
  return !holding.some((held) => suitOf(held) === led);
}

export function legalPlays(holding: readonly Card[], plays: readonly Play[]): Card[] {
  return holding.filter((card) => mayPlay(holding, plays, card));
}

/**
 * Why `card` may not be played from `holding` to a trick holding `plays`,
 * or null when it may. Turn and phase are the caller's business.
 */
export function playRefusal(seat: Seat, holding: readonly Card[], plays: readonly Play[], card: Card): string | null {
  if (!holding.includes(card)) return `${card} is not in seat ${seat}'s hand`;
  if (mayPlay(holding, plays, card)) return null;
  if (plays.length === 0) {
    const suitCard = holding.find((held) => !isSpecial(held))!;
    return `seat ${seat} may not lead a special card while it holds a suit card: ${cardInWords(suitCard)} is in its hand`;
  }
  const led = ledSuitOf(plays)!;
  const follower = holding.find((held) => suitOf(held) === led)!;
  return `seat ${seat} must follow ${SUIT_NAMES[led]}, the suit led (${led}): ${cardInWords(follower)} is in its hand`;
}

/**
 * The winner under the plain rules: highest trump, else highest card of the
 * suit led; a strict comparison keeps the first-played of two tied 7s ahead.
 * A trick of special cards only is won by its leader.
 */
/**
 * The hand's trump once `card` is played after `completedTricks` tricks:
 * the suit of the first suited card of the hand's first trick, fixed from
 * then on (docs/rules.md, "Trump").
 */
export function trumpAfterPlay(trump: Suit | null, completedTricks: number, card: Card): Suit | null {
  return trump ?? (completedTricks === 0 ? (suitOf(card) ?? null) : null);
}

export function plainWinner(plays: readonly Play[], trump: Suit | null): Seat {
  const led = ledSuitOf(plays);
  let best: Play | undefined;
  let bestRank = 0;
  let bestIsTrump = false;
  for (const play of plays) {
    const face = faceOf(play.card);
    if (face === undefined) continue;
    const isTrump = face.suit === trump;
    if (!isTrump && face.suit !== led) continue;
    if (best === undefined || (isTrump && !bestIsTrump) || (isTrump === bestIsTrump && face.rank > bestRank)) {
      best = play;
      bestRank = face.rank;
      bestIsTrump = isTrump;
    }
  }
  return (best ?? plays[0]).seat;
}

/**
 * The Rival's winner: the lowest card of the suit led, trumps ignored,
 * the first-played 7 ahead of its twin. Null when no suit card was played.
 */
function lowestOfSuitLed(plays: readonly Play[]): Seat | null {
  const led = ledSuitOf(plays);
  let lowest: Play | undefined;
  let lowestRank = Infinity;
  for (const play of plays) {
    const face = faceOf(play.card);
    if (face === undefined || face.suit !== led) continue;
    if (face.rank < lowestRank) {
      lowest = play;
      lowestRank = face.rank;
    }
  }
  return lowest?.seat ?? null;
}

/**
 * Who wins and who captures a complete trick. With `powers`, each special
 * card acts in the order played, on the result of the one before; a
 * Chaperone ends the resolution.
 */
export function resolveTrick(plays: readonly Play[], trump: Suit | null, specials: Specials, seatCount: number): TrickOutcome {
  let winner = plainWinner(plays, trump);
  let capturedBy: Seat | null = winner;
  if (specials !== 'powers') return { winner, capturedBy };
  for (const play of plays) {
    if (!isSpecial(play.card)) continue;
    const power: SpecialCard = play.card;
    if (power === 'cupid') {
      winner = play.seat;
      capturedBy = winner;
    } else if (power === 'rival') {
      const lowest = lowestOfSuitLed(plays);
      if (lowest !== null) {
        winner = lowest;
        capturedBy = winner;
      }
    } else if (power === 'go-between') {
      capturedBy = (winner + 1) % seatCount;
    } else {
      return { winner, capturedBy: null };
    }
  }
  return { winner, capturedBy };
}
