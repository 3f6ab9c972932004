/**
 * The host's half of a fair deal (docs/fairness.md): where each hand's
 * secret seed comes from. The machines turn the seed into the deal.
 */
import { createHash, randomBytes } from 'node:crypto';

const SEED_BYTES = 32;

/**
 * 32 fresh bytes from the operating system's secure source for every hand,
 * or, at a table created with a fixed seed (tests, reproducible games and
 * simulations), the SHA-256 of that seed and the hand's index.
 */
export function handSeed(fixedSeed: string | undefined, handIndex: number): string {
  if (fixedSeed === undefined) return randomBytes(SEED_BYTES).toString('hex');
  return createHash('sha256').update(`${fixedSeed}/hand/${handIndex}`).digest('hex');
}
