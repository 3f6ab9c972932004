/**
 * Who sits with whom, for labels only, asked of the game's rules
 * (machines/games/rules/): whom a seat passes to and whom it may accuse come
 * with its view (hand.passTo, hand.mayAccuse), so the client repeats no rule
 * a command depends on, and no side rule of its own.
 */
import { rulesOf, sideOf } from '../../../../machines/games/rules/index.js';
import { fixedTeamOf, seatsWhere } from '../../../../machines/rules/sides.js';
import type { TableView } from '../../../../machines/view.js';

/** A seat's team in the games whose teams are fixed (those that mark suits or are won by a team). */
export const teamOf: (seat: number) => 'A' | 'B' = fixedTeamOf;

export function seatsOfTeam(team: 'A' | 'B', seatCount: number): number[] {
  return seatsWhere(seatCount, fixedTeamOf, team);
}

/** A seat's side this hand, in words: "Team A", "Anti-Cupid", "Partnership B". */
export function sideLabel(view: TableView, seat: number): string {
  return rulesOf(view.game).words.side(seat, { antiCupid: view.hand?.antiCupid ?? null, seatCount: view.seats.length });
}

/** The seats of one side of a hand: an Anti-Cupid partnership, a team. */
export function seatsOfSide(view: TableView, side: 'A' | 'B', antiCupid: number | null): number[] {
  const seatCount = view.seats.length;
  return seatsWhere(seatCount, (seat) => sideOf(view.game, seat, antiCupid, seatCount), side);
}
