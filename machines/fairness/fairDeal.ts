/**
 * Provably fair deals (docs/fairness.md). Each hand is dealt from a secret
 * 32-byte seed by a documented function; the log holds the seed's SHA-256
 * (the commitment) from the deal on, and every seat sees the seed once the
 * hand is scored, so anyone can re-derive the deal and the role deal.
 *
 * The host draws the seed; this module only turns a seed into a deal, so the
 * machines can refuse a deal that is not its seed's and the web client can
 * check one without trusting the service.
 */
import { ONE_CARD, inCanonicalOrder, type Card, type Suit } from '../cards/card.js';
import { shuffle, type Rng } from '../cards/shuffle.js';
import { rulesOf } from '../games/rules/index.js';
import { cardsPerSeat, deckFor, type GameName, type TableOptions } from '../table/options.js';
import { CONTRIBUTED_DEAL_SCHEME, DEAL_SCHEME, type DealFairness } from './dealFairness.js';
import { contributionsRefusal, dealSeedOf, isHex256 } from './seatContributions.js';
import { fromHex, hmacWith, keyedHmac, sha256, toHex } from './sha256.js';

export {
  CONTRIBUTED_DEAL_SCHEME,
  DEAL_SCHEME,
  type DealFairness,
  type DealScheme,
  type NextDeal,
  type RevealedDeal,
} from './dealFairness.js';
export { dealSeedOf, isHex256 } from './seatContributions.js';

/** What decides the shape of a deal: how many seats, how many cards each, which deck. */
export interface DealShape {
  readonly game: GameName;
  readonly options: TableOptions;
  readonly cardsPerSeat?: number;
}

export interface Deal {
  readonly deal: Card[][];
  readonly roles: Suit[] | null;
}

export function commitmentOf(seed: string): string {
  return toHex(sha256(fromHex(seed)));
}

export function fairnessOf(seed: string): DealFairness {
  return { scheme: DEAL_SCHEME, commitment: commitmentOf(seed), seed };
}

/** The proof of a scheme 2 deal: the host's secret, its commitment, and every seat's contribution (null: none). */
export function contributedFairnessOf(secret: string, contributions: readonly (string | null)[]): DealFairness {
  return { scheme: CONTRIBUTED_DEAL_SCHEME, commitment: commitmentOf(secret), seed: secret, contributions: contributions.slice() };
}

/** The seed the deal of `fairness` is made from: the seed itself in scheme 1, the secret mixed with the contributions in 2. */
function dealSeedOfFairness(fairness: DealFairness): string {
  return fairness.scheme === CONTRIBUTED_DEAL_SCHEME ? dealSeedOf(fairness.seed, fairness.contributions ?? []) : fairness.seed;
}

/** The deal and role deal `fairness` proves at a table of this shape. */
export function dealOfFairness(shape: DealShape, fairness: DealFairness): Deal {
  return dealFromSeed(shape, dealSeedOfFairness(fairness));
}

/** The deal and role deal a seed makes at a table of this shape. */
export function dealFromSeed(shape: DealShape, seed: string): Deal {
  return layOutDeal(shape, seedStream(seed));
}

/**
 * Shuffles the deck with `rng`, deals it out and, in A Traitor of Love, deals
 * the role cards, in the order docs/fairness.md writes down. Each seat's
 * cards come back in canonical order: nothing in a hand's order tells of the
 * shuffle.
 */
export function layOutDeal(shape: DealShape, rng: Rng): Deal {
  const seats = rulesOf(shape.game).seats;
  const perSeat = shape.cardsPerSeat ?? cardsPerSeat(shape.game, shape.options);
  const needed = perSeat * seats;
  const cards = shuffle(deckFor(shape.options), rng).slice(0, needed);
  if (!cards.includes(ONE_CARD)) cards[rng.below(needed)] = ONE_CARD;
  const deal: Card[][] = [];
  for (let seat = 0; seat < seats; seat++) deal.push(inCanonicalOrder(cards.slice(seat * perSeat, (seat + 1) * perSeat)));
  const roleRules = rulesOf(shape.game).roles;
  const roles: Suit[] | null = roleRules === null ? null : roleRules.deal(seats, rng);
  return { deal, roles };
}

