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
  if (seat === antiCupid) return 'Anti-Cupid';
  const distanceLeft = (seat - antiCupid + view.seats.length) % view.seats.length;
  return distanceLeft % 2 === 1 ? 'Partnership A' : 'Partnership B';
}
