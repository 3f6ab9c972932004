/**
 * The seed a hand of scheme 2 is dealt from (docs/fairness.md): the
 * host's secret, committed to before any seat could contribute, mixed with
 * each seat's contribution. Neither the host (its secret is fixed first) nor
 * a seat (it cannot see the secret) can choose the deal alone.
 */
import { fromHex, sha256, toHex } from './sha256.js';

/** Domain tag, so no other hash of these bytes is ever a deal seed. */
export const DEAL_SEED_TAG = 'seven-suitors/deal-seed/2';
const SECRET_BYTES = 32;

const HEX_256 = /^[0-9a-f]{64}$/;

/** 256 bits as 64 lowercase hex characters: the form of a seed, a commitment and a contribution. */
export function isHex256(value: unknown): value is string {
  return typeof value === 'string' && HEX_256.test(value);
}

/**
 * SHA-256 of: the tag's ASCII bytes, one zero byte, the secret's 32 bytes,
 * then for each seat that contributed, in seat order, the seat number as
 * one byte and the contribution's 32 bytes. With no contribution at all the
 * seed is the secret itself, so a hand nobody contributed to is dealt as a
 * scheme 1 hand of that secret.
 */
export function dealSeedOf(secret: string, contributions: readonly (string | null)[]): string {
  if (!isHex256(secret)) throw new Error('a host secret is 64 lowercase hex characters');
  const given = contributions.flatMap((contribution, seat) => (contribution === null ? [] : [{ seat, contribution }]));
  if (given.length === 0) return secret;
  const tag = new TextEncoder().encode(DEAL_SEED_TAG);
  const message = new Uint8Array(tag.length + 1 + SECRET_BYTES + given.length * (1 + SECRET_BYTES));
  message.set(tag, 0);
  message.set(fromHex(secret), tag.length + 1);
  let at = tag.length + 1 + SECRET_BYTES;
  for (const { seat, contribution } of given) {
    if (!isHex256(contribution)) throw new Error(`seat ${seat}'s contribution is not 64 lowercase hex characters`);
    message[at] = seat;
    message.set(fromHex(contribution), at + 1);
    at += 1 + SECRET_BYTES;
  }
  return toHex(sha256(message));
}

/** Why `contributions` is not a list of each seat's contribution (or null) at a table of `seats`, or null when it is. */
export function contributionsRefusal(contributions: unknown, seats: number): string | null {
  if (!Array.isArray(contributions) || contributions.length !== seats) {
    return `contributions must list each of the ${seats} seats' contribution, or null for a seat that sent none`;
  }
  const bad = contributions.findIndex((contribution) => contribution !== null && !isHex256(contribution));
  return bad === -1 ? null : `seat ${bad}'s contribution must be 64 lowercase hex characters, or null`;
}
