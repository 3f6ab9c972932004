/**
 * The host's half of a fair deal (docs/fairness.md): where each hand's
 * secret comes from. The machines turn it, with the seats' contributions,
 * into the deal.
 */
import { createHash, randomBytes } from 'node:crypto';
import { commitmentOf } from '../../machines/fairness/fairDeal.js';

const SECRET_BYTES = 32;

/**
 * 32 fresh bytes from the operating system's secure source for every hand,
 * or, at a table created with a fixed seed (tests, reproducible games and
 * simulations), the SHA-256 of that seed and the hand's index.
 */
export function handSeed(fixedSeed: string | undefined, handIndex: number): string {
  if (fixedSeed === undefined) return randomBytes(SECRET_BYTES).toString('hex');
  return createHash('sha256').update(`${fixedSeed}/hand/${handIndex}`).digest('hex');
}

/** A new table's own secret, from which the host's secret for each hand is derived: never shown to anyone. */
export function newDealSecret(): string {
  return randomBytes(SECRET_BYTES).toString('hex');
}

/** What a table keeps of where its hands' secrets come from (its `table.created`). */
export interface SecretSource {
  readonly seed?: string;
  readonly dealSecret?: string;
}

/**
 * The host's secret for hand `handIndex`, fixed from the table's creation so
 * that it can be committed to a whole hand before the deal (and any owner
 * of the table, after a takeover, deals from the same one): the SHA-256 of
 * the table's fixed seed or deal secret and the index. Null at a table with
 * neither (forks, tables created before contributions), which deals each
 * hand from fresh bytes, committed only at its deal.
 */
export function hostSecretOf(table: SecretSource, handIndex: number): string | null {
  const source = table.seed ?? table.dealSecret;
  return source === undefined ? null : handSeed(source, handIndex);
}

/** The commitment to hand `handIndex`'s secret, or undefined at a table that commits at the deal only. */
export function hostCommitmentOf(table: SecretSource, handIndex: number): string | undefined {
  const secret = hostSecretOf(table, handIndex);
  return secret === null ? undefined : commitmentOf(secret);
}
