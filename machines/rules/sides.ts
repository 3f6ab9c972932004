/**
 * Who plays with whom, as the games' rules objects (machines/games/rules/)
 * compose it: fixed teams in Seven Suitors and A Traitor of Love,
 * partnerships around Anti-Cupid. Code outside the rules asks a game's rules
 * object (`sideOf` in machines/games/rules/index.ts), never these by name.
 */
import type { Side, Team } from '../table/context.js';
import type { Seat } from './trick.js';

/** Seats 0, 2(, 4) are team A; seats 1, 3(, 5) team B. */
export function fixedTeamOf(seat: Seat): Team {
  return seat % 2 === 0 ? 'A' : 'B';
}

/**
 * A seat's side around a spoiler: "A" is the 1st and 3rd seats to the
 * spoiler's left, "B" the 2nd and 4th, and the spoiler is a side alone,
 * named by its seat number.
 */
export function sideAroundSpoiler(seat: Seat, spoiler: Seat | null, seatCount: number): Side {
  if (spoiler === null) throw new Error('an Anti-Cupid hand always has an Anti-Cupid');
  if (seat === spoiler) return spoiler;
  const distanceLeft = (seat - spoiler + seatCount) % seatCount;
  return distanceLeft % 2 === 1 ? 'A' : 'B';
}

/** The seats of `side` among `seatCount`, by a game's `sideOf`. */
export function seatsWhere(seatCount: number, sideOfSeat: (seat: Seat) => Side, side: Side): Seat[] {
  const seats: Seat[] = [];
  for (let seat = 0; seat < seatCount; seat++) if (sideOfSeat(seat) === side) seats.push(seat);
  return seats;
}

/** Every other seat. */
export function othersOf(seat: Seat, seatCount: number): Seat[] {
  const others: Seat[] = [];
  for (let other = 0; other < seatCount; other++) if (other !== seat) others.push(other);
  return others;
}

/** The other seats of a seat's fixed team. */
export function teammatesOf(seat: Seat, seatCount: number): Seat[] {
  const mates: Seat[] = [];
  for (let other = seat % 2; other < seatCount; other += 2) if (other !== seat) mates.push(other);
  return mates;
}

/** The seats of the other fixed team. */
export function opponentsOf(seat: Seat, seatCount: number): Seat[] {
  const opponents: Seat[] = [];
  for (let other = (seat + 1) % 2; other < seatCount; other += 2) opponents.push(other);
  return opponents;
}
