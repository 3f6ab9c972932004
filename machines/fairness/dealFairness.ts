/** What a fair deal carries (docs/fairness.md): the types a table's context holds, apart from how a deal is made (fairDeal.ts). */
/** The deal is the seed's: the host's secret alone. */
export const DEAL_SCHEME = 'hmac-sha256-fisher-yates/1';
/** The deal is the seed the host's secret and the seats' contributions make together (seatContributions.ts). */
export const CONTRIBUTED_DEAL_SCHEME = 'seat-contributions-sha256/2';
export type DealScheme = typeof DEAL_SCHEME | typeof CONTRIBUTED_DEAL_SCHEME;

/** What a fair deal carries: the scheme that made it, the seed and its commitment, and the seats' contributions. */
export interface DealFairness {
  readonly scheme: DealScheme;
  /** SHA-256 of the seed's 32 bytes, lowercase hex: public from the deal on (scheme 2: from the hand before on). */
  readonly commitment: string;
  /** 32 bytes as 64 lowercase hex characters: secret until the hand is scored. Scheme 2: the host's secret. */
  readonly seed: string;
  /**
   * Scheme 2 only: each seat's contribution (32 bytes, hex) in seat order,
   * null for a seat that sent none; secret, as the seed is, until the hand
   * is scored. Absent in scheme 1.
   */
  readonly contributions?: readonly (string | null)[];
}

/** A scored hand's fairness as every seat sees it. */
export interface RevealedDeal extends DealFairness {
  /** The hand's index in the game, 0 for the first. */
  readonly index: number;
}

/** The commitment to the host's secret of a hand not dealt yet: public, so seats contribute to a deal the host can no longer choose. */
export interface NextDeal {
  /** The hand's index in the game, 0 for the first. */
  readonly index: number;
  readonly commitment: string;
}
