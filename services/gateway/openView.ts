/**
 * The view of a finished game with every hand open, for replays: the
 * spectator's view plus what each seat saw of its own hand, built only from
 * viewFor (one call per seat), so it holds nothing viewFor would not show
 * somebody.
 */
import type { Card, Suit } from '../../machines/cards/card.js';
import type { Pass } from '../../machines/table/context.js';
import type { TableSnapshot } from '../../machines/table/snapshot.js';
import type { Seat } from '../../machines/rules/trick.js';
import { viewFor, type RoleName, type TableView } from '../../machines/view.js';

interface OpenHand {
  readonly seat: Seat;
  readonly cards: readonly Card[];
  readonly roleCard: Suit | null;
  readonly role: RoleName | null;
  readonly passesSent: readonly Pass[];
  readonly passesReceived: readonly Pass[];
  readonly accusation: Seat | null;
}

export interface OpenTableView extends TableView {
  readonly open: true;
  readonly openHands: readonly OpenHand[];
}

export function openViewFor(snapshot: TableSnapshot): OpenTableView {
  const spectator = viewFor(snapshot, 'spectator');
  const openHands = spectator.seats.map(({ seat }): OpenHand => {
    const own = viewFor(snapshot, seat);
    return {
      seat,
      cards: own.hand?.cards ?? [],
      roleCard: own.hand?.roleCard ?? null,
      role: own.seats[seat].role,
      passesSent: own.hand?.passesSent ?? [],
      passesReceived: own.hand?.passesReceived ?? [],
      accusation: own.hand?.accusation ?? null,
    };
  });
  return { ...spectator, open: true, openHands };
}
