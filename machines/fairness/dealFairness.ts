/** What a fair deal carries (docs/fairness.md): the types a table's context holds, apart from how a deal is made (fairDeal.ts). */
export const DEAL_SCHEME = 'hmac-sha256-fisher-yates/1';
export type DealScheme = typeof DEAL_SCHEME;

/** What a fair deal carries: the scheme that made it, the seed and its commitment. */
export interface DealFairness {
  readonly scheme: DealScheme;
  /** SHA-256 of the seed's 32 bytes, lowercase hex: public from the deal on. */
  readonly commitment: string;
  /** 32 bytes as 64 lowercase hex characters: secret until the hand is scored. */
  readonly seed: string;
}

/** A scored hand's fairness as every seat sees it. */
export interface RevealedDeal extends DealFairness {
  /** The hand's index in the game, 0 for the first. */
  readonly index: number;
}
