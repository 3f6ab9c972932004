/**
 * Who plays with whom: teams in Seven Suitors and A Traitor of Love,
 * partnerships around Anti-Cupid.
 */
import type { Side, Team, TableContext } from '../table/context.js';
import type { GameName } from '../table/options.js';
import type { Seat } from './trick.js';

/** Seats 0, 2(, 4) are team A; seats 1, 3(, 5) team B. */
export function fixedTeamOf(seat: Seat): Team {
  return seat % 2 === 0 ? 'A' : 'B';
}

/**
 * A seat's side in a hand. In Anti-Cupid, "A" is the 1st and 3rd seats to
 * Anti-Cupid's left, "B" the 2nd and 4th, and Anti-Cupid is a side alone,
 * named by its seat number.
 */
export function sideOf(game: GameName, seat: Seat, antiCupid: Seat | null, seatCount: number): Side {
  if (game !== 'antiCupid') return fixedTeamOf(seat);
  if (antiCupid === null) throw new Error('an Anti-Cupid hand always has an Anti-Cupid');
  if (seat === antiCupid) return antiCupid;
  const distanceLeft = (seat - antiCupid + seatCount) % seatCount;
  return distanceLeft % 2 === 1 ? 'A' : 'B';
}

export function seatsOfSide(context: TableContext, side: Side, antiCupid: Seat | null): Seat[] {
  const seats: Seat[] = [];
  for (let seat = 0; seat < context.seatCount; seat++) {
    if (sideOf(context.game, seat, antiCupid, context.seatCount) === side) seats.push(seat);
  }
  return seats;
}

/** A Traitor of Love: the two other seats of a seat's team. */
export function teammatesOf(seat: Seat, seatCount: number): Seat[] {
  const mates: Seat[] = [];
  for (let other = seat % 2; other < seatCount; other += 2) if (other !== seat) mates.push(other);
  return mates;
}

/** A Traitor of Love: the seats of the other team. */
export function opponentsOf(seat: Seat, seatCount: number): Seat[] {
  const opponents: Seat[] = [];
  for (let other = (seat + 1) % 2; other < seatCount; other += 2) opponents.push(other);
  return opponents;
}
