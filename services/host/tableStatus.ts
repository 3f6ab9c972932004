import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { TableStatus } from '../eventstore/eventStore.js';
import { STAND_IN_PREFIX } from './standIns.js';

/**
 * The status the store keeps beside a table, so a lobby lists tables without replaying them. Its open seats are
 * those a person may take: empty ones, and, in a game not over, those a stand-in bot holds (a forked table's are
 * all stand-ins); a person cannot be named like a stand-in (services/gateway/playerNames.ts), so the name tells.
 */
export function statusOf(snapshot: TableSnapshot): TableStatus {
  const { context } = snapshot;
  const phase = phaseOf(snapshot);
  const takeable = (occupant: (typeof context.occupants)[number]) =>
    occupant === null || (phase !== 'gameOver' && occupant.bot && occupant.name.startsWith(STAND_IN_PREFIX));
  return {
    game: context.game,
    phase,
    openSeats: context.occupants.flatMap((occupant, seat) => (takeable(occupant) ? [seat] : [])),
    hand: context.hand === null ? 0 : context.hand.index + 1,
    finished: context.outcome?.finished ?? false,
  };
}
