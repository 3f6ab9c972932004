/**
 * Who sits with whom (RULES.md §4, §5, §7), for labels only: whom a seat
 * passes to and whom it may accuse come with its view (hand.passTo,
 * hand.mayAccuse), so the client repeats no rule a command depends on.
 */
import type { TableView } from '../../../../machines/view.js';

/** Seven Suitors and A Traitor of Love: even seats are team A, odd seats team B. */
export function teamOf(seat: number): 'A' | 'B' {
  return seat % 2 === 0 ? 'A' : 'B';
}

export function seatsOfTeam(team: 'A' | 'B', seatCount: number): number[] {
  return Array.from({ length: seatCount }, (_, seat) => seat).filter((seat) => teamOf(seat) === team);
}

/** A seat's side this hand, in words: "Team A", "Anti-Cupid", "Partnership B". */
export function sideLabel(view: TableView, seat: number): string {
  if (view.game !== 'antiCupid') return `Team ${teamOf(seat)}`;
  const antiCupid = view.hand?.antiCupid ?? null;
  if (antiCupid === null) return '';
  const side = antiCupidSide(seat, antiCupid, view.seats.length);
  return side === 'antiCupid' ? 'Anti-Cupid' : `Partnership ${side}`;
}

/** Anti-Cupid's side of a seat in a hand: counting left of Anti-Cupid, the 1st and 3rd are A, the 2nd and 4th B. */
export function antiCupidSide(seat: number, antiCupid: number, seatCount: number): 'A' | 'B' | 'antiCupid' {
  if (seat === antiCupid) return 'antiCupid';
  const distanceLeft = (seat - antiCupid + seatCount) % seatCount;
  return distanceLeft % 2 === 1 ? 'A' : 'B';
}

/** The seats of an Anti-Cupid partnership in a hand. */
export function partnershipSeats(side: 'A' | 'B', antiCupid: number, seatCount: number): number[] {
  return Array.from({ length: seatCount }, (_, seat) => seat).filter((seat) => antiCupidSide(seat, antiCupid, seatCount) === side);
}
