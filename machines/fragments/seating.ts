/**
 * Seating: the game starts once every seat is taken. Seats can change hands
 * at any time (a bot takes over a seat that leaves), so the seat events are
 * handled at the table's root, not only here.
 */
import { isHex256 } from '../fairness/fairDeal.js';
import type { SeatJoined, SeatLeft } from '../table/events.js';
import { holdersOf, isSeat, type TableContext } from '../table/context.js';

export function seatJoinRefusal(context: TableContext, event: SeatJoined): string | null {
  if (!isSeat(context, event.seat)) return seatRangeMessage(context, event.seat);
  const occupant = occupantRefusal(event.player) ?? holderRefusal(event);
  if (occupant !== null) return occupant;
  if (context.occupants[event.seat] !== null) return `seat ${event.seat} is taken`;
  return null;
}

/** What is wrong with a joining player's description, or null. */
export function occupantRefusal(player: unknown): string | null {
  if (typeof player !== 'object' || player === null) return 'a joining player needs a name and a bot flag';
  const { name, bot } = player as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 40) {
    return 'a player name is 1 to 40 characters';
  }
  if (typeof bot !== 'boolean') return 'bot must be true or false';
  return null;
}

/** What is wrong with a joining seat's tenure, or null: a person's token hash, or nothing for a bot. */
function holderRefusal(event: SeatJoined): string | null {
  if (event.holder === undefined) return null;
  if (event.player?.bot === true) return 'a bot takes a seat without a token';
  return isHex256(event.holder) ? null : 'holder must be the SHA-256 of the seat token, in 64 lowercase hex characters';
}

export function seatLeaveRefusal(context: TableContext, event: SeatLeft): string | null {
  if (!isSeat(context, event.seat)) return seatRangeMessage(context, event.seat);
  if (context.occupants[event.seat] === null) return `seat ${event.seat} is empty`;
  return null;
}

export function seatRangeMessage(context: TableContext, seat: unknown): string {
  return `seat must be a whole number from 0 to ${context.seatCount - 1}, not ${JSON.stringify(seat)}`;
}

export function takeSeat(context: TableContext, event: SeatJoined): Partial<TableContext> {
  const occupants = context.occupants.slice();
  occupants[event.seat] = { name: event.player.name, bot: event.player.bot };
  const holders = holdersOf(context).slice();
  holders[event.seat] = event.holder ?? null;
  return { occupants, holders };
}

export function freeSeat(context: TableContext, event: SeatLeft): Partial<TableContext> {
  const occupants = context.occupants.slice();
  occupants[event.seat] = null;
  const holders = holdersOf(context).slice();
  holders[event.seat] = null;
  return { occupants, holders };
}

export function allSeatsTaken(context: TableContext): boolean {
  return context.occupants.every((occupant) => occupant !== null);
}

export const seatEvents = {
  'seat.joined': { guard: 'seatIsOpen', actions: 'takeSeat' },
  'seat.left': { guard: 'seatIsTaken', actions: 'freeSeat' },
} as const;

export const seatingState = {
  description: 'Waiting until every seat is taken.',
  always: { guard: 'allSeatsTaken', target: 'dealing' },
} as const;
