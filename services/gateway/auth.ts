/**
 * Who is calling: nobody in particular, the operator (admin token), or the
 * holder of one seat (seat token). Tokens come as `Authorization: Bearer
 * <token>`, or, for sockets (browsers cannot set headers on them), as
 * `?token=`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Seat } from '../../machines/rules/trick.js';
import { seatHeldBy, type TableContext } from '../../machines/table/context.js';
import { hashToken, type SeatHold, type SeatTokens } from '../tokens/seatTokens.js';
import { GatewayRefusal } from './refusals.js';

export type Caller =
  | { readonly kind: 'anyone' }
  | { readonly kind: 'admin' }
  | { readonly kind: 'seat'; readonly grant: SeatHold };

export interface Authenticator {
  /** The caller an Authorization header names; refuses (401) a malformed header or a token nobody issued. */
  fromHeader(authorization: string | undefined): Promise<Caller>;
  fromToken(token: string | undefined): Promise<Caller>;
}

export function createAuthenticator(tokens: SeatTokens, adminToken: string | undefined): Authenticator {
  const adminDigest = adminToken === undefined || adminToken === '' ? null : digest(adminToken);
  const fromToken = async (token: string | undefined): Promise<Caller> => {
    if (token === undefined) return { kind: 'anyone' };
    if (adminDigest !== null && timingSafeEqual(digest(token), adminDigest)) return { kind: 'admin' };
    const grant = await tokens.resolve(token);
    if (grant === null) {
      throw new GatewayRefusal('unauthorized', 'the token is not known: it was never issued or its seat was left; join a seat for a new one');
    }
    return { kind: 'seat', grant: { tableId: grant.tableId, seat: grant.seat, holder: hashToken(token) } };
  };
  return {
    fromToken,
    async fromHeader(authorization) {
      if (authorization === undefined) return { kind: 'anyone' };
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (match === null) throw new GatewayRefusal('unauthorized', 'send the token as "Authorization: Bearer <token>"');
      return fromToken(match[1]);
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * The seat a caller holds at the table as it stands: its token must name
 * the table and still hold the seat (the tenure in the log), so a token the
 * store failed to revoke still sees nothing of the seat's next occupant.
 */
export function heldSeatOf(caller: Caller, tableId: string, context: TableContext): SeatHold {
  const hold = seatOf(caller, tableId);
  if (!seatHeldBy(context, hold.seat, hold.holder)) {
    throw new GatewayRefusal('forbidden', `seat ${hold.seat} at table ${tableId} is no longer held by this token's player`);
  }
  return hold;
}

/** The seat a caller holds at `tableId` (and, when given, it must be `seat`); refuses anyone else. */
export function seatOf(caller: Caller, tableId: string, seat?: Seat): SeatHold {
  switch (caller.kind) {
    case 'anyone':
      throw new GatewayRefusal('unauthorized', 'this needs the seat token: send it as "Authorization: Bearer <token>"');
    case 'admin':
      throw new GatewayRefusal('forbidden', 'the admin token reads logs and records; it does not act for a seat');
    case 'seat': {
      const { grant } = caller;
      if (grant.tableId !== tableId) throw new GatewayRefusal('forbidden', `this token is for table ${grant.tableId}, not ${tableId}`);
      if (seat !== undefined && grant.seat !== seat) {
        throw new GatewayRefusal('forbidden', `this token holds seat ${grant.seat}; it cannot act for seat ${seat}`);
      }
      return grant;
    }
  }
}