const WORDS_PER_BLOCK = 8;
const TWO_TO_32 = 2 ** 32;

/**
 * The seed's stream of 32-bit words: block k is HMAC-SHA256(seed, k as 8
 * bytes big-endian), read as eight big-endian words. `below` rejects the
 * words past the largest multiple of its bound, so every value is equally
 * likely.
 */
export function seedStream(seed: string): Rng {
  if (!isHex256(seed)) throw new Error('a deal seed is 64 lowercase hex characters');
  const keyed = keyedHmac(fromHex(seed));
  const counterBytes = new Uint8Array(8);
  const counterView = new DataView(counterBytes.buffer);
  let block: Uint32Array = new Uint32Array(0);
  let counter = 0;
  let word = WORDS_PER_BLOCK;
  const nextWord = (): number => {
    if (word === WORDS_PER_BLOCK) {
      counterView.setUint32(0, Math.floor(counter / TWO_TO_32));
      counterView.setUint32(4, counter >>> 0);
      block = hmacWith(keyed, counterBytes);
      counter++;
      word = 0;
    }
    return block[word++];
  };
  return {
    next: () => nextWord() / TWO_TO_32,
    below(bound) {
      if (!Number.isInteger(bound) || bound < 1 || bound > TWO_TO_32) throw new Error(`cannot draw below ${bound}`);
      const limit = TWO_TO_32 - (TWO_TO_32 % bound);
      for (;;) {
        const drawn = nextWord();
        if (drawn < limit) return drawn % bound;
      }
    },
  };
}

/** Why `fairness` does not prove this deal, or null when it does. */
export function fairnessRefusal(
  shape: DealShape,
  dealt: { deal: readonly (readonly Card[])[]; roles: readonly Suit[] | null },
  fairness: unknown,
): string | null {
  const claimed = fairness as Partial<DealFairness> | null;
  if (typeof claimed !== 'object' || claimed === null) return 'fairness must be an object with scheme, commitment and seed';
  if (claimed.scheme !== DEAL_SCHEME && claimed.scheme !== CONTRIBUTED_DEAL_SCHEME) {
    return `the deal scheme must be ${DEAL_SCHEME} or ${CONTRIBUTED_DEAL_SCHEME}, not ${JSON.stringify(claimed.scheme)}`;
  }
  if (!isHex256(claimed.seed)) return 'the deal seed must be 64 lowercase hex characters';
  if (claimed.commitment !== commitmentOf(claimed.seed)) return 'the commitment is not the SHA-256 of the seed';
  const contributed = claimed.scheme === CONTRIBUTED_DEAL_SCHEME;
  if (contributed) {
    const refusal = contributionsRefusal(claimed.contributions, rulesOf(shape.game).seats);
    if (refusal !== null) return refusal;
  } else if (claimed.contributions !== undefined) {
    return `a ${DEAL_SCHEME} deal takes no contributions`;
  }
  if (!Array.isArray(dealt.deal)) return "the deal must be a list of each seat's cards";
  const made = dealOfFairness(shape, claimed as DealFairness);
  const source = contributed ? 'the seed and the contributions deal' : 'the seed deals';
  for (let seat = 0; seat < made.deal.length; seat++) {
    if (!sameCards(made.deal[seat], dealt.deal[seat])) return `seat ${seat}'s cards are not the ones ${source}`;
  }
  if (!sameCards(made.roles ?? [], dealt.roles ?? [])) return `the role cards are not the ones ${source}`;
  return null;
}

function sameCards<T>(expected: readonly T[], actual: readonly T[] | undefined): boolean {
  return Array.isArray(actual) && actual.length === expected.length && expected.every((card, i) => actual[i] === card);
}
