/**
 * Who sits with whom, for labels only, asked of the game's rules
 * (machines/games/rules/): whom a seat passes to and whom it may accuse come
 * with its view (hand.passTo, hand.mayAccuse), so the client repeats no rule
 * a command depends on, and no side rule of its own.
 */
import { rulesOf, sideOf } from '../../../../machines/games/rules/index.js';
import { fixedTeamOf, seatsWhere } from '../../../../machines/rules/sides.js';
import type { TableView } from '../../../../machines/view.js';
import { words } from './i18n/index.js';

/** A seat's team in the games whose teams are fixed (those that mark suits or are won by a team). */
export const teamOf: (seat: number) => 'A' | 'B' = fixedTeamOf;

export function seatsOfTeam(team: 'A' | 'B', seatCount: number): number[] {
  return seatsWhere(seatCount, fixedTeamOf, team);
}

/** A seat's side this hand, in words: "Team A", "Anti-Cupid", "Partnership B"; empty before Anti-Cupid is known. */
export function sideLabel(view: TableView, seat: number): string {
  if (rulesOf(view.game).words.fixedTeam(seat) !== null) return words().team(teamOf(seat));
  const antiCupid = view.hand?.antiCupid ?? null;
  if (antiCupid === null) return '';
  const side = sideOf(view.game, seat, antiCupid, view.seats.length);
  return typeof side === 'number' ? words().games.antiCupid : words().games.partnership(side);
}

/** Whether a seat plays alone this hand (Anti-Cupid): its side is its role, shown as a badge. */
export function playsAlone(view: TableView, seat: number): boolean {
  const antiCupid = view.hand?.antiCupid ?? null;
  return antiCupid !== null && typeof sideOf(view.game, seat, antiCupid, view.seats.length) === 'number';
}

/** The seats of one side of a hand: an Anti-Cupid partnership, a team. */
export function seatsOfSide(view: TableView, side: 'A' | 'B', antiCupid: number | null): number[] {
  const seatCount = view.seats.length;
  return seatsWhere(seatCount, (seat) => sideOf(view.game, seat, antiCupid, seatCount), side);
}
