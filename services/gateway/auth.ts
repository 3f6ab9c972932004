/**
 * Who is calling: nobody in particular, the operator (admin token), or the
 * holder of one seat (seat token). Tokens come as `Authorization: Bearer
 * <token>`, or, for sockets (browsers cannot set headers on them), as
 * `?token=`.
 *
 * The truth of who holds a seat is the table's log (SeatJoined.holder, the
 * token's hash). The token store is an index of it, for speed: a token it
 * does not know, or cannot be asked about, is looked up in the table the
 * request names, and indexed again when found there.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Seat } from '../../machines/rules/trick.js';
import { holdersOf, seatHeldBy, type TableContext } from '../../machines/table/context.js';
import { hashToken, looksLikeToken, type SeatGrant, type SeatHold, type SeatTokens } from '../tokens/seatTokens.js';
import { GatewayRefusal } from './refusals.js';
import { isTableRefusal } from '../host/errors.js';

export type Caller = { readonly kind: 'anyone' } | { readonly kind: 'admin' } | { readonly kind: 'seat'; readonly grant: SeatHold };

export interface Authenticator {
  /**
   * The caller an Authorization header names, at the table `tableId` the
   * request is about (if any); refuses (401) a malformed header or a token
   * nobody issued.
   */
  fromHeader(authorization: string | undefined, tableId?: string): Promise<Caller>;
  fromToken(token: string | undefined, tableId?: string): Promise<Caller>;
}

/** A table's state as it stands, for the seats' tenures; rejects for no such table. */
export type TenuresOf = (tableId: string) => Promise<TableContext>;

export function createAuthenticator(tokens: SeatTokens, adminToken: string | undefined, tenuresOf: TenuresOf): Authenticator {
  const adminDigest = adminToken === undefined || adminToken === '' ? null : digest(adminToken);

  /** The seat the token holds at the table, from the table's own log; null when it holds none there. */
  const heldInLog = async (token: string, tableId: string): Promise<SeatGrant | null> => {
    const holder = hashToken(token);
    // No such table holds no seat; any other trouble (the log unreadable now) is the service's, not a bad token.
    const context = await tenuresOf(tableId).catch((error: unknown) => {
      if (isTableRefusal(error) && error.kind === 'unknownTable') return null;
      throw error;
    });
    const seat = context === null ? -1 : holdersOf(context).indexOf(holder);
    if (seat < 0) return null;
    // Found in the log: the index lost it (a restart of a memory index, a write that failed). Index it again.
    tokens.issue({ tableId, seat }, token).catch(() => undefined);
    return { tableId, seat };
  };

  const fromToken = async (token: string | undefined, tableId?: string): Promise<Caller> => {
    if (token === undefined) return { kind: 'anyone' };
    if (adminDigest !== null && timingSafeEqual(digest(token), adminDigest)) return { kind: 'admin' };
    if (!looksLikeToken(token)) throw unknownToken();
    let grant: SeatGrant | null;
    try {
      grant = await tokens.resolve(token);
    } catch (error) {
      // The index cannot be asked: the table's log can, when the request names a table.
      if (tableId === undefined) throw error;
      grant = null;
    }
    if (grant === null && tableId !== undefined) grant = await heldInLog(token, tableId);
    if (grant === null) throw unknownToken();
    return { kind: 'seat', grant: { tableId: grant.tableId, seat: grant.seat, holder: hashToken(token) } };
  };
  return {
    fromToken,
    async fromHeader(authorization, tableId) {
      if (authorization === undefined) return { kind: 'anyone' };
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (match === null) throw new GatewayRefusal('unauthorized', 'send the token as "Authorization: Bearer <token>"');
      return fromToken(match[1], tableId);
    },
  };
}

function unknownToken(): GatewayRefusal {
  return new GatewayRefusal('unauthorized', 'the token is not known: it was never issued or its seat was left; join a seat for a new one');
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
