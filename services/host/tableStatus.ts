import { phaseOf, type TableSnapshot } from '../../machines/table/snapshot.js';
import type { TableStatus } from '../eventstore/eventStore.js';

/** The status the store keeps beside a table, so a lobby lists tables without replaying them. */
export function statusOf(snapshot: TableSnapshot): TableStatus {
  const { context } = snapshot;
  return {
    game: context.game,
    phase: phaseOf(snapshot),
    openSeats: context.occupants.flatMap((occupant, seat) => (occupant === null ? [seat] : [])),
    hand: context.hand === null ? 0 : context.hand.index + 1,
    finished: context.outcome?.finished ?? false,
  };
}
