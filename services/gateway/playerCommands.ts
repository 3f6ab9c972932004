/**
 * A player's command, from HTTP or a socket: the seat comes from the token,
 * never from the body, and a body naming another seat is refused.
 */
import type { Accepted } from '../host/tableHost.js';
import type { SeatGrant } from '../tokens/seatTokens.js';
import { GatewayRefusal } from './refusals.js';
import type { CommandBody } from './schemas.js';
import type { TableFeed } from './tableFeed.js';

export async function submitForSeat(feed: TableFeed, grant: SeatGrant, command: CommandBody): Promise<Accepted> {
  const { tableId, seat } = grant;
  if (command.seat !== undefined && command.seat !== seat) {
    throw new GatewayRefusal('forbidden', `this token holds seat ${seat}; it cannot act for seat ${command.seat}`);
  }
  return feed.withTable(tableId, 'player', async (table) => {
    const occupant = table.current.snapshot.context.occupants[seat];
    if (occupant === null || occupant.bot) {
      throw new GatewayRefusal('forbidden', `seat ${seat} at table ${tableId} is no longer held by this token's player`);
    }
    return table.submit({ ...command, seat });
  });
}
