/**
 * How cards look: names, colours and symbols of the suits (RULES.md §1).
 * Presentation only; which cards may be played always comes from the view.
 */
import type { Card, Suit } from '../../../../machines/cards/card.js';
import { words } from './i18n/index.js';

export interface SuitLook {
  readonly colour: string;
  readonly symbol: string;
}

export const SUIT_LOOKS: Record<Suit, SuitLook> = {
  1: { colour: 'black', symbol: '♠' },
  2: { colour: 'purple', symbol: '☾' },
  3: { colour: 'blue', symbol: '♦' },
  4: { colour: 'green', symbol: '♣' },
  5: { colour: 'yellow', symbol: '★' },
  6: { colour: 'orange', symbol: '▲' },
  7: { colour: 'red', symbol: '♥' },
};

/** The special cards, in the order a hand sorts them. */
const SPECIAL_CARDS = ['cupid', 'chaperone', 'rival', 'go-between'] as const;

export interface CardFace {
  /** Null for a special card. */
  readonly suit: Suit | null;
  /** "9", "7a", or the special card's name. */
  readonly rank: string;
}

export function faceOf(card: Card): CardFace {
  const match = /^([1-7])-(\w+)$/.exec(card);
  if (match === null) return { suit: null, rank: words().games.specials[card] ?? card };
  return { suit: Number(match[1]) as Suit, rank: match[2] };
}

export function suitName(suit: Suit): string {
  return words().games.suits[suit - 1];
}

/** "9 of Diamonds", "7a of Hearts", "Cupid". */
export function cardName(card: Card): string {
  const { suit, rank } = faceOf(card);
  return suit === null ? rank : words().games.cardOf(rank, suitName(suit));
}

/** What a card is and does, for its tooltip: special cards' rules, and what 7a and 7b mean. */
export function cardHelp(card: Card): string {
  const { suit, rank } = faceOf(card);
  const games = words().games;
  if (suit === null) return `${rank}: ${games.specialPlain} ${games.specialPowers[card] ?? ''}`.trim();
  if (rank === '7a' || rank === '7b') return games.sevenHelp(cardName(card), suitName(suit));
  return cardName(card);
}

/** Suit by suit, low to high, special cards last; the two 7s in their a, b order. */
export function sortCards(cards: readonly Card[]): Card[] {
  const order = (card: Card): number => {
    const { suit, rank } = faceOf(card);
    if (suit === null) return 100 + (SPECIAL_CARDS as readonly string[]).indexOf(card);
    const value = rank === '7a' ? 7 : rank === '7b' ? 7.5 : Number(rank);
    return suit * 14 + value;
  };
  return [...cards].sort((a, b) => order(a) - order(b));
}
