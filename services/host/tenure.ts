/**
 * Who may act for a seat: the table checks, in its queue, that a command's
 * holder still holds the seat it names (docs/api.md, seats).
 */
import { seatHeldBy, type TableContext } from '../../machines/table/context.js';
import { TableRefusal } from './errors.js';

/**
 * The holder a bot's move names: the seat must still be a bot's. A person
 * may have taken it between the bot's look and its move.
 */
export const HELD_BY_A_BOT = 'bot';

/**
 * Refuses a command whose token no longer holds its seat: the seat was left,
 * or taken by someone else since the token was issued.
 */
export function checkTenure(tableId: string, context: TableContext, seat: unknown, holder: string): void {
  const held =
    holder === HELD_BY_A_BOT ? typeof seat === 'number' && context.occupants[seat]?.bot === true : seatHeldBy(context, seat, holder);
  if (!held) {
    throw new TableRefusal('notHolder', `seat ${String(seat)} at table ${tableId} is no longer held by this token's player`);
  }
}
