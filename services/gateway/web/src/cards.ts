/**
 * How cards look: names, colours and symbols of the suits (RULES.md §1).
 * Presentation only; which cards may be played always comes from the view.
 */
import type { Card, Suit } from '../../../../machines/cards/card.js';

export interface SuitLook {
  readonly name: string;
  readonly colour: string;
  readonly symbol: string;
}

export const SUIT_LOOKS: Record<Suit, SuitLook> = {
  1: { name: 'Spades', colour: 'black', symbol: '♠' },
  2: { name: 'Moons', colour: 'purple', symbol: '☾' },
  3: { name: 'Diamonds', colour: 'blue', symbol: '♦' },
  4: { name: 'Clubs', colour: 'green', symbol: '♣' },
  5: { name: 'Stars', colour: 'yellow', symbol: '★' },
  6: { name: 'Pyramids', colour: 'orange', symbol: '▲' },
  7: { name: 'Hearts', colour: 'red', symbol: '♥' },
};

const SPECIAL_NAMES: Record<string, string> = {
  cupid: 'Cupid',
  chaperone: 'Chaperone',
  rival: 'Rival',
  'go-between': 'Go-Between',
};

export interface CardFace {
  /** Null for a special card. */
  readonly suit: Suit | null;
  /** "9", "7a", or the special card's name. */
  readonly rank: string;
}

export function faceOf(card: Card): CardFace {
  const match = /^([1-7])-(\w+)$/.exec(card);
  if (match === null) return { suit: null, rank: SPECIAL_NAMES[card] ?? card };
  return { suit: Number(match[1]) as Suit, rank: match[2] };
}

export function suitName(suit: Suit): string {
  return SUIT_LOOKS[suit].name;
}

/** "9 of Diamonds", "7a of Hearts", "Cupid". */
export function cardName(card: Card): string {
  const { suit, rank } = faceOf(card);
  return suit === null ? rank : `${rank} of ${suitName(suit)}`;
}

const SPECIAL_POWERS: Record<string, string> = {
  cupid: 'With powers: whoever played Cupid wins the trick.',
  chaperone: 'With powers: nobody captures the trick; its cards are set aside, and a 7 set aside cannot be married this hand.',
  rival: 'With powers: the lowest card of the suit led wins, and trumps are ignored.',
  'go-between': "With powers: the trick is won as usual, but the player to the winner's left captures the cards.",
};

const SPECIAL_PLAIN =
  'A special card may be played to any trick, even when you could follow suit, but not led while you hold a suit card. It never wins a trick.';

/** What a card is and does, for its tooltip: special cards' rules, and what 7a and 7b mean. */
export function cardHelp(card: Card): string {
  const { suit, rank } = faceOf(card);
  if (suit === null) return `${rank}: ${SPECIAL_PLAIN} ${SPECIAL_POWERS[card] ?? ''}`.trim();
  if (rank === '7a' || rank === '7b') {
    return `${cardName(card)}: one of the two 7s of ${suitName(suit)} (a and b only tell them apart; if both would win, the first played wins). Capture both in a hand to marry ${suitName(suit)}.`;
  }
  return cardName(card);
}

/** Suit by suit, low to high, special cards last; the two 7s in their a, b order. */
export function sortCards(cards: readonly Card[]): Card[] {
  const order = (card: Card): number => {
    const { suit, rank } = faceOf(card);
    if (suit === null) return 100 + Object.keys(SPECIAL_NAMES).indexOf(card);
    const value = rank === '7a' ? 7 : rank === '7b' ? 7.5 : Number(rank);
    return suit * 14 + value;
  };
  return [...cards].sort((a, b) => order(a) - order(b));
}
