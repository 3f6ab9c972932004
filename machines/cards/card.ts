/**
 * Cards in the notation of the game record (docs/record-format.md):
 * suit cards are "<suit>-<rank>", the two 7s of a suit "<suit>-7a" and
 * "<suit>-7b", special cards by name.
 */

export type Suit = 1 | 2 | 3 | 4 | 5 | 6 | 7;
export const SUITS: readonly Suit[] = [1, 2, 3, 4, 5, 6, 7];
export const HEARTS: Suit = 7;

export const SUIT_NAMES: Record<Suit, string> = {
  1: 'Spades',
  2: 'Moons',
  3: 'Diamonds',
  4: 'Clubs',
  5: 'Stars',
  6: 'Pyramids',
  7: 'Hearts',
};

type RankName = '1' | '2' | '3' | '4' | '5' | '6' | '7a' | '7b' | '8' | '9' | '10' | '11' | '12' | '13';
export type SuitCard = `${Suit}-${RankName}`;
export type SpecialCard = 'cupid' | 'chaperone' | 'rival' | 'go-between';
export type Card = SuitCard | SpecialCard;

export const SPECIAL_CARDS: readonly SpecialCard[] = ['cupid', 'chaperone', 'rival', 'go-between'];

/** The card that decides who leads the first trick of every hand. */
export const ONE_CARD: SuitCard = '1-1';

export interface SuitCardFace {
  readonly suit: Suit;
  /** Both 7s of a suit have rank 7; which was played first breaks their tie. */
  readonly rank: number;
}

function ranksOf(suit: Suit): RankName[] {
  const ranks: RankName[] = [];
  for (let rank = suit; rank <= suit + 6; rank++) {
    if (rank === 7) ranks.push('7a', '7b');
    else ranks.push(String(rank) as RankName);
  }
  return ranks;
}

const SUIT_CARDS: readonly SuitCard[] = SUITS.flatMap((suit) => ranksOf(suit).map((rank) => `${suit}-${rank}` as SuitCard));

const FACES = new Map<string, SuitCardFace>(
  SUIT_CARDS.map((card) => {
    const [suit, rank] = card.split('-');
    return [card, { suit: Number(suit) as Suit, rank: rank.startsWith('7') ? 7 : Number(rank) }];
  }),
);

const SPECIALS = new Set<string>(SPECIAL_CARDS);

/** The 56 suit cards, suit by suit, low to high. */
export const SUIT_DECK: readonly Card[] = SUIT_CARDS;
/** The 56 suit cards and the four special cards. */
export const FULL_DECK: readonly Card[] = [...SUIT_CARDS, ...SPECIAL_CARDS];

const CANONICAL_POSITION = new Map<Card, number>(FULL_DECK.map((card, position) => [card, position]));

/**
 * Cards by suit, then rank (7a before 7b), special cards last: the order in
 * which a hand is dealt and shown, so that no order says how the deck fell.
 */
export function inCanonicalOrder(cards: readonly Card[]): Card[] {
  return cards.slice().sort((a, b) => (CANONICAL_POSITION.get(a) ?? 0) - (CANONICAL_POSITION.get(b) ?? 0));
}

export function isCard(value: unknown): value is Card {
  return typeof value === 'string' && (FACES.has(value) || SPECIALS.has(value));
}

export function isSpecial(card: Card): card is SpecialCard {
  return SPECIALS.has(card);
}

/** Suit and rank of a suit card; undefined for a special card. */
export function faceOf(card: Card): SuitCardFace | undefined {
  return FACES.get(card);
}

const CHAR_0 = 48;
const CHAR_DASH = 45;

/**
 * The suit of a suit card, read from its first character (every suit card
 * is "<suit>-..." with a one-digit suit); undefined for a special card. Trick
 * play asks this for every card it looks at, so it avoids the map lookup.
 */
export function suitOf(card: Card): Suit | undefined {
  const digit = card.charCodeAt(0) - CHAR_0;
  return digit >= 1 && digit <= 7 && card.charCodeAt(1) === CHAR_DASH ? (digit as Suit) : undefined;
}

export function isSeven(card: Card): boolean {
  return FACES.get(card)?.rank === 7;
}

export function sevensOf(suit: Suit): [SuitCard, SuitCard] {
  return [`${suit}-7a`, `${suit}-7b`];
}

export function isSuit(value: unknown): value is Suit {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 7;
}

const SPECIAL_NAMES: Record<SpecialCard, string> = {
  cupid: 'Cupid',
  chaperone: 'the Chaperone',
  rival: 'the Rival',
  'go-between': 'the Go-Between',
};

/**
 * A card in words, with its notation after it for a client that reads the
 * notation: "the 9 of Clubs (4-9)", "the Chaperone (chaperone)".
 */
export function cardInWords(card: Card): string {
  const suit = suitOf(card);
  if (suit === undefined) return `${SPECIAL_NAMES[card as SpecialCard]} (${card})`;
  return `the ${card.slice(2)} of ${SUIT_NAMES[suit]} (${card})`;
}

/** Why a value is not a card, in words a player understands. */
export function describeNonCard(value: unknown): string {
  if (typeof value !== 'string') return `a card is a string like "3-9" or "cupid", not ${JSON.stringify(value)}`;
  const match = /^(\d+)-(\w+)$/.exec(value);
  if (match) {
    const suit = Number(match[1]);
    if (!isSuit(suit)) return `"${value}" is not a card: suits are 1 to 7`;
    const valid = ranksOf(suit).join(', ');
    return `"${value}" is not a card: suit ${suit} holds ranks ${valid}`;
  }
  return `"${value}" is not a card: write suit cards as "<suit>-<rank>" (e.g. "3-9", "3-7a") or a special card (${SPECIAL_CARDS.join(', ')})`;
}
