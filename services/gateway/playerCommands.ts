/**
 * A player's command, from HTTP or a socket: the seat comes from the token,
 * never from the body, and a body naming another seat is refused.
 */
import type { Accepted } from '../host/tableService.js';
import type { SeatHold } from '../tokens/seatTokens.js';
import { GatewayRefusal } from './refusals.js';
import type { CommandBody } from './schemas.js';
import type { TableFeed } from './tableFeed.js';

export async function submitForSeat(feed: TableFeed, hold: SeatHold, command: CommandBody): Promise<Accepted> {
  const { tableId, seat, holder } = hold;
  if (command.seat !== undefined && command.seat !== seat) {
    throw new GatewayRefusal('forbidden', `this token holds seat ${seat}; it cannot act for seat ${command.seat}`);
  }
  // Whether the token still holds the seat is decided by the table, in its queue (TableHost.submit).
  return feed.submit(tableId, { ...command, seat }, { source: 'player', holder });
}
