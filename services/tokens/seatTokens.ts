/**
 * Seat tokens: the credential a player gets on taking a seat. A token is 32
 * random bytes (base64url), bound to one table and one seat. Stores keep only
 * its SHA-256, so a copy of the database does not seat anyone.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Seat } from '../../machines/rules/trick.js';

export interface SeatGrant {
  readonly tableId: string;
  readonly seat: Seat;
}

/**
 * A seat as one token holds it: `holder` is the token's hash, the tenure the
 * seat was taken with (SeatJoined.holder). The table checks it in its queue,
 * so a token whose seat has since changed hands never acts.
 */
export interface SeatHold extends SeatGrant {
  readonly holder: string;
}

export interface SeatTokens {
  /** Records `token` (a new one when not given) for the seat; recording a token again is harmless. */
  issue(grant: SeatGrant, token?: string): Promise<string>;
  /** The seat a token holds, or null for a token the store does not know (or one not shaped like a token). */
  resolve(token: string): Promise<SeatGrant | null>;
  /** Revokes every token of the seat; resolves to how many there were. */
  revokeSeat(grant: SeatGrant): Promise<number>;
  /** Revokes the one token whose hash is `holder`, wherever it sits. */
  revoke(holder: string): Promise<void>;
  close(): Promise<void>;
}

const TOKEN_BYTES = 32;
/** base64url of 32 bytes, without padding. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
