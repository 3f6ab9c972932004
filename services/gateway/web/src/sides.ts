/**
 * Who sits with whom (RULES.md §4, §5, §7), for labels and for offering
 * the right pass recipients and accusation targets. The service checks
 * every command against the machines, so a slip here is refused, never played.
 */
import type { GameName } from '../../../../machines/table/options.js';
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

/** The seats `seat` passes one card each to. */
export function passRecipients(game: GameName, seatCount: number, seat: number): number[] {
  const others = Array.from({ length: seatCount }, (_, other) => other).filter((other) => other !== seat);
  return game === 'traitorOfLove' ? others.filter((other) => teamOf(other) !== teamOf(seat)) : others;
}

/** A Traitor of Love: the two teammates a seat may accuse. */
export function teammates(seat: number, seatCount: number): number[] {
  return seatsOfTeam(teamOf(seat), seatCount).filter((other) => other !== seat);
}
