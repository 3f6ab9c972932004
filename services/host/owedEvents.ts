/**
 * What a host adds to a table's log besides the commands it takes: the
 * deal of each new hand, when it deals itself, and the `hand.revealed` of
 * each hand scored (its seed made public: docs/fairness.md). Both follow
 * from the actor's state, so they are appended with the command that led
 * to them, in the same append.
 */
import { fairDeal } from '../../machines/fragments/dealing.js';
import type { TableEvent } from '../../machines/table/events.js';
import { revealedDealsOf } from '../../machines/table/context.js';
import { offer, phaseOf } from '../../machines/table/snapshot.js';
import type { NewEvent } from '../eventstore/eventStore.js';
import { handSeed } from './dealer.js';
import type { ResidentTable } from './residentTables.js';
import { HAND_REVEALED } from './tableLog.js';

/** The deals a table awaits after its last event, each offered to its actor: one per hand until it no longer deals. */
export function dealsOwed(table: ResidentTable): TableEvent[] {
  const owed: TableEvent[] = [];
  while (phaseOf(table.actor.getSnapshot()) === 'dealing') {
    const { context } = table.actor.getSnapshot();
    const deal = fairDeal(context, handSeed(table.created.seed, context.handResults.length));
    if (!offer(table.actor, deal)) throw new Error(`table ${table.tableId}: the machine refused the host's deal`);
    owed.push(deal);
  }
  return owed;
}

/** The `hand.revealed` events of the hands scored since the table had revealed `revealedBefore`. */
export function revealedSince(table: ResidentTable, revealedBefore: number, at: string): NewEvent[] {
  return revealedDealsOf(table.actor.getSnapshot().context)
    .slice(revealedBefore)
    .map((revealed): NewEvent => ({ type: HAND_REVEALED, at, data: revealed }));
}
